// The load generator, its own process on its own core: `node --import tsx bench/load.ts <spec.json>`.
// Prints `start` when the measured run begins, then one JSON line with the results.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon, { type Request } from 'autocannon';
import type { BenchRequest } from './scenarios.ts';

export interface LoadSpec {
  url: string;
  connections: number;
  duration: number;
  sequence: BenchRequest[];
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

async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  // Titles of created events must differ between runs too, or every create walks a growing list of slugs.
  const token = randomBytes(3).toString('hex');
  let next = 0;
  let created = 0;
  const setupRequest = (request: Request): Request => {
    const item = spec.sequence[next++ % spec.sequence.length];
    return {
      ...request,
      method: item.method,
      path: item.path,
      headers: { ...item.headers },
      body: item.body?.replace(/__N__/g, () => `${token}-${created++}`),
    };
  };
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const statuses: Record<string, number> = {};
  const instance = autocannon({ url: spec.url, connections: spec.connections, duration: spec.duration, requests: [{ setupRequest }] });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = ms;
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const result = await instance;
  const sorted = latencies.slice(0, count).sort();
  let sum = 0;
  for (const ms of sorted) sum += ms;
  return {
    responses: count,
    rps: count / result.duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: count ? sum / count : NaN,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
  };
}

// Import only its types elsewhere (`import type`): importing the module runs the load.
const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadSpec;
process.stdout.write('start\n');
process.stdout.write(`${JSON.stringify(await runLoad(spec))}\n`);
