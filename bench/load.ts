// The load generator, its own process on its own core: `node --import tsx bench/load.ts <spec.json>`.
// Loads each target in turn, a slice at a time (see LoadSpec); prints `start <i>` and `stop <i>` around each
// slice of target i, then one JSON line with each target's results.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon, { type Request } from 'autocannon';
import type { BenchRequest } from './scenarios.ts';

export interface LoadTarget {
  url: string;
  sequence: BenchRequest[];
}

/**
 * `slices` rounds, each loading every target in turn for `sliceSeconds`: a scenario and its ceiling measured
 * side by side, so that both meet the machine as it is in those seconds, not each in its own minute.
 */
export interface LoadSpec {
  connections: number;
  targets: LoadTarget[];
  slices: number;
  sliceSeconds: number;
}

export interface LoadResult {
  responses: number;
  rps: number;
  /** Milliseconds, from every response (autocannon's own histogram rounds to whole milliseconds). */
  p50: number;
  p99: number;
  mean: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** One target's responses over all its slices; its sequence goes on where the slice before stopped. */
interface Tally {
  next: number;
  latencies: Float64Array;
  count: number;
  seconds: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
}

const newTally = (): Tally => ({ next: 0, latencies: new Float64Array(1 << 16), count: 0, seconds: 0, non2xx: 0, errors: 0, timeouts: 0, statuses: {} });

// Titles of created events must differ between runs too, or every create walks a growing list of slugs.
const token = randomBytes(3).toString('hex');
let created = 0;

async function loadSlice(target: LoadTarget, connections: number, seconds: number, tally: Tally): Promise<void> {
  const { sequence } = target;
  const setupRequest = (request: Request): Request => {
    const item = sequence[tally.next++ % sequence.length];
    return {
      ...request,
      method: item.method,
      path: item.path,
      headers: { ...item.headers },
      body: item.body?.replace(/__N__/g, () => `${token}-${created++}`),
    };
  };
  // autocannon stops at its first sample after the duration: sampled every second, a 2 s slice ran 2 or 3 s.
  const instance = autocannon({ url: target.url, connections, duration: seconds, sampleInt: 100, requests: [{ setupRequest }] });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (tally.count === tally.latencies.length) {
      const grown = new Float64Array(tally.latencies.length * 2);
      grown.set(tally.latencies);
      tally.latencies = grown;
    }
    tally.latencies[tally.count++] = ms;
    tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
  });
  const result = await instance;
  tally.seconds += result.duration;
  tally.non2xx += result.non2xx;
  tally.errors += result.errors;
  tally.timeouts += result.timeouts;
}

function resultOf(tally: Tally): LoadResult {
  const sorted = tally.latencies.slice(0, tally.count).sort();
  let sum = 0;
  for (const ms of sorted) sum += ms;
  return {
    responses: tally.count,
    rps: tally.count / tally.seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: tally.count ? sum / tally.count : NaN,
    non2xx: tally.non2xx,
    errors: tally.errors,
    timeouts: tally.timeouts,
    statuses: tally.statuses,
  };
}

// Import only its types elsewhere (`import type`): importing the module runs the load.
const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadSpec;
const tallies = spec.targets.map(newTally);
for (let slice = 0; slice < spec.slices; slice++) {
  for (const [i, target] of spec.targets.entries()) {
    process.stdout.write(`start ${i}\n`);
    await loadSlice(target, spec.connections, spec.sliceSeconds, tallies[i]);
    process.stdout.write(`stop ${i}\n`);
  }
}
process.stdout.write(`${JSON.stringify(tallies.map(resultOf))}\n`);
