import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { readerOf, writerOf } from './direct-statements.ts';
import { FifoMap } from './fifo-map.ts';

/**
 * A query built and compiled once, then run with new parameter values (in the compiled order). Building
 * and compiling a Kysely query costs more than SQLite takes to answer a primary-key read; the hottest reads
 * (the data version, an event by id or slug) skip it. Compiled on first use: by this function's closure, or,
 * given a `name` (the repository and query, with whatever else its text depends on: a table), once per
 * database. The store binds new repositories to every transaction (db/store.ts): a read the writes run
 * (a venue's status, say) was compiled again for every commit group.
 */
export function precompiled<R>(db: Kysely<any>, build: () => Compilable<R>, name?: string) {
  const shared = name === undefined ? undefined : sharedOf(db, name);
  const read = readerOf(db);
  let compiled: ReturnType<Compilable<R>['compile']> | undefined;
  return (...parameters: unknown[]): Promise<R[]> => {
    compiled ??= shared?.get(0) as typeof compiled;
    if (compiled === undefined) {
      compiled = build().compile();
      shared?.set(0, compiled);
    }
    return read<R>({ ...compiled, parameters });
  };
}

// Reads compiled once per database under a name (`precompiled`, `precompiledList`), by length of their list
// (0 for none): kept by the Kysely adapter, as the compiled writes below are.
const compiledReads = new WeakMap<object, Map<string, Map<number, unknown>>>();
function sharedOf(db: Kysely<any>, name: string): Map<number, unknown> {
  const adapter = db.getExecutor().adapter;
  const named = compiledReads.get(adapter) ?? new Map<string, Map<number, unknown>>();
  compiledReads.set(adapter, named);
  const shared = named.get(name) ?? new Map<number, unknown>();
  named.set(name, shared);
  return shared;
}

/**
 * Precompiled queries that take a list (`where id in (…)`): one compiled query per list length, built by
 * `build(n)` with n placeholders, so a page of records or a record's few links skip Kysely's building too
 * (per database when named, as `precompiled`).
 * Lengths over `most` are built as they come. The list may stand in the query more than once, beside
 * constants: it is built with stand-in values, each replaced by the list's value at its place.
 */
export function precompiledList<R>(db: Kysely<any>, build: (ids: number[]) => Compilable<R>, name?: string, most = 64) {
  const byLength = (name === undefined ? new Map() : sharedOf(db, name)) as Map<number, { compiled: ReturnType<Compilable<R>['compile']>; at: Array<number | undefined> }>;
  const read = readerOf(db);
  return async (ids: number[]): Promise<R[]> => {
    if (ids.length === 0) return [];
    if (ids.length > most) return read<R>(build(ids).compile());
    let query = byLength.get(ids.length);
    if (!query) {
      const compiled = build(ids.map((_, i) => STAND_IN - i)).compile();
      // Which of the list's values each parameter is (undefined: a constant of the query, kept as it is).
      const at = compiled.parameters.map((value) => (typeof value === 'number' && value <= STAND_IN && value > STAND_IN - ids.length ? STAND_IN - value : undefined));
      query = { compiled, at };
      byLength.set(ids.length, query);
    }
    const { compiled, at } = query;
    return read<R>({ ...compiled, parameters: compiled.parameters.map((value, i) => (at[i] === undefined ? value : ids[at[i] as number])) });
  };
}

/**
 * Statements whose parameters are exactly the values given, in order (an insert's rows column by column, a
 * statement of ids): compiled once per `shape` (all its text depends on: the columns, the number of rows),
 * then run with each call's values. Kept per database, under `name` (the repository and table asking), not
 * per set of repositories: the store binds a new set to every transaction (db/store.ts), and compiling each
 * write's statements for every commit group was ~3% of an event create's CPU. A shape whose compiled
 * parameters are not the values as given, in order, is built on every call, as is any shape past the first
 * `most` of its database.
 */
export function precompiledValues(db: Kysely<any>, name: string, most = 256) {
  const adapter = db.getExecutor().adapter;
  const known = compiledWrites.get(adapter) ?? new Map<string, CompiledQuery | null>();
  compiledWrites.set(adapter, known);
  const write = writerOf(db);
  return async <R>(shape: string, values: readonly unknown[], build: () => Compilable<R>): Promise<QueryResult<R>> => {
    const key = `${name}:${shape}`;
    const compiled = known.get(key);
    if (compiled) {
      // Shown to the plugins as a built write is: the store's write watch (db/store.ts) sees it.
      db.getExecutor().transformQuery(compiled.query, compiled.queryId);
      return write<R>({ ...compiled, parameters: values });
    }
    const built = build().compile();
    if (compiled === undefined && known.size < most) {
      const same = built.parameters.length === values.length && built.parameters.every((value, i) => value === values[i]);
      known.set(key, same ? built : null);
    }
    return db.executeQuery<R>(built);
  };
}

// By the Kysely adapter, as direct-statements.ts keys its statements: every instance made from one database (in a
// transaction, with a plugin) shares it, and no two databases do (their dialects' texts differ). One text
// serves them all because no plugin here rewrites a query: the only one, the store's write watch, looks.
const compiledWrites = new WeakMap<object, Map<string, CompiledQuery | null>>();

// Ids are positive: a value this far below zero in a built query can only be a stand-in.
const STAND_IN = -1_000_000_000_000;

/**
 * Queries built from plain arguments (a list's filter, order and page), compiled once per shape: the same
 * arguments but for their numbers. Strings and booleans belong to the shape (a builder may branch on them:
 * a column, a status list); numbers are the parameters, found by building the shape twice with stand-ins of
 * opposite signs (so a branch on a number's sign or size shows as two different texts). A shape whose
 * numbers do not all come out as parameters, unchanged, is built on every call (a number in the text, one
 * computed with). A shape is learnt the second time it comes: a query asked once costs one build, as before.
 */
export function precompiledByShape<A, R>(db: Kysely<any>, build: (args: A) => Compilable<R>, most = 256) {
  const shapes = new FifoMap<string, Shape<R> | null>();
  const seen = new Set<string>();
  const read = readerOf(db);
  return async (args: A): Promise<R[]> => {
    const numbers: number[] = [];
    const key = shapeKey(args, numbers);
    let shape = shapes.get(key);
    if (shape === undefined) {
      if (!seen.has(key)) {
        if (seen.size >= most * 4) seen.clear();
        seen.add(key);
        return read<R>(build(args).compile());
      }
      seen.delete(key);
      shape = learnShape(build, args, numbers.length);
      if (shapes.size >= most) shapes.delete(shapes.oldest() as string);
      shapes.set(key, shape);
    }
    if (shape === null) return read<R>(build(args).compile());
    const { compiled, at } = shape;
    return read<R>({ ...compiled, parameters: compiled.parameters.map((value, i) => (at[i] === undefined ? value : numbers[at[i] as number])) });
  };
}

interface Shape<R> {
  compiled: ReturnType<Compilable<R>['compile']>;
  /** Which of the arguments' numbers each parameter is (undefined: a constant of the query). */
  at: Array<number | undefined>;
}

// Stand-ins far from any id, page or coordinate, apart enough that a number computed from one is none.
const FAR = 1e12;
const APART = 1e3;
const standIn = (sign: 1 | -1) => (i: number) => sign * (FAR + i * APART);
const standInIndex = (value: unknown, sign: 1 | -1): number | undefined => {
  if (typeof value !== 'number' || Math.sign(value) !== sign) return undefined;
  const i = (Math.abs(value) - FAR) / APART;
  return Number.isInteger(i) && i >= 0 ? i : undefined;
};

/** The arguments' shape as text, their numbers (in the same walk) pushed to `numbers`. */
function shapeKey(value: unknown, numbers: number[]): string {
  if (typeof value === 'number') {
    numbers.push(value);
    return '#';
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? '~';
  if (Array.isArray(value)) return `[${value.map((item) => shapeKey(item, numbers)).join(',')}]`;
  // Anything but a plain object (a Date) is part of the shape as its text; `withNumbers` refuses it.
  if (!isPlain(value)) return `<${String(value)}>`;
  let key = '{';
  for (const [name, item] of Object.entries(value)) if (item !== undefined) key += `${name}:${shapeKey(item, numbers)},`;
  return `${key}}`;
}

const isPlain = (value: object) => [Object.prototype, null].includes(Object.getPrototypeOf(value));

/** The arguments with their numbers replaced, in `shapeKey`'s order. */
function withNumbers<A>(value: A, next: () => number): A {
  if (typeof value === 'number') return next() as A;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withNumbers(item, next)) as A;
  if (!isPlain(value)) throw new Error('only plain objects are rebuilt with stand-ins');
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withNumbers(item, next)])) as A;
}

function learnShape<A, R>(build: (args: A) => Compilable<R>, args: A, count: number): Shape<R> | null {
  let built;
  try {
    built = ([1, -1] as const).map((sign) => {
      let i = 0;
      const make = standIn(sign);
      return build(withNumbers(args, () => make(i++))).compile();
    });
  } catch {
    return null; // a builder that refuses a stand-in builds every call with the real numbers
  }
  const [plus, minus] = built;
  if (plus.sql !== minus.sql || plus.parameters.length !== minus.parameters.length || /\d{10}/.test(plus.sql)) return null;
  const at: Array<number | undefined> = [];
  const found = new Set<number>();
  for (let p = 0; p < plus.parameters.length; p++) {
    const [a, b] = [standInIndex(plus.parameters[p], 1), standInIndex(minus.parameters[p], -1)];
    if (a !== b) return null;
    if (a === undefined) {
      const value = plus.parameters[p];
      // A constant: the same in both, and not a number computed from a stand-in.
      if (value !== minus.parameters[p] || (typeof value === 'number' && Math.abs(value) >= FAR / 10)) return null;
    } else found.add(a);
    at.push(a);
  }
  return found.size === count ? { compiled: plus, at } : null;
}
