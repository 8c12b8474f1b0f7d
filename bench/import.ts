import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDb } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { runImport } from '../src/import/import.command.ts';
import { silentProgress } from '../src/import/progress.ts';
import { loadConfig } from '../src/config.ts';
import { startFakeSite } from '../test/helpers/fake-tec-site.ts';

/**
 * The `import` scenario: events per second of `cal-events import` into a new SQLite file, from the fake The
 * Events Calendar site of the tests (reference-shaped pages, served in-process), everything on the way.
 */
export async function measureImport(dir: string, events: number): Promise<{ events: number; seconds: number; eventsPerSecond: number }> {
  const site = await startFakeSite({ venues: 50, events });
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
