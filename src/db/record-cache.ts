import { type CacheStats, cacheStats } from './versioned-cache.ts';

/**
 * Values kept per record until that record changes (the owner forgets them when told, see
 * changes/change-watch.ts), bounded by count; the oldest keys go first.
 *
 * `generation` moves whenever anything is forgotten. A value is built from a read that started at some
 * generation; it is kept only if the generation is still the same when it is offered, since a change
 * learnt in between may have made the read stale and its forgetting has already happened.
 */
export function createRecordCache<K, V>(limit: number, generation: () => number, name = 'other') {
  const entries = new Map<K, V>();
  const stats = cacheStats.get(name) ?? (cacheStats.set(name, { hits: 0, misses: 0 }).get(name) as CacheStats);
  return {
    get(key: K): V | undefined {
      const value = entries.get(key);
      if (value === undefined) stats.misses++;
      else stats.hits++;
      return value;
    },
    /** Keeps `value` if nothing was forgotten since `since` (the generation when its read began). */
    set(key: K, value: V, since: number): void {
      if (since !== generation()) return;
      entries.delete(key);
      if (entries.size >= limit) entries.delete(entries.keys().next().value as K);
      entries.set(key, value);
    },
    delete: (key: K) => void entries.delete(key),
    /** Forgets every entry `stale` picks (a record several entries embed changed). */
    deleteWhere(stale: (value: V, key: K) => boolean): void {
      for (const [key, value] of entries) if (stale(value, key)) entries.delete(key);
    },
    clear: () => entries.clear(),
  };
}

export type RecordCache<K, V> = ReturnType<typeof createRecordCache<K, V>>;
