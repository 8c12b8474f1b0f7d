import { cacheBytes, textBytes } from './cache-budget.ts';
import { createVersionedCache } from './versioned-cache.ts';

/**
 * What a list reads by filter (its total, its page), kept until the next write: a large window's COUNT walks
 * every matching index entry, and on PostgreSQL even a page of ten ids is a round trip; with this each is read
 * once per write instead of once per request. `version` is the data version, read before `read` runs.
 * Bounded by `limit` entries, or by `limit` bytes as `weigh` says.
 */
export function createReadCache<V>(limit: number, name: string, weigh?: (value: V) => number) {
  const cache = createVersionedCache<V>(limit, weigh, name);
  return async (key: string, version: number, read: () => Promise<V>): Promise<V> => {
    const hit = cache.get(key, version);
    if (hit !== undefined) return hit;
    const value = await read();
    cache.set(key, version, value);
    return value;
  };
}

/** List totals by filter. */
export const createCountCache = (limit = 2000) => createReadCache<number>(limit, 'list-totals');

// What a kept row takes besides its strings: the object, its numbers, the array's slot.
const ROW_OVERHEAD = 64;
const FIELD_OVERHEAD = 16;
const weighRows = (rows: Array<Record<string, unknown>>) => {
  let bytes = 0;
  for (const row of rows) {
    bytes += ROW_OVERHEAD;
    for (const value of Object.values(row)) bytes += typeof value === 'string' ? textBytes(value) : FIELD_OVERHEAD;
  }
  return bytes;
};

/**
 * List pages by filter, order and place, in a small share of the caches' bytes (db/cache-budget.ts): a page
 * of venue ids takes ~1 kB, of terms a few (their descriptions are as long as their writers made them).
 */
export const createPageCache = <Row extends object>() =>
  createReadCache<Row[]>(cacheBytes(0.01), 'list-pages', (rows) => weighRows(rows as Array<Record<string, unknown>>));
