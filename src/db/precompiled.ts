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

/**
 * Precompiled queries that take a list (`where id in (…)`): one compiled query per list length, built by
 * `build(n)` with n placeholders, so a page of records or a record's few links skip Kysely's building too.
 * Lengths over `most` are built as they come. The list's placeholders must come last; values before them
 * (a constant the query was built with) are kept.
 */
export function precompiledList<R>(db: Kysely<any>, build: (ids: number[]) => Compilable<R>, most = 64) {
  const byLength = new Map<number, ReturnType<Compilable<R>['compile']>>();
  return async (ids: number[]): Promise<R[]> => {
    if (ids.length === 0) return [];
    if (ids.length > most) return (await db.executeQuery<R>(build(ids).compile())).rows;
    let compiled = byLength.get(ids.length);
    if (!compiled) {
      compiled = build(ids.map(() => 0)).compile();
      byLength.set(ids.length, compiled);
    }
    const fixed = compiled.parameters.length - ids.length;
    return (await db.executeQuery<R>({ ...compiled, parameters: fixed === 0 ? ids : [...compiled.parameters.slice(0, fixed), ...ids] })).rows;
  };
}
