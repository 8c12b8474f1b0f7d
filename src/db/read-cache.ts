import { createVersionedCache } from './versioned-cache.ts';

/**
 * What a list reads by filter (its total, its page), kept until the next write: a large window's COUNT walks
 * every matching index entry, and on PostgreSQL even a page of ten ids is a round trip; with this each is read
 * once per write instead of once per request. `version` is the data version, read before `read` runs.
 */
export function createReadCache<V>(limit: number, name: string) {
  const cache = createVersionedCache<V>(limit, undefined, name);
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

/** List pages by filter, order and place: a thousand, of ten to a hundred short rows each. */
export const createPageCache = <Row>() => createReadCache<Row[]>(1000, 'list-pages');
