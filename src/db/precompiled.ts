import type { Compilable, Kysely } from 'kysely';

/**
 * A query built and compiled once, then run with new parameter values (in the compiled order). Building
 * and compiling a Kysely query costs more than SQLite takes to answer a primary-key read; the hottest reads
 * (the data version, an event by id or slug) skip it. Compiled on first use.
 */
export function precompiled<R>(db: Kysely<any>, build: () => Compilable<R>) {
  let compiled: ReturnType<Compilable<R>['compile']> | undefined;
  return async (...parameters: unknown[]): Promise<R[]> => {
    compiled ??= build().compile();
    return (await db.executeQuery<R>({ ...compiled, parameters })).rows;
  };
}
