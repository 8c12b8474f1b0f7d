// `npm run bench -- --instructions <n>`: instructions a request instead of seconds. On a shared machine the
// service's CPU time a request swung twofold between runs of one build minutes apart (2026-11-26: cold reads
// 209-425 µs); the instructions its main thread runs repeat within ~1% (hot reads) to ~3% (cold reads) while V8
// compiles the same way, and runs fall into modes up to ~20% apart when it does not (bench/README.md).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import type { BenchRequest, Scenario } from './scenarios.ts';

/**
 * The service's command put behind valgrind's callgrind: nothing counted until asked (the start and the warm-up
 * are not), one file per thread, so the main thread's count is apart from V8's helpers (concurrent marking,
 * compiling), which vary twofold between runs and are reported but not compared.
 *
 * With its cache simulator, whose last level is set to this machine's 1 MB L2: a cold read ran ~1.4x a kept
 * read's instructions and took ~1.9x its time (2026-11-27), and the misses beyond 1 MB (kept ~1200 a request,
 * cold ~2200) are where the rest went. The simulator's own guess of the last level (256 MB, direct-mapped)
 * showed almost none.
 */
export const callgrind = (dir: string): string[] =>
  ['valgrind', '--tool=callgrind', '--cache-sim=yes', '--LL=1048576,16,64', '--instr-atstart=no', '--separate-threads=yes', `--callgrind-out-file=${join(dir, 'callgrind.out')}`];

// callgrind_control reaches the service through vgdb, whose pipes are named after USER and HOST: both
// processes must see the same (HOST is the service's listening address too).
export const CALLGRIND_ENV = { USER: 'bench', LOGNAME: 'bench', HOST: '127.0.0.1' };

export interface InstructionCount {
  scenario: string;
  requests: number;
  /** Instructions a request, the service's main thread. */
  main: number;
  /** Instructions a request, every thread of the process. */
  all: number;
  /**
   * Cache misses a request of the main thread beyond the simulated 1 MB last level (data read and written,
   * instructions fetched): memory that costs tens of ns an access, what instructions do not show.
   */
  misses: number;
  /** Answers other than 2xx while counting (the count is then worth nothing). */
  failed: number;
}

const control = (pid: number, ...args: string[]) =>
  execFileSync('callgrind_control', [...args, String(pid)], { env: { ...process.env, ...CALLGRIND_ENV }, stdio: 'ignore' });

/**
 * `warm` requests of the scenario, then `count` more with instrumentation on; the counts are dumped and read
 * (callgrind's files in `dir`, removed afterwards unless `keep`: then the main thread's stays, as
 * `callgrind.<scenario>`, for callgrind_annotate). `connections` requests in flight, over kept-alive sockets.
 */
export async function countInstructions(url: string, pid: number, dir: string, scenario: Scenario, count: number, connections: number, keep = false): Promise<InstructionCount> {
  await send(url, scenario.sequence, 0, count, connections);
  control(pid, '--zero');
  control(pid, '--instr=on');
  const failed = await send(url, scenario.sequence, count, count, connections);
  control(pid, '--dump');
  control(pid, '--instr=off');
  const dumps = readdirSync(dir).filter((name) => /^callgrind\.out\.\d+-\d+$/.test(name));
  const totals = dumps.map((name) => ({ thread: Number(name.split('-').pop()), ...countsOf(readFileSync(join(dir, name), 'utf8')) }));
  for (const name of dumps) {
    if (keep && Number(name.split('-').pop()) === 1) renameSync(join(dir, name), join(dir, `callgrind.${scenario.name}`));
    else rmSync(join(dir, name));
  }
  const main = totals.find((total) => total.thread === 1);
  const all = totals.reduce((sum, total) => sum + total.instructions, 0);
  return { scenario: scenario.name, requests: count, main: (main?.instructions ?? 0) / count, all: all / count, misses: (main?.misses ?? 0) / count, failed };
}

/** A callgrind file's instructions and last-level misses, by the names its `events:` line gives its columns. */
export function countsOf(text: string): { instructions: number; misses: number } {
  const names = /^events: (.+)$/m.exec(text)?.[1].trim().split(/\s+/) ?? [];
  const values = /^(?:totals|summary): (.+)$/m.exec(text)?.[1].trim().split(/\s+/).map(Number) ?? [];
  const of = (name: string) => values[names.indexOf(name)] ?? 0;
  return { instructions: of('Ir'), misses: of('ILmr') + of('DLmr') + of('DLmw') };
}

/** Sends requests `from` to `from + count` of the sequence (cycled); how many were answered other than 2xx. */
async function send(url: string, sequence: BenchRequest[], from: number, count: number, connections: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const { hostname, port } = new URL(url);
  let next = from;
  let failed = 0;
  const one = (request: BenchRequest, n: number) => new Promise<void>((resolve, reject) => {
    // Created titles must differ (bench/load.ts does the same).
    const body = request.body?.replace(/__N__/g, `i${process.pid}-${n}`);
    const sent = http.request({ hostname, port, method: request.method, path: request.path, headers: request.headers, agent }, (response) => {
      response.resume();
      response.on('end', () => {
        if ((response.statusCode ?? 500) >= 300) failed++;
        resolve();
      });
    });
    sent.on('error', reject);
    sent.end(body);
  });
  await Promise.all(Array.from({ length: connections }, async () => {
    while (next < from + count) {
      const n = next++;
      await one(sequence[n % sequence.length], n);
    }
  }));
  agent.destroy();
  return failed;
}

export function instructionTable(counts: InstructionCount[]): string {
  const rows = counts.map((c) => `| ${c.scenario} | ${c.requests} | ${Math.round(c.main)} | ${Math.round(c.all)} | ${Math.round(c.misses)} | ${c.failed} |`);
  return ['| scenario | requests counted | main thread instr/req | all threads instr/req | main thread misses/req beyond 1 MB | non-2xx |', '|---|---:|---:|---:|---:|---:|', ...rows].join('\n');
}
