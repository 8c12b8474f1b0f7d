import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { createDb } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { runImport } from '../src/import/import.command.ts';
import { silentProgress } from '../src/import/progress.ts';
import { loadConfig } from '../src/config.ts';
import { LOAD_CORE, pinned, TSX } from './processes.ts';

/**
 * The `import` scenario: events per second of `cal-events import` into a new SQLite file, from the fake The
 * Events Calendar site of the tests (reference-shaped pages, served by a process of its own on the other
 * core), everything on the way: fetching, mapping, validation, writes.
 */
export async function measureImport(dir: string, events: number): Promise<{ events: number; seconds: number; eventsPerSecond: number }> {
  const site = await startSite(events);
  const database = createDb(`sqlite:${join(dir, 'import.db')}`);
  try {
    await migrateToLatest(database.db);
    const config = loadConfig({ CAL_PUBLIC_URL: 'http://localhost', LOG_LEVEL: 'silent', CAL_TIMEZONE: 'UTC' });
    const started = performance.now();
    const { summary, failures } = await runImport({ source: site.root }, { config, database, progress: silentProgress, source: { perPage: 50 } });
    const seconds = (performance.now() - started) / 1000;
    if (failures.length > 0 || summary.events.created !== events) throw new Error(`import bench: ${JSON.stringify({ summary, failures: failures.slice(0, 3) })}`);
    return { events, seconds, eventsPerSecond: events / seconds };
  } finally {
    await database.close();
    await site.close();
  }
}

async function startSite(events: number): Promise<{ root: string; close(): Promise<void> }> {
  const [command, args] = pinned(LOAD_CORE, process.execPath, ['--import', TSX, new URL('./fake-site.ts', import.meta.url).pathname, String(events)]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const [root] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return {
    root,
    close: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}
