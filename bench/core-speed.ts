// How fast each core runs a fixed piece of JavaScript, timed before the run. The cores of one virtual machine
// need not run at one speed: on one kind here the service's core 0 took 1.6 times as long as core 1 for the
// same work, every time, and which core is the slow one differs between machines. A run's absolute times (µs
// of CPU a request) are the service core's; read against another run's, they need its speed beside them.
import { spawnSync } from 'node:child_process';
import { canPin } from './processes.ts';

/** `JSON.parse(JSON.stringify(x))` of a small record, for `ms` milliseconds: µs an operation. */
const WORKLOAD = `
const record = { id: 1, title: 'Jazz night', tags: ['late', 'live'], venue: { name: 'Blue Room', geo: [52.52, 13.4] }, text: 'x'.repeat(200) };
const until = performance.now() + Number(process.argv[1]);
let done = 0;
for (; performance.now() < until; done += 1000) for (let i = 0; i < 1000; i++) JSON.parse(JSON.stringify(record));
process.stdout.write(String((Number(process.argv[1]) * 1000) / done));
`;

const ROUNDS = 3;
const ROUND_MS = 700;

/** `cores` µs an operation each, the median of three rounds taken in turns; undefined where cores cannot be pinned. */
export function coreSpeeds(cores: number[], roundMs = ROUND_MS): number[] | undefined {
  if (!canPin) return undefined;
  const rounds = cores.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    cores.forEach((core, i) => {
      const run = spawnSync('taskset', ['-c', String(core), process.execPath, '-e', WORKLOAD, String(roundMs)], { encoding: 'utf8' });
      const us = Number(run.stdout);
      if (run.status === 0 && Number.isFinite(us)) rounds[i].push(us);
    });
  }
  return rounds.map((times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? NaN);
}

/** For the report: `core 0 2.49 µs, core 1 1.58 µs (a fixed JSON round trip)`. */
export function speedLabel(cores: number[], speeds: number[] | undefined): string {
  if (!speeds) return 'core speeds not measured (cores not pinned)';
  return `${cores.map((core, i) => `core ${core} ${Number.isFinite(speeds[i]) ? speeds[i].toFixed(2) : '?'} µs`).join(', ')} (a fixed JSON round trip, the median of ${ROUNDS})`;
}
