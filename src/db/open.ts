import { createDb, type CreateDbOptions, type DbHandle } from './create-db.ts';
import { migrateToLatest } from './migrator.ts';

/** A database that a command could not open or bring up to date: said in one line, without a stack. */
export class DatabaseOpenError extends Error {}

// A URL as it may be shown: its password, if any, left out.
const shown = (url: string) => url.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/, '$1:***@');

/**
 * The database `url` names, opened and migrated to the latest schema: what every command starts with. A
 * failure (a PostgreSQL server that does not answer, a SQLite file that cannot be made) closes what was
 * opened and says which database and why. The migrations run without the bound on a statement's answer (one
 * may rewrite a large table), which holds from then on.
 */
export async function openDatabase(url: string, options: CreateDbOptions = {}): Promise<{ database: DbHandle; migrated: string[] }> {
  let database: DbHandle | undefined;
  try {
    database = createDb(url, { ...options, statementTimeoutMs: 0 });
    const migrated = await migrateToLatest(database.db);
    // PostgreSQL's bound is its connections' own: they are opened anew with it. (SQLite has none, and a
    // database in memory is its one connection.)
    if (database.dialect === 'postgres' && options.statementTimeoutMs) {
      await database.close();
      database = undefined;
      database = createDb(url, options);
    }
    return { database, migrated };
  } catch (error) {
    await database?.close().catch(() => {});
    throw new DatabaseOpenError(`cannot open the database ${shown(url)}: ${(error as Error).message}`, { cause: error });
  }
}
