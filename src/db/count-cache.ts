import { createVersionedCache } from './versioned-cache.ts';

/**
 * List totals by filter until the next write. A large window's COUNT walks every matching index entry;
 * with this it does so once per write instead of once per request.
 */
export function createCountCache(limit = 2000) {
  const cache = createVersionedCache<number>(limit, undefined, 'list-totals');
  return async (key: string, version: number, count: () => Promise<number>): Promise<number> => {
    const hit = cache.get(key, version);
    if (hit !== undefined) return hit;
    const total = await count();
    cache.set(key, version, total);
    return total;
  };
}

export type CountCache = ReturnType<typeof createCountCache>;
