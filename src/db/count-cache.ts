import type { Store } from './store.ts';

/**
 * List totals by filter, valid until the next write anywhere (the data version moves with every
 * committed transaction). A large window's COUNT walks every matching index entry; with this it does so
 * once per write instead of once per request. Bounded: oldest keys go first.
 */
export function createCountCache(store: Store, limit = 2000) {
  const entries = new Map<string, { version: number; total: number }>();
  return async (key: string, count: () => Promise<number>): Promise<number> => {
    const version = await store.dataVersion();
    const hit = entries.get(key);
    if (hit && hit.version === version) return hit.total;
    const total = await count();
    entries.delete(key);
    if (entries.size >= limit) entries.delete(entries.keys().next().value as string);
    entries.set(key, { version, total });
    return total;
  };
}

export type CountCache = ReturnType<typeof createCountCache>;
