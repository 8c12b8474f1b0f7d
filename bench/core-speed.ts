// How fast each core runs a fixed piece of JavaScript, and a system call, timed before the run. The cores of
// one virtual machine need not run at one speed: on one kind here the service's core 0 took 1.6 times as long
// as core 1 for the same work, every time, and which core is the slow one differs between machines. A run's
// absolute times (µs of CPU a request) are the service core's; read against another run's, they need its
// speed beside them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { canPin } from './processes.ts';

/** `JSON.parse(JSON.stringify(x))` of a small record, for `ms` milliseconds: µs an operation. */
const WORKLOAD = `
const record = { id: 1, title: 'Jazz night', tags: ['late', 'live'], venue: { name: 'Blue Room', geo: [52.52, 13.4] }, text: 'x'.repeat(200) };
const until = performance.now() + Number(process.argv[1]);
let done = 0;
for (; performance.now() < until; done += 1000) for (let i = 0; i < 1000; i++) JSON.parse(JSON.stringify(record));
process.stdout.write(String((Number(process.argv[1]) * 1000) / done));
`;

/**
 * A system call as Node makes one (`fstat` of an open file) for `ms` milliseconds: µs a call. What a kernel
 * entry costs depends on the machine's virtualization and its kernel's mitigations, not only on its cores:
 * 2.7 µs on the machine of 2026-11-29 (a guest whose kernel isolates its page tables, with no PCID, so that
 * every entry also empties the TLB), where the JSON round trip above took 2.0-2.2 µs. A cold read makes several.
 */
const SYSTEM_CALL = `
const fs = require('node:fs');
const fd = fs.openSync(process.execPath, 'r');
const until = performance.now() + Number(process.argv[1]);
let done = 0;
for (; performance.now() < until; done += 1000) for (let i = 0; i < 1000; i++) fs.fstatSync(fd);
process.stdout.write(String((Number(process.argv[1]) * 1000) / done));
`;

const ROUNDS = 3;
const ROUND_MS = 700;

/** `script` on each of `cores`, µs an operation each, the median of three rounds taken in turns. */
function timed(script: string, cores: number[], roundMs: number): number[] {
  const rounds = cores.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    cores.forEach((core, i) => {
      const run = spawnSync('taskset', ['-c', String(core), process.execPath, '-e', script, String(roundMs)], { encoding: 'utf8' });
      const us = Number(run.stdout);
      if (run.status === 0 && Number.isFinite(us)) rounds[i].push(us);
    });
  }
  return rounds.map((times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? NaN);
}

export interface CoreSpeeds {
  /** µs a fixed JSON round trip, each core. */
  json: number[];
  /** µs a system call on the first core (the server's). */
  systemCall: number;
  /** Whether kernel entries switch page tables (`pageTableIsolation`). */
  isolation: string;
}

/** The cores timed on the fixed workloads; undefined where cores cannot be pinned. */
export function coreSpeeds(cores: number[], roundMs = ROUND_MS): CoreSpeeds | undefined {
  if (!canPin) return undefined;
  return { json: timed(WORKLOAD, cores, roundMs), systemCall: timed(SYSTEM_CALL, cores.slice(0, 1), roundMs)[0], isolation: pageTableIsolation() };
}

/** Whether the kernel isolates its page tables (Meltdown's mitigation: every kernel entry then switches them). */
export function pageTableIsolation(file = '/sys/devices/system/cpu/vulnerabilities/meltdown'): string {
  try {
    return /\bPTI\b/.test(readFileSync(file, 'utf8')) ? 'kernel page-table isolation on' : 'no kernel page-table isolation';
  } catch {
    return 'kernel page-table isolation unknown';
  }
}

const us = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '?');

/**
 * For the report, as on 2026-11-29: `core 0 2.03 µs, core 1 1.97 µs (a fixed JSON round trip, the median of 3);
 * a system call 2.64 µs on core 0 (fstat), kernel page-table isolation on`.
 */
export function speedLabel(cores: number[], speeds: CoreSpeeds | undefined): string {
  if (!speeds) return 'core speeds not measured (cores not pinned)';
  return `${cores.map((core, i) => `core ${core} ${us(speeds.json[i])} µs`).join(', ')} (a fixed JSON round trip, the median of ${ROUNDS}); ` +
    `a system call ${us(speeds.systemCall)} µs on core ${cores[0]} (fstat), ${speeds.isolation}`;
}
