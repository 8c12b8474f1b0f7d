import type { Kysely, KyselyPlugin, QueryResult } from 'kysely';

/**
 * Statements a database can run at once, without Kysely's driver. `read` answers a read's rows, or undefined
 * (a write, or the connection held by someone else: then the read goes through Kysely, which waits for it);
 * `owner` says the caller holds the connection (it reads in its own transaction). `write` runs a statement
 * in the caller's own transaction, answering what Kysely's driver would.
 */
export interface DirectStatements {
  read(sql: string, parameters: readonly unknown[], owner: boolean): unknown[] | undefined;
  write(sql: string, parameters: readonly unknown[]): QueryResult<unknown>;
}

// By the Kysely adapter: every instance made from one database (with a plugin, in a transaction) shares it.
const directStatements = new WeakMap<object, DirectStatements>();

/** Says that the database behind `db` runs statements at once (create-db.ts, SQLite). */
export function answersDirectly(db: Kysely<any>, statements: DirectStatements): void {
  directStatements.set(db.getExecutor().adapter, statements);
}

/** Marks a plugin that only looks at queries and changes neither them nor their results (db/store.ts's write watch). */
export const onlyLooks = <P extends KyselyPlugin>(plugin: P): P => Object.assign(plugin, { [ONLY_LOOKS]: true });
const ONLY_LOOKS = Symbol('only looks');

/** What runs `db`'s statements at once, if anything may: no plugin of it changes a query or a result. */
function directFor(db: Kysely<any>): DirectStatements | undefined {
  const executor = db.getExecutor();
  if (!executor.plugins.every((plugin) => ONLY_LOOKS in plugin)) return undefined;
  return directStatements.get(executor.adapter);
}

/**
 * What runs compiled reads on `db`. On SQLite, outside a transaction and while the connection is free, a read
 * runs at once on the prepared statement, as Kysely's driver would run it: better-sqlite3 answers synchronously,
 * and the driver's connection lock, its promises and its plugins' hooks were ~4% of a cold single read's CPU
 * profile (callgrind: 311k -> 301k instructions) for a statement whose own work is a B-tree descent. So does a
 * transaction's own read, on the connection it holds. A read through a plugin that may change a result goes
 * through Kysely.
 */
export function readerOf(db: Kysely<any>): <R>(compiled: CompiledRead) => Promise<R[]> {
  const direct = directFor(db);
  // A transaction's own statements hold its connection: they run at once even while it is held.
  const owner = db.isTransaction;
  const throughKysely = async <R>(compiled: CompiledRead) => (await db.executeQuery<R>(compiled as Parameters<typeof db.executeQuery<R>>[0])).rows;
  if (direct === undefined) return throughKysely;
  return <R>(compiled: CompiledRead): Promise<R[]> => {
    let rows: unknown[] | undefined;
    try {
      rows = direct.read(compiled.sql, compiled.parameters, owner);
    } catch (error) {
      // better-sqlite3 throws where Kysely's driver rejects: a caller chaining `.catch` must see it alike.
      return Promise.reject(error);
    }
    return rows === undefined ? throughKysely<R>(compiled) : Promise.resolve(rows as R[]);
  };
}

/**
 * What runs compiled writes on `db`: inside a transaction on SQLite, at once on the transaction's connection
 * (Kysely's driver does the same behind its lock and promises, ~2.5 us a statement); otherwise through Kysely.
 * The caller shows the write to the plugins first (precompiled.ts `precompiledValues`).
 */
export function writerOf(db: Kysely<any>): <R>(compiled: CompiledRead) => Promise<QueryResult<R>> {
  const direct = db.isTransaction ? directFor(db) : undefined;
  const throughKysely = <R>(compiled: CompiledRead) => db.executeQuery<R>(compiled as Parameters<typeof db.executeQuery<R>>[0]);
  if (direct === undefined) return throughKysely;
  return <R>(compiled: CompiledRead): Promise<QueryResult<R>> => {
    try {
      return Promise.resolve(direct.write(compiled.sql, compiled.parameters) as QueryResult<R>);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

type CompiledRead = { sql: string; parameters: readonly unknown[] };
