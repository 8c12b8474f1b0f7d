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
  options: { admitOnSecondOffer?: boolean } = {},
) {
  const entries = new Map<string, { version: number; value: V; weight: number }>();
  // Keys offered once and not kept yet (admitOnSecondOffer, as record-cache.ts): a value asked for once (a
  // crawler's walk over every page) is let go young instead of filling the cache and V8's old space.
  const offered = new Set<string>();
  const MOST_OFFERED = 8192;
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
        return entry.value;
      }
      stats.misses++;
      return undefined;
    },
    set(key: string, version: number, value: V): void {
      if (options.admitOnSecondOffer && !entries.has(key) && !offered.delete(key)) {
        if (offered.size >= MOST_OFFERED) offered.delete(offered.keys().next().value as string);
        offered.add(key);
        return;
      }
      remove(key);
      const weight = weigh(value);
      if (weight > limit) return;
      while (total + weight > limit) remove(entries.keys().next().value as string);
      entries.set(key, { version, value, weight });
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
