import type { Kysely } from 'kysely';

/**
 * Reads a database can answer at once, without Kysely's driver: what it reads or undefined (a write, or the
 * connection held: then the read goes through Kysely, which waits for it).
 */
export type DirectRead = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

// By the Kysely adapter: every instance made from one database (with a plugin, in a transaction) shares it.
const directReads = new WeakMap<object, DirectRead>();

/** Says that the database behind `db` answers reads at once (create-db.ts, SQLite). */
export function answersDirectly(db: Kysely<any>, read: DirectRead): void {
  directReads.set(db.getExecutor().adapter, read);
}

/**
 * What runs compiled reads on `db`. On SQLite, outside a transaction and while the connection is free, a read
 * runs at once on the prepared statement, as Kysely's driver would run it: better-sqlite3 answers synchronously,
 * and the driver's connection lock, its promises and its plugins' hooks were ~4% of a cold single read's CPU
 * profile (callgrind: 311k -> 301k instructions) for a statement whose own work is a B-tree descent. A transaction's
 * reads (and any read through a plugin, which may change a result) go through Kysely.
 */
export function readerOf(db: Kysely<any>): <R>(compiled: CompiledRead) => Promise<R[]> {
  const executor = db.getExecutor();
  const direct = db.isTransaction || executor.plugins.length > 0 ? undefined : directReads.get(executor.adapter);
  const throughKysely = async <R>(compiled: CompiledRead) => (await db.executeQuery<R>(compiled as Parameters<typeof db.executeQuery<R>>[0])).rows;
  if (direct === undefined) return throughKysely;
  return <R>(compiled: CompiledRead): Promise<R[]> => {
    let rows: unknown[] | undefined;
    try {
      rows = direct(compiled.sql, compiled.parameters);
    } catch (error) {
      // better-sqlite3 throws where Kysely's driver rejects: a caller chaining `.catch` must see it alike.
      return Promise.reject(error);
    }
    return rows === undefined ? throughKysely<R>(compiled) : Promise.resolve(rows as R[]);
  };
}

type CompiledRead = { sql: string; parameters: readonly unknown[] };
