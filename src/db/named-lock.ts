import { sql } from 'kysely';
import type { Db, Dialect } from './database.ts';

/**
 * A lock on a name, held until the transaction ends: writers that look a record up by name and create it
 * when missing (a venue named inline, a new category) take it first, so concurrent writers naming the same
 * new record serialize there and the later one finds the earlier one's record instead of making a second.
 * PostgreSQL: a transaction-scoped advisory lock on a 64-bit hash of the name. SQLite: nothing to do, one
 * transaction writes at a time (and a stale snapshot in a second process fails its write and is retried).
 */
export function createNamedLock(db: Db, dialect: Dialect) {
  return async (name: string | string[]): Promise<void> => {
    if (dialect !== 'postgres') return;
    if (typeof name === 'string') await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(db);
    // Many names in one statement, in one order for every writer, so two of them cannot wait on each other.
    else if (name.length > 0) await sql`select pg_advisory_xact_lock(hashtextextended(n, 0)) from unnest(${[...new Set(name)].sort()}::text[]) as n`.execute(db);
  };
}
