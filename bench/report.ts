import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { InstructionCount } from './instructions.ts';
import { BENCH_DIR, type ScenarioResult } from './measure.ts';
import { idleMemoryReclaim } from './page-cache.ts';
import { canPin } from './processes.ts';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  pinned: string;
  /** How idle vCPUs wait during the run (bench/halt-poll.ts). */
  idle?: string;
  /** Whether the kernel reclaims idle memory, the page cache's included, whatever is free (bench/page-cache.ts). */
  reclaim?: string;
  /** The server's and the load generator's cores timed on a fixed workload before the scenarios (bench/core-speed.ts). */
  coreSpeed?: string;
  /** Other work on the machine skews every number: the 1-minute load average before and after the run. */
  loadAverage: { before: number; after?: number };
}

export interface RunReport {
  startedAt: string;
  machine: Machine;
  database: string;
  events: number;
  seedSeconds: number;
  seedCpuSeconds: number;
  /** The database of an earlier run, measured again (`--reuse`): nothing was seeded. */
  reused?: boolean;
  /** How long the service took to store every event's text before the scenarios ran (events/stored-texts.ts). */
  storedTextsSeconds: number;
  settings: { connections: number; duration: number; warmup: number };
  scenarios: ScenarioResult[];
  /** The server's lifetime peak resident set (VmHWM), seeding excluded: it runs in its own process. */
  serverPeakRssMb: number;
  /** The `import` scenario (bench/import.ts): `cal-events import` from a fake TEC site, in events per second. */
  importRun?: { events: number; seconds: number; eventsPerSecond: number };
  /** With --instructions: instructions a request under callgrind instead of timed scenarios (bench/instructions.ts). */
  instructions?: InstructionCount[];
}

export function machineInfo(): Machine {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    pinned: canPin ? 'server on core 0, load generator on core 1 (taskset)' : 'not pinned (no taskset or one core)',
    reclaim: idleMemoryReclaim(),
    loadAverage: { before: loadavg()[0] },
  };
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const HEADERS = ['scenario', 'ratio', 'ratio by CPU', 'req/s', 'ceiling req/s', 'ceiling CPU µs/req', 'ceiling system µs/req', 'ceiling CPU %', 'body B', 'p50 ms', 'p99 ms', 'non-2xx', 'CPU %', 'CPU µs/req', 'main µs/req', 'system µs/req', 'peak RSS MB', 'disk read MB', 'db in memory MB', 'warm-up s'];

function rows(results: ScenarioResult[]): string[][] {
  return results.map((r) => [
    r.name,
    fixed(r.ratio, 3),
    fixed(r.cpuRatio, 3),
    fixed(r.service.rps, 0),
    fixed(r.ceiling.rps, 0),
    fixed(r.ceiling.cpuPerRequestUs, 0),
    fixed(r.ceiling.systemCpuPerRequestUs, 0),
    fixed(r.ceiling.cpuPercent, 0),
    String(r.bodyBytes),
    fixed(r.service.p50, 2),
    fixed(r.service.p99, 2),
    String(r.service.non2xx + r.service.errors + r.service.timeouts),
    fixed(r.service.cpuPercent, 0),
    fixed(r.service.cpuPerRequestUs, 0),
    fixed(r.service.mainCpuPerRequestUs, 0),
    fixed(r.service.systemCpuPerRequestUs, 0),
    fixed(r.service.peakRssMb, 0),
    fixed(r.service.storageReadMb, 1),
    r.databaseInMemory ? `${r.databaseInMemory.residentMb.toFixed(0)} of ${r.databaseInMemory.fileMb.toFixed(0)}` : '-',
    String(r.service.warmupSeconds),
  ]);
}

/** A fixed-width table for the terminal. */
export function textTable(headers: string[], body: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

export function markdownTable(headers: string[], body: string[][]): string {
  return [`| ${headers.join(' | ')} |`, `|${headers.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...body.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

export const resultTable = (results: ScenarioResult[]) => textTable(HEADERS, rows(results));

export function summaryLine(report: RunReport): string {
  const m = report.machine;
  const seeded = report.reused ? `an earlier run's database, not seeded again` : `seeded in ${report.seedSeconds.toFixed(1)} s (${report.seedCpuSeconds.toFixed(1)} s CPU)`;
  return `${report.events} events on ${report.database}; ${seeded}; ` +
    `texts stored by the service in ${report.storedTextsSeconds.toFixed(1)} s; ` +
    `${report.settings.connections} connections, warm-up in rounds of ${report.settings.warmup} s until the server's CPU a request settles, then ${report.settings.duration} s each; ` +
    `${m.cores} × ${m.cpu}, node ${m.node}; ${m.pinned}${m.coreSpeed ? `: ${m.coreSpeed}` : ''}; ${m.idle ?? 'idle vCPUs as the machine has them'}; ${m.reclaim ?? 'no idle memory reclaimed by the kernel (DAMON)'}; load average ${m.loadAverage.before.toFixed(2)} before, ` +
    `${m.loadAverage.after?.toFixed(2) ?? '?'} after; server peak RSS ${report.serverPeakRssMb.toFixed(0)} MB`;
}

function markdown(report: RunReport): string {
  const notes = report.scenarios.flatMap((r) => r.probeFailures.map((failure) => `- ${r.name}: ${failure}`));
  return [
    `# cal-events benchmark, ${report.startedAt}`,
    '',
    summaryLine(report),
    '',
    'ratio = req/s of the scenario / req/s of a bare node:http server answering a JSON body of the same size',
    '(the ceiling), driven the same way, in turns with the scenario. Latencies are from every response of the measured run.',
    'A ceiling CPU % under 100 means the load generator, not the bare server, set the ceiling\'s pace: a ratio to it is then higher than to what Node\'s HTTP alone answers.',
    'ratio by CPU = the ceiling\'s CPU µs a request / the scenario\'s, both on the service\'s core in the same turns: how many bare answers a request costs, whoever sets the pace.',
    '',
    markdownTable(HEADERS, rows(report.scenarios)),
    '',
    ...report.scenarios.map((r) => `- ${r.name}: ${r.title}`),
    ...(notes.length ? ['', '## Failed probe requests', '', ...notes] : []),
    '',
  ].join('\n');
}

/** Writes `bench/results/<timestamp><suffix>.json` and `.md`; returns the path without extension. */
export function writeResults(stamp: string, json: unknown, md: string): string {
  const dir = join(BENCH_DIR, 'results');
  mkdirSync(dir, { recursive: true });
  const base = join(dir, stamp);
  writeFileSync(`${base}.json`, `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(`${base}.md`, md);
  return base;
}

export const writeRun = (report: RunReport) =>
  writeResults(report.startedAt.replace(/[:.]/g, '-'), report, markdown(report));
