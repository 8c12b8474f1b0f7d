import { createAdmission } from './admission.ts';

/**
 * Values valid for one data version (see Store.dataVersion): a write anywhere makes every entry stale at
 * once, so what is served is never older than the last write. Read the version BEFORE reading the data a
 * value is built from, so a write landing in between can only make the entry stale, never wrong.
 * Bounded: by count, or by the sum of `weigh` (bytes, for large values); the oldest keys go first.
 */
export function createVersionedCache<V>(
  limit: number,
  weigh: (value: V) => number = () => 1,
  name = 'other',
  options: { admitOnSecondOffer?: boolean; random?: () => number } = {},
) {
  // `read`: served since it was kept (see `set`).
  const entries = new Map<string, { version: number; value: V; weight: number; read: boolean }>();
  // A value asked for once (a crawler's walk over every page) is let go young instead of filling the cache
  // and V8's old space (admission.ts).
  const admission = options.admitOnSecondOffer ? createAdmission<string>(8192, options.random) : undefined;
  const stats = cacheStats.get(name) ?? cacheStats.set(name, { hits: 0, misses: 0 }).get(name) as CacheStats;
  let total = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    total -= entry.weight;
  };
  return {
    get(key: string, version: number): V | undefined {
      const entry = entries.get(key);
      if (entry && entry.version === version) {
        stats.hits++;
        entry.read = true;
        return entry.value;
      }
      stats.misses++;
      return undefined;
    },
    set(key: string, version: number, value: V): void {
      const weight = weigh(value);
      // Full only when the oldest value, which goes first, is still served: one of an older version, or not
      // served since it was kept, goes at once (as in record-cache.ts).
      const oldestServed = () => {
        const oldest = entries.values().next().value;
        return oldest !== undefined && oldest.read && oldest.version === version;
      };
      if (admission && !entries.has(key) && !admission.admits(key, () => total + weight > limit && oldestServed())) return;
      remove(key);
      if (weight > limit) return;
      while (total + weight > limit) remove(entries.keys().next().value as string);
      entries.set(key, { version, value, weight, read: false });
      total += weight;
    },
  };
}

export type VersionedCache<V> = ReturnType<typeof createVersionedCache<V>>;

export interface CacheStats {
  hits: number;
  misses: number;
}

/** Lookups of every cache of this process by name, for the metrics (two counters a lookup, nothing else). */
export const cacheStats = new Map<string, CacheStats>();
