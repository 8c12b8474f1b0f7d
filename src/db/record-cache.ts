import { FifoMap } from './fifo-map.ts';
import { createFrequencyAdmission } from './frequency-sketch.ts';
import { type CacheStats, cacheStats } from './versioned-cache.ts';

/**
 * Values kept per record until that record changes (the owner forgets them when told, see
 * changes/change-watch.ts), bounded by count and, given `budget`, by the bytes `weigh` says they take
 * (db/cache-budget.ts); the oldest keys go first.
 *
 * `generation` moves whenever anything is forgotten. A value is built from a read that started at some
 * generation; it is kept only if the generation is still the same when it is offered, since a change
 * learnt in between may have made the read stale and its forgetting has already happened.
 */
export function createRecordCache<K, V>(
  limit: number,
  generation: () => number,
  name = 'other',
  budget?: { bytes: number; weigh: (value: V) => number },
  options: { admitByFrequency?: boolean } = {},
) {
  const entries = new FifoMap<K, V>();
  // Reads spread over more records than fit (crawlers, shared links, a calendar app walking every day) would
  // push out a kept value with every read: each kept value lives long enough to reach V8's old space, so the
  // churn costs full collections (the cold read's p99 of ~50 ms at 100k events; list-cold's marking steps of
  // 15-30 ms). With admitByFrequency, values get in as db/frequency-sketch.ts's admission lets them.
  const admission = options.admitByFrequency ? createFrequencyAdmission<K>(limit) : undefined;
  const stats = cacheStats.get(name) ?? (cacheStats.set(name, { hits: 0, misses: 0 }).get(name) as CacheStats);
  // What the kept values weigh, each as weighed when kept (a value is never changed while kept).
  const weights = new Map<K, number>();
  let total = 0;
  const remove = (key: K) => {
    entries.delete(key);
    total -= weights.get(key) ?? 0;
    weights.delete(key);
  };
  const oldest = () => entries.oldest();
  const spare = (key: K) => entries.moveToBack(key);
  return {
    get(key: K): V | undefined {
      const value = entries.get(key);
      if (value === undefined) stats.misses++;
      else {
        stats.hits++;
        admission?.read(key);
      }
      return value;
    },
    /** Keeps `value` if nothing was forgotten since `since` (the generation when its read began). */
    set(key: K, value: V, since: number): void {
      if (since !== generation()) return;
      let weighed: number | undefined;
      const weight = () => (weighed ??= budget ? budget.weigh(value) : 0);
      const room = () => entries.size < limit && (budget === undefined || total + weight() <= budget.bytes);
      if (admission && !entries.has(key) && !admission.admits(key, room, oldest, spare)) return;
      remove(key);
      if (entries.size >= limit) remove(entries.oldest() as K);
      if (budget) {
        if (weight() > budget.bytes) return;
        while (total + weight() > budget.bytes) remove(entries.oldest() as K);
        weights.set(key, weight());
        total += weight();
      }
      entries.set(key, value);
    },
    delete: (key: K) => remove(key),
    /** Forgets every entry `stale` picks (a record several entries embed changed). */
    deleteWhere(stale: (value: V, key: K) => boolean): void {
      for (const [key, value] of entries) if (stale(value, key)) remove(key);
    },
    clear: () => {
      admission?.clear();
      entries.clear();
      weights.clear();
      total = 0;
    },
  };
}

export type RecordCache<K, V> = ReturnType<typeof createRecordCache<K, V>>;
