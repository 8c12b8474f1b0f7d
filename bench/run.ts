import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBenchDatabase, openKeptDatabase } from './database.ts';
import { measureImport } from './import.ts';
import { readFixtures } from './fixtures.ts';
import { measureScenario, ROOT_DIR, type RunSettings } from './measure.ts';
import { type BenchOptions, OptionsError, parseOptions, USAGE } from './options.ts';
import { CALLGRIND_ENV, callgrind, countInstructions, type InstructionCount, instructionTable } from './instructions.ts';
import { freePort, killServices, LOAD_CORE, memoryMb, SERVER_CORE, type Service, startService } from './processes.ts';
import { coreSpeeds, speedLabel } from './core-speed.ts';
import { pollWhenIdle } from './halt-poll.ts';
import { sqliteFile } from './page-cache.ts';
import { machineInfo, resultTable, type RunReport, summaryLine, writeRun } from './report.ts';
import { writeScale } from './scale-report.ts';
import { buildScenarios, type ScenarioName } from './scenarios.ts';
import { reuseCalendar, seedCalendar } from './seed.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);
/** Events of the import scenario: enough pages (50 each) for a steady rate. */
const IMPORT_EVENTS = 5000;

/**
 * What a run made and removes when it ends: its temporary folders, and the database it made (named, for an
 * interrupted run, which cannot drop a PostgreSQL schema on its way out).
 */
const scratch = { dirs: new Set<string>(), database: undefined as string | undefined };

/** One database, seeded with `events` events, one service process, the scenarios in turn. */
async function runOnce(options: BenchOptions, events: number, names: ScenarioName[], idle: string): Promise<RunReport> {
  const startedAt = new Date().toISOString();
  const machine = { ...machineInfo(), idle };
  // A reused folder is an earlier run's, and stays; a new one goes with the run unless kept.
  const dir = options.reuse ?? mkdtempSync(join(tmpdir(), 'cal-bench-'));
  if (!options.reuse) scratch.dirs.add(dir);
  const database = options.reuse ? await openKeptDatabase(dir) : await openBenchDatabase(options.database, dir);
  scratch.database = database.label;
  let open = true;
  let service: Service | undefined;
  try {
    if (!options.reuse) log(`seeding ${events} events on ${database.label} …`);
    const seed = options.reuse ? await reuseCalendar(database.handle) : await seedCalendar(database.handle, events, log);
    events = seed.events;
    log(options.reuse ? `reusing the ${events} events of ${database.label}` : `seeded ${events} events in ${seed.seconds.toFixed(1)} s (${seed.cpuSeconds.toFixed(1)} s of CPU in this process)`);
    const fixtures = await readFixtures(database.handle.db);
    await database.handle.close();
    open = false;

    const authorization = `Basic ${Buffer.from(`${seed.user.login}:${seed.user.password}`).toString('base64')}`;
    const scenarios = buildScenarios(fixtures, authorization);
    const port = await freePort();
    const env = {
      // LOG_LEVEL: the default, whatever the caller's, so every answered request writes its access line as it does
      // for a user who runs the service as it comes. CAL_PUBLIC_URL: part of every stored text's fingerprint
      // (events/stored-texts.ts), the same at every run, or a reused database would store all its texts again.
      DATABASE_URL: database.serverUrl, HOST: '127.0.0.1', LOG_LEVEL: 'info', CAL_PUBLIC_URL: 'http://localhost', CAL_TIMEZONE: 'UTC',
      // One load generator is one client: a rate limit would measure itself.
      CAL_RATE_LIMIT: 'off',
    };
    // The compiled service, as `npm start` runs it (npm run bench builds it first).
    // The heap limits of `npm start`; BENCH_NODE_FLAGS replaces them ("" for none).
    const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '--max-old-space-size=128 --max-semi-space-size=8').split(' ').filter(Boolean);
    // A log of this run's service alone: a reused folder holds an earlier run's, whose lines would be read as this one's.
    writeFileSync(join(dir, 'server.log'), '');
    service = await startService([...nodeFlags, join(ROOT_DIR, 'dist/src/cli.js'), 'serve'], env, port, join(dir, 'server.log'), '/cal/events/v1/');
    log(`service pid ${service.pid} on ${service.url}`);
    // A service runs with every event's text stored once it has run a while (events/stored-texts.ts): it
    // stores those missing at start, which the scenarios wait for, as they would for a warm cache.
    const storing = await storedTexts(service.url);
    log(`the service stored ${storing.texts} event texts in ${storing.seconds.toFixed(1)} s`);

    // The service is idle now, its texts stored: the cores are timed before any scenario loads them.
    machine.coreSpeed = speedLabel([SERVER_CORE, LOAD_CORE], coreSpeeds([SERVER_CORE, LOAD_CORE]));
    log(`cores: ${machine.coreSpeed}`);
    const settings: RunSettings = { connections: options.connections, duration: options.duration, warmup: options.warmup, dir, databaseFile: sqliteFile(database.serverUrl) };
    if (options.instructions > 0) {
      // The texts are stored now: the same service again, under callgrind, counts the scenarios' requests.
      await service.stop();
      writeFileSync(join(dir, 'server-callgrind.log'), '');
      const counting = service = await startService([...nodeFlags, join(ROOT_DIR, 'dist/src/cli.js'), 'serve'], { ...env, ...CALLGRIND_ENV },
        port, join(dir, 'server-callgrind.log'), '/cal/events/v1/', callgrind(dir));
      await storedTexts(counting.url);
      const instructions: InstructionCount[] = [];
      for (const name of names) {
        instructions.push(await countInstructions(counting.url, counting.pid, dir, scenarios[name], options.instructions, options.connections, options.keep));
        const c = instructions[instructions.length - 1];
        log(`  ${name}: ${Math.round(c.main)} instructions a request on the main thread, ${Math.round(c.all)} on all threads, ${Math.round(c.misses)} cache misses beyond 1 MB on the main thread, non-2xx ${c.failed}`);
      }
      return {
        startedAt, machine, database: database.label, events, seedSeconds: seed.seconds, seedCpuSeconds: seed.cpuSeconds, reused: Boolean(options.reuse),
        storedTextsSeconds: storing.seconds, settings: { connections: options.connections, duration: 0, warmup: 0 },
        scenarios: [], serverPeakRssMb: memoryMb(counting.pid, 'VmHWM'), instructions,
      };
    }
    const results = [];
    for (const name of names) {
      const result = await measureScenario(service, scenarios[name], settings);
      results.push(result);
      const s = result.service;
      const { ceiling } = result;
      const inMemory = result.databaseInMemory ? `, ${result.databaseInMemory.residentMb.toFixed(0)} of the database's ${result.databaseInMemory.fileMb.toFixed(0)} MB in memory at the start` : '';
      log(`  ${name}: ${s.rps.toFixed(0)} req/s (ceiling ${ceiling.rps.toFixed(0)} at ${ceiling.cpuPerRequestUs.toFixed(0)} µs a request, kernel ${ceiling.systemCpuPerRequestUs.toFixed(0)}, its core ${ceiling.cpuPercent.toFixed(0)} % busy; ratio ${result.ratio.toFixed(3)}, by CPU ${result.cpuRatio.toFixed(3)}), ` +
        `p50 ${s.p50.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms, non-2xx ${s.non2xx}, CPU ${s.cpuPercent.toFixed(0)} % (${s.cpuPerRequestUs.toFixed(0)} µs a request: main thread ${s.mainCpuPerRequestUs.toFixed(0)}, kernel ${s.systemCpuPerRequestUs.toFixed(0)}), RSS ${s.peakRssMb.toFixed(0)} MB, ${s.storageReadMb.toFixed(1)} MB read from disk${inMemory}, after ${s.warmupSeconds} s of warm-up`);
      for (const failure of result.probeFailures) log(`    probe: ${failure}`);
    }
    const serverPeakRssMb = memoryMb(service.pid, 'VmHWM');
    machine.loadAverage.after = loadavg()[0];
    return {
      startedAt, machine, database: database.label.replace(/ \(.*\)$/, ''), events, seedSeconds: seed.seconds, seedCpuSeconds: seed.cpuSeconds, reused: Boolean(options.reuse),
      storedTextsSeconds: storing.seconds,
      settings: { connections: options.connections, duration: options.duration, warmup: options.warmup },
      scenarios: results, serverPeakRssMb,
    };
  } finally {
    await service?.stop();
    if (open) await database.handle.close();
    if (options.keep || options.reuse) log(`kept: ${dir} (server.log${options.database ? '' : ', bench.db'}${options.instructions > 0 ? ', callgrind.<scenario>' : ''}); database ${database.label}`);
    else {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
    scratch.dirs.delete(dir);
    scratch.database = undefined;
  }
}

/** Waits for the service's `/readyz` to say every event's text is stored; how many, and how long it took. */
async function storedTexts(url: string): Promise<{ texts: number; seconds: number }> {
  for (const deadline = Date.now() + 30 * 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
    const ready = await (await fetch(`${url}/readyz`)).json() as { background?: Record<string, { state: string; count?: number; seconds: number }> };
    const texts = ready.background?.event_texts;
    if (texts?.state === 'failed') throw new Error(`the service could not store its event texts (its log says why)`);
    if (texts?.state === 'done') return { texts: texts.count ?? 0, seconds: texts.seconds };
  }
  throw new Error('the service did not store its event texts within 30 minutes');
}

/** Every failed response, counted; 0 is the only acceptable number. */
const failuresOf = (report: RunReport) =>
  report.scenarios.filter((r) => r.service.non2xx + r.service.errors + r.service.timeouts > 0 || r.probeFailures.length > 0);

async function main(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  if (options.help) return process.stdout.write(`${USAGE}\n`), 0;

  const idle = pollWhenIdle(options.haltPoll);
  log(idle.label);
  // Interrupted: the machine's idle setting back, no service left running (a load generator, its output a
  // pipe to this process, ends by itself), and what the run made removed, or named where it cannot be.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      idle.restore();
      killServices();
      if (options.keep) log(`interrupted: kept ${[...scratch.dirs].join(', ')}`);
      else {
        for (const dir of scratch.dirs) rmSync(dir, { recursive: true, force: true });
        if (scratch.database?.startsWith('postgres')) log(`interrupted: the database ${scratch.database} is left; drop that schema by hand`);
      }
      process.exit(130);
    });
  }
  try {
    return await runAll(options, idle.label);
  } finally {
    idle.restore();
  }
}

async function runAll(options: BenchOptions, idle: string): Promise<number> {
  const reports: RunReport[] = [];
  if (options.scale) {
    for (const events of options.scaleEvents) reports.push(await runOnce(options, events, options.scenarios, idle));
    const path = writeScale(reports);
    log(`wrote ${path}.json and .md`);
  } else if (options.instructions > 0) {
    const report = await runOnce(options, options.events, options.scenarios, idle);
    reports.push(report);
    process.stdout.write(`\n${instructionTable(report.instructions ?? [])}\n\n`);
    if ((report.instructions ?? []).some((count) => count.failed > 0)) return log('!!! non-2xx answers while counting: these numbers do not count'), 1;
  } else {
    const report = await runOnce(options, options.events, options.scenarios, idle);
    const dir = mkdtempSync(join(tmpdir(), 'cal-bench-import-'));
    scratch.dirs.add(dir);
    try {
      report.importRun = await measureImport(dir, IMPORT_EVENTS);
      log(`  import: ${report.importRun.eventsPerSecond.toFixed(0)} events/s (${IMPORT_EVENTS} events from a fake TEC site into SQLite)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      scratch.dirs.delete(dir);
    }
    reports.push(report);
    process.stdout.write(`\n${summaryLine(report)}\n\n${resultTable(report.scenarios)}\n\n`);
    log(`wrote ${writeRun(report)}.json and .md`);
  }

  const failed = reports.flatMap(failuresOf);
  if (failed.length === 0) return 0;
  log('\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
  log('!!! NON-2XX RESPONSES, ERRORS OR TIMEOUTS: these numbers do not count !!!');
  for (const r of failed) {
    log(`!!! ${r.name}: non-2xx ${r.service.non2xx}, errors ${r.service.errors}, timeouts ${r.service.timeouts}, statuses ${JSON.stringify(r.service.statuses)}`);
    for (const failure of r.probeFailures) log(`!!!   ${failure}`);
  }
  log('!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    log(`bench: ${error instanceof OptionsError ? `${error.message}\n\n${USAGE}` : error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  },
);
