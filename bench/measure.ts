import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LoadResult, LoadSpec, LoadTarget } from './load.ts';
import { fileInMemory, type FileInMemory } from './page-cache.ts';
import { cpuSeconds, cpuSplit, freePort, LOAD_CORE, pinned, type Service, sampleRss, startService, storageReadBytes, TSX } from './processes.ts';
import type { BenchRequest, Scenario } from './scenarios.ts';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT_DIR = dirname(BENCH_DIR);

export interface RunSettings {
  connections: number;
  duration: number;
  warmup: number;
  /** The run's temporary folder: load specs and process logs go there. */
  dir: string;
  /** The SQLite file the service serves, whose share in memory each scenario notes (bench/page-cache.ts). */
  databaseFile?: string;
}

export interface ServiceMeasure extends LoadResult {
  /** Server CPU over the measured run, 100 = one core busy all the time. */
  cpuPercent: number;
  /**
   * Server CPU (every thread: V8's collector and compiler, the WAL checkpointer) per response, in µs. On a
   * shared machine it moves far less from run to run than req/s, which steal and neighbours move: the
   * figure to compare two builds by (seen here: creates 1397/1364/1398 µs against 702/720/701 req/s).
   */
  cpuPerRequestUs: number;
  /** Of it, the main thread's: what answering costs without the helper threads (callgrind counts it alone). */
  mainCpuPerRequestUs: number;
  /** Of it, in the kernel (all threads): reads of the database file, socket writes, page faults. */
  systemCpuPerRequestUs: number;
  peakRssMb: number;
  /**
   * MB the server had read from storage during the measured run: what the page cache did not hold. A cold
   * read of a 1M-event database (6.4 GB) just seeded read tens of MB, and waited for them (CPU below 90%).
   */
  storageReadMb: number;
  /** Seconds of warm-up before the measured run: rounds until the server's CPU a request settled (see `warm`). */
  warmupSeconds: number;
}

export interface ScenarioResult {
  name: string;
  title: string;
  /** Mean response body size of the first requests of the scenario, which the ceiling answers with. */
  bodyBytes: number;
  service: ServiceMeasure;
  /**
   * With its CPU a request, all of it and the kernel's: what sending the same bytes costs at the least (a
   * scenario's kernel time beyond the ceiling's is not all ours: an idle client is woken more often), and how
   * busy it kept its core: under 100%, the load generator set its pace, not the bare server (2026-11-29: 62-79%,
   * where the service's scenarios kept theirs 95-98% busy), so a ratio to it is higher than to what Node's HTTP
   * alone could answer.
   */
  ceiling: LoadResult & { bodyBytes: number; cpuPerRequestUs: number; systemCpuPerRequestUs: number; cpuPercent: number };
  ratio: number;
  /**
   * The ceiling's CPU a request over the scenario's, both on the service's core in the same turns: how many
   * bare answers a request costs, whoever sets the pace. Where the load generator bounds the ceiling (its
   * `cpuPercent` under 100), `ratio` is higher than this; where both servers keep their core busy, the two agree.
   */
  cpuRatio: number;
  /** Failed probe requests, status and the start of the body, for the warning. */
  probeFailures: string[];
  /** How much of the SQLite file was in memory when the measured slices began (unknown on PostgreSQL). */
  databaseInMemory?: FileInMemory;
}

let specs = 0;

/** Runs the load worker on its own core; `onEdge` is called as each slice of target `i` starts and stops. */
async function load(spec: LoadSpec, dir: string, onEdge?: (edge: 'start' | 'stop', i: number) => void): Promise<LoadResult[]> {
  const file = join(dir, `load-${specs++}.json`);
  writeFileSync(file, JSON.stringify(spec));
  const [command, args] = pinned(LOAD_CORE, process.execPath, ['--import', TSX, join(BENCH_DIR, 'load.ts'), file]);
  const child = spawn(command, args, { cwd: ROOT_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
  let results: LoadResult[] | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    const edge = /^(start|stop) (\d+)$/.exec(line);
    if (edge) onEdge?.(edge[1] as 'start' | 'stop', Number(edge[2]));
    // JSON writes NaN (no responses to take a percentile of) as null.
    else if (line.startsWith('[')) results = JSON.parse(line, (_key, value) => (value === null ? NaN : value)) as LoadResult[];
  }
  const code = child.exitCode ?? (await new Promise<number | null>((resolve) => child.once('exit', resolve)));
  if (!results) throw new Error(`the load worker exited with ${code} and no result`);
  return results;
}

/** Sends the first (up to 20) requests once: checks they succeed and measures the typical body size. */
async function probe(url: string, sequence: BenchRequest[]): Promise<{ bytes: number; failures: string[] }> {
  const sizes: number[] = [];
  const failures: string[] = [];
  const deadline = Date.now() + 10_000;
  for (const [i, request] of sequence.slice(0, 20).entries()) {
    // A slow service still gets measured: after 10 s, three requests are a good enough sample.
    if (i >= 3 && Date.now() > deadline) break;
    const response = await fetch(`${url}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body?.replace(/__N__/g, `probe-${Date.now()}-${i}`),
    });
    const text = await response.text();
    sizes.push(Buffer.byteLength(text));
    if (response.status >= 300) failures.push(`${response.status} ${request.method} ${request.path}: ${text.slice(0, 300)}`);
  }
  return { bytes: Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length), failures };
}

// Warm-up rounds at most before a scenario is measured anyway, and how close two rounds in a row must come.
const MOST_WARMUP_ROUNDS = 10;
const SETTLED = 0.05;

/**
 * Warms the service up in rounds of `roundSeconds` (`round` runs one and returns the server's CPU a request)
 * until two rounds in a row come within 5% of each other (or MOST_WARMUP_ROUNDS); returns the seconds spent.
 * One round was the warm-up before, and it was not enough where a path is slow to reach V8's optimizing compiler: after 3 s of creates
 * (~2500) a fifth of the server's CPU was still TurboFan compiling them (`perf`, the compiler's share falling
 * from 25% to 3% over the next 8 s), and creates measured after 20 s cost 1017 us against 1324 after 2 s. A
 * service that has run for minutes has paid that once; the measured run is its steady state.
 */
export async function warm(round: () => Promise<number>, roundSeconds: number): Promise<number> {
  let previous = NaN;
  for (let rounds = 1; rounds <= MOST_WARMUP_ROUNDS && roundSeconds > 0; rounds++) {
    const perRequest = await round();
    if (Math.abs(perRequest - previous) <= SETTLED * previous) return rounds * roundSeconds;
    previous = perRequest;
  }
  return roundSeconds > 0 ? MOST_WARMUP_ROUNDS * roundSeconds : 0;
}

/** One warm-up round of `target`: the server's CPU seconds a response. */
async function warmUpRound(target: LoadTarget, settings: RunSettings, pid: number): Promise<number> {
  const before = cpuSeconds(pid);
  const [{ responses }] = await load({ connections: settings.connections, targets: [target], slices: 1, sliceSeconds: settings.warmup }, settings.dir);
  return (cpuSeconds(pid) - before) / responses;
}

// The measured seconds of a scenario and of its ceiling, each, are cut into this many slices, taken in turn.
const SLICES = 5;

/**
 * A server's CPU, storage reads and time over the slices it was loaded in (`start`/`stop` around each), and
 * its peak RSS from the first slice to the last.
 */
function watchServer(pid: number) {
  const sum = { total: 0, system: 0, main: 0, seconds: 0, readBytes: 0 };
  let at: { cpu: ReturnType<typeof cpuSplit>; read: number; time: number } | undefined;
  let stopRss: (() => number) | undefined;
  return {
    start() {
      stopRss ??= sampleRss(pid);
      at = { cpu: cpuSplit(pid), read: storageReadBytes(pid), time: performance.now() };
    },
    stop() {
      if (!at) return;
      const cpu = cpuSplit(pid);
      sum.total += cpu.total - at.cpu.total;
      sum.system += cpu.system - at.cpu.system;
      sum.main += cpu.main - at.cpu.main;
      sum.seconds += (performance.now() - at.time) / 1000;
      sum.readBytes += storageReadBytes(pid) - at.read;
      at = undefined;
    },
    /** What was watched, a response at a time for `responses`. */
    measured(responses: number) {
      const perRequestUs = (seconds: number) => (seconds * 1e6) / responses;
      return {
        cpuPercent: (sum.total / sum.seconds) * 100,
        cpuPerRequestUs: perRequestUs(sum.total),
        mainCpuPerRequestUs: perRequestUs(sum.main),
        systemCpuPerRequestUs: perRequestUs(sum.system),
        peakRssMb: stopRss?.() ?? NaN,
        storageReadMb: sum.readBytes / 1048576,
      };
    },
  };
}

/**
 * The scenario and its ceiling (a bare node:http server answering a body of the scenario's mean size), each
 * warmed up, then measured in turns of a fifth of the duration each: the scenario, the ceiling, the
 * scenario, … This machine's speed drifts within minutes (in one run, ceilings for bodies of ~10 kB measured
 * 22.9k and 35.6k req/s twenty minutes apart, 15k and 24k a minute apart on another day), so a ceiling measured
 * in its own ten seconds after the scenario's made the ratio swing with the drift; side by side, both meet it.
 */
async function measureWithCeiling(service: Service, target: LoadTarget, bytes: number, settings: RunSettings) {
  const port = await freePort();
  const ceiling = await startService(['--import', TSX, join(BENCH_DIR, 'ceiling.ts')], { CEILING_BYTES: String(bytes) }, port, join(settings.dir, 'ceiling.log'), '/');
  try {
    const ceilingTarget = { url: ceiling.url, sequence: target.sequence };
    await warm(() => warmUpRound(ceilingTarget, settings, ceiling.pid), settings.warmup);
    const warmupSeconds = await warm(() => warmUpRound(target, settings, service.pid), settings.warmup);
    // What the measured requests meet: after the warm-up, which reads part of the file back.
    const databaseInMemory = settings.databaseFile === undefined ? undefined : fileInMemory(settings.databaseFile);
    const watches = [watchServer(service.pid), watchServer(ceiling.pid)];
    const spec = { connections: settings.connections, targets: [target, ceilingTarget], slices: SLICES, sliceSeconds: settings.duration / SLICES };
    const [served, bare] = await load(spec, settings.dir, (edge, i) => watches[i][edge]());
    const { cpuPerRequestUs, systemCpuPerRequestUs, cpuPercent } = watches[1].measured(bare.responses);
    return {
      service: { ...served, ...watches[0].measured(served.responses), warmupSeconds },
      ceiling: { ...bare, bodyBytes: bytes, cpuPerRequestUs, systemCpuPerRequestUs, cpuPercent },
      databaseInMemory,
    };
  } finally {
    await ceiling.stop();
  }
}

/** Probe, then the scenario measured side by side with its ceiling (its CPU and memory watched). */
export async function measureScenario(service: Service, scenario: Scenario, settings: RunSettings): Promise<ScenarioResult> {
  const { bytes, failures } = await probe(service.url, scenario.sequence);
  const { service: measured, ceiling, databaseInMemory } = await measureWithCeiling(service, { url: service.url, sequence: scenario.sequence }, bytes, settings);
  return {
    name: scenario.name,
    title: scenario.title,
    bodyBytes: bytes,
    service: measured,
    ceiling,
    ratio: measured.rps / ceiling.rps,
    cpuRatio: ceiling.cpuPerRequestUs / measured.cpuPerRequestUs,
    probeFailures: failures,
    databaseInMemory,
  };
}
