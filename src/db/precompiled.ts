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
 * Lengths over `most` are built as they come. The list may stand in the query more than once, beside
 * constants: it is built with stand-in values, each replaced by the list's value at its place.
 */
export function precompiledList<R>(db: Kysely<any>, build: (ids: number[]) => Compilable<R>, most = 64) {
  const byLength = new Map<number, { compiled: ReturnType<Compilable<R>['compile']>; at: Array<number | undefined> }>();
  return async (ids: number[]): Promise<R[]> => {
    if (ids.length === 0) return [];
    if (ids.length > most) return (await db.executeQuery<R>(build(ids).compile())).rows;
    let query = byLength.get(ids.length);
    if (!query) {
      const compiled = build(ids.map((_, i) => STAND_IN - i)).compile();
      // Which of the list's values each parameter is (undefined: a constant of the query, kept as it is).
      const at = compiled.parameters.map((value) => (typeof value === 'number' && value <= STAND_IN && value > STAND_IN - ids.length ? STAND_IN - value : undefined));
      query = { compiled, at };
      byLength.set(ids.length, query);
    }
    const { compiled, at } = query;
    return (await db.executeQuery<R>({ ...compiled, parameters: compiled.parameters.map((value, i) => (at[i] === undefined ? value : ids[at[i] as number])) })).rows;
  };
}

// Ids are positive: a value this far below zero in a built query can only be a stand-in.
const STAND_IN = -1_000_000_000_000;
