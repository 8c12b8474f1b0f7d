// `npm run bench -- --instructions <n>`: instructions a request instead of seconds. On a shared machine the
// service's CPU time a request swung twofold between runs of one build minutes apart (2026-11-26: cold reads
// 209-425 µs); the instructions its main thread runs repeat within ~1% (hot reads) to ~3% (cold reads).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import type { BenchRequest, Scenario } from './scenarios.ts';

/**
 * The service's command put behind valgrind's callgrind: nothing counted until asked (the start and the warm-up
 * are not), one file per thread, so the main thread's count is apart from V8's helpers (concurrent marking,
 * compiling), which vary twofold between runs and are reported but not compared.
 */
export const callgrind = (dir: string): string[] =>
  ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', `--callgrind-out-file=${join(dir, 'callgrind.out')}`];

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
  /** Answers other than 2xx while counting (the count is then worth nothing). */
  failed: number;
}

const control = (pid: number, ...args: string[]) =>
  execFileSync('callgrind_control', [...args, String(pid)], { env: { ...process.env, ...CALLGRIND_ENV }, stdio: 'ignore' });

/**
 * `warm` requests of the scenario, then `count` more with instrumentation on; the counts are dumped and read
 * (callgrind's files in `dir`, removed afterwards). `connections` requests in flight, over kept-alive sockets.
 */
export async function countInstructions(url: string, pid: number, dir: string, scenario: Scenario, count: number, connections: number): Promise<InstructionCount> {
  await send(url, scenario.sequence, 0, count, connections);
  control(pid, '--zero');
  control(pid, '--instr=on');
  const failed = await send(url, scenario.sequence, count, count, connections);
  control(pid, '--dump');
  control(pid, '--instr=off');
  const dumps = readdirSync(dir).filter((name) => /^callgrind\.out\.\d+-\d+$/.test(name));
  const totals = dumps.map((name) => {
    const text = readFileSync(join(dir, name), 'utf8');
    const found = /^(?:totals|summary): (\d+)/m.exec(text);
    return { thread: Number(name.split('-').pop()), instructions: found ? Number(found[1]) : 0 };
  });
  for (const name of dumps) rmSync(join(dir, name));
  const main = totals.find((total) => total.thread === 1)?.instructions ?? 0;
  const all = totals.reduce((sum, total) => sum + total.instructions, 0);
  return { scenario: scenario.name, requests: count, main: main / count, all: all / count, failed };
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
  const rows = counts.map((c) => `| ${c.scenario} | ${c.requests} | ${Math.round(c.main)} | ${Math.round(c.all)} | ${c.failed} |`);
  return ['| scenario | requests counted | main thread instr/req | all threads instr/req | non-2xx |', '|---|---:|---:|---:|---:|', ...rows].join('\n');
}
