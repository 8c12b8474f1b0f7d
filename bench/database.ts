import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDb, type DbHandle } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { postgresSchema } from '../test/helpers/spawn-service.ts';

export interface BenchDatabase {
  handle: DbHandle;
  /** What the service process gets as DATABASE_URL: the same database, and on PostgreSQL the same schema. */
  serverUrl: string;
  /** For reports: `sqlite (file)` or `postgres <version> (schema bench_…)`. */
  label: string;
  /** Drops the PostgreSQL schema (a SQLite file goes with the run's temporary folder). */
  drop(): Promise<void>;
}

const isPostgres = (url: string) => /^postgres(ql)?:\/\//.test(url);

/** The SQLite database a `--keep` run left in `dir` (`bench.db`), brought to the latest schema. */
export async function openKeptDatabase(dir: string): Promise<BenchDatabase> {
  const path = join(dir, 'bench.db');
  if (!existsSync(path)) throw new Error(`--reuse ${dir}: no bench.db there (a folder a --keep run printed is meant)`);
  const handle = createDb(`sqlite:${path}`);
  await migrateToLatest(handle.db);
  return { handle, serverUrl: `sqlite:${path}`, label: `sqlite (${path})`, drop: async () => {} };
}

/**
 * A fresh, migrated database: a SQLite file in `dir`, or a schema `bench_<random>` on the PostgreSQL
 * server `url` names. The service reads its schema from the URL: pg takes libpq's `options` parameter
 * from the connection string, so `?options=-c search_path=…` reaches the server process unchanged.
 */
export async function openBenchDatabase(url: string | undefined, dir: string): Promise<BenchDatabase> {
  if (url === undefined || !isPostgres(url)) {
    const path = url ? url.replace(/^sqlite:/, '') : join(dir, 'bench.db');
    // The seed makes the `bench` user and names; a database seeded before would collide with both.
    if (path === ':memory:' || existsSync(path)) throw new Error(`--database ${url} must name a new SQLite file`);
    const serverUrl = `sqlite:${path}`;
    const handle = createDb(serverUrl);
    await migrateToLatest(handle.db);
    return { handle, serverUrl, label: `sqlite (${path})`, drop: async () => {} };
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const own = await postgresSchema(url, schema);
  const handle = createDb(url, { searchPath: schema });
  await migrateToLatest(handle.db);
  const version = await sql<{ server_version: string }>`show server_version`.execute(handle.db);
  return { handle, serverUrl: own.url, label: `postgres ${version.rows[0].server_version} (schema ${schema})`, drop: own.drop };
}
