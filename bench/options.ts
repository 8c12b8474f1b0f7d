import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SCALE_SCENARIOS, SCENARIOS, type ScenarioName } from './scenarios.ts';

export interface BenchOptions {
  events: number;
  duration: number;
  warmup: number;
  connections: number;
  scenarios: ScenarioName[];
  /** `postgres://…` or `sqlite:<path>`; none: SQLite in a fresh temporary file. */
  database?: string;
  /** A folder an earlier `--keep` run left: its SQLite database is measured again instead of a new seed. */
  reuse?: string;
  keep: boolean;
  scale: boolean;
  scaleEvents: number[];
  /** Instructions a request instead of seconds: requests to warm with, and as many to count (0: time as usual). */
  instructions: number;
  /** Microseconds idle vCPUs poll before halting during the run (bench/halt-poll.ts); undefined: as the machine has it. */
  haltPoll: number | undefined;
  help: boolean;
}

export const USAGE = `usage: npm run bench -- [options]

Seeds a realistic calendar, starts the service (node dist/src/cli.js serve, as npm start) as its own process, drives
each scenario with autocannon, and compares it with a bare node:http server answering a JSON body of the
same size (the ceiling). Prints a table; writes bench/results/<timestamp>.json and .md.

  --events <n>          events to seed (default 100000)
  --duration <s>        measured seconds per scenario, and per ceiling (default 10)
  --warmup <s>          seconds of each warm-up round before a measured run: rounds until the server's CPU a
                        request settles (within 5%, at most 10 rounds) (default 3; 0 for none)
  --connections <n>     concurrent connections (default 10)
  --scenarios <a,b,…>   some of: ${SCENARIOS.join(', ')}
                        (default: all; with --scale: ${SCALE_SCENARIOS.join(', ')})
  --database <url>      postgres://… (a fresh schema bench_<random>, dropped afterwards) or sqlite:<path>
                        (default: SQLite in a fresh temporary file)
  --reuse <dir>         measure the SQLite database a --keep run left in <dir> (its bench.db) again, instead of
                        seeding one: as many events as it holds (--events is not used), its creates of earlier
                        runs among them; the folder stays. Not with --database or --scale
  --keep                keep the database (and the server log; with --instructions, the main thread's callgrind
                        file of each scenario) after the run, and print where
  --scale               the scale run: the scenarios at each --scale-events size, and how their p50
                        grows from the smallest to the largest (npm run bench:scale)
  --scale-events <a,b>  sizes for --scale (default 10000,1000000)
  --instructions <n>    count instead of timing: once the texts are stored, the service runs again under
                        valgrind's callgrind; each scenario sends n requests to warm it, then n counted; prints
                        the instructions a request of the service's main thread (repeatable within ~1-3% where
                        its CPU time swung 2x) and of all its threads. No ceiling, no import, not with --scale;
                        needs valgrind
  --halt-poll <µs|off>  how long an idle virtual CPU polls before it halts, during the run (Linux's haltpoll
                        driver, root only; bench/halt-poll.ts): waking the idle load generator then costs the
                        service no interrupt through the hypervisor, which the ceiling never pays. Put back
                        after. At most 10000; "off" leaves the machine's setting (default 200)
  -h, --help            this text

Exits 1 when any scenario had a non-2xx response, an error or a timeout.`;

export class OptionsError extends Error {}

function count(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (raw.trim() === '' || !Number.isInteger(value) || value < min) throw new OptionsError(`--${name} must be an integer >= ${min} (got "${raw}")`);
  return value;
}

// Idle vCPUs burn their host's time while they poll: up to 10 ms, far past any gap between two answers.
const MOST_HALT_POLL_US = 10_000;
function haltPoll(raw: string | undefined): number {
  const value = count('halt-poll', raw, 200, 0);
  if (value > MOST_HALT_POLL_US) throw new OptionsError(`--halt-poll must be at most ${MOST_HALT_POLL_US} µs, or "off" (got "${raw}")`);
  return value;
}

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      events: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      scenarios: { type: 'string' },
      database: { type: 'string' },
      reuse: { type: 'string' },
      keep: { type: 'boolean', default: false },
      scale: { type: 'boolean', default: false },
      'scale-events': { type: 'string' },
      instructions: { type: 'string' },
      'halt-poll': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const defaults = values.scale ? SCALE_SCENARIOS : SCENARIOS;
  const scenarios = values.scenarios === undefined ? [...defaults] : values.scenarios.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scenarios.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new OptionsError(`unknown scenario(s) ${unknown.join(', ')}: choose from ${SCENARIOS.join(', ')}`);
  const database = values.database;
  if (database !== undefined && !/^(postgres(ql)?:\/\/|sqlite:)/.test(database)) {
    throw new OptionsError(`--database must start with postgres:// or sqlite: (got "${database}")`);
  }
  if (values.reuse !== undefined && (database !== undefined || values.scale)) {
    throw new OptionsError('--reuse measures the database of a kept folder: it cannot be combined with --database or --scale');
  }
  // Checked here, so that a wrong folder is told as an option is, and an empty one never becomes the current folder.
  if (values.reuse !== undefined && (values.reuse.trim() === '' || !existsSync(join(values.reuse, 'bench.db')))) {
    throw new OptionsError(`--reuse ${JSON.stringify(values.reuse)}: no bench.db there (give the folder a --keep run printed)`);
  }
  if (values.instructions !== undefined && values.scale) throw new OptionsError('--instructions counts one run: it cannot be combined with --scale');
  const scaleEvents = (values['scale-events'] ?? '10000,1000000').split(',').map((n) => count('scale-events', n.trim(), 0, 1));
  return {
    events: count('events', values.events, 100_000, 1),
    duration: count('duration', values.duration, 10, 1),
    warmup: count('warmup', values.warmup, 3, 0),
    connections: count('connections', values.connections, 10, 1),
    scenarios: scenarios as ScenarioName[],
    database,
    reuse: values.reuse === undefined ? undefined : resolve(values.reuse),
    keep: values.keep,
    scale: values.scale,
    scaleEvents,
    instructions: count('instructions', values.instructions, 0, 1),
    haltPoll: values['halt-poll'] === 'off' ? undefined : haltPoll(values['halt-poll']),
    help: values.help,
  };
}
