import { createAdmission } from './admission.ts';
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
  options: { admitOnSecondOffer?: boolean; random?: () => number } = {},
) {
  const entries = new Map<K, V>();
  // Reads spread over every record (crawlers, shared links) would otherwise push out a kept record with every
  // read: each kept value lives long enough to reach V8's old space, so the churn costs full collections (the
  // cold read's p99 of ~50 ms at 100k events). See admission.ts; a walk's offers are remembered for `limit * 4`.
  const admission = options.admitOnSecondOffer ? createAdmission<K>(limit * 4, options.random) : undefined;
  // When each kept key was last read (or kept), in lookups of this cache. The cache counts as full only when
  // the value a new one would push out was read within the last `limit * 8` lookups: one nobody reads any
  // more (the last crawl's, yesterday's) goes at once, so the cache follows a change of what is read within
  // a second where the odds alone took many (a full bench's date-window after the cold reads: -35% req/s).
  const lastRead = admission ? new Map<K, number>() : undefined;
  let lookups = 0;
  const readLately = (key: K) => lookups - ((lastRead as Map<K, number>).get(key) ?? -Infinity) <= limit * 8;
  const stats = cacheStats.get(name) ?? (cacheStats.set(name, { hits: 0, misses: 0 }).get(name) as CacheStats);
  // What the kept values weigh, each as weighed when kept (a value is never changed while kept).
  const weights = new Map<K, number>();
  let total = 0;
  const remove = (key: K) => {
    entries.delete(key);
    lastRead?.delete(key);
    total -= weights.get(key) ?? 0;
    weights.delete(key);
  };
  return {
    get(key: K): V | undefined {
      const value = entries.get(key);
      lookups++;
      if (value === undefined) stats.misses++;
      else {
        stats.hits++;
        lastRead?.set(key, lookups);
      }
      return value;
    },
    /** Keeps `value` if nothing was forgotten since `since` (the generation when its read began). */
    set(key: K, value: V, since: number): void {
      if (since !== generation()) return;
      // Weighed once, and only when kept or when the budget decides whether the cache is full.
      let weighed: number | undefined;
      const weightOf = () => (weighed ??= budget ? budget.weigh(value) : 0);
      if (admission && !entries.has(key)) {
        const full = () =>
          (entries.size >= limit || (budget !== undefined && total + weightOf() > budget.bytes)) && readLately(entries.keys().next().value as K);
        if (!admission.admits(key, full)) return;
      }
      remove(key);
      if (entries.size >= limit) remove(entries.keys().next().value as K);
      if (budget) {
        const weight = weightOf();
        if (weight > budget.bytes) return;
        while (total + weight > budget.bytes) remove(entries.keys().next().value as K);
        weights.set(key, weight);
        total += weight;
      }
      entries.set(key, value);
      lastRead?.set(key, lookups); // kept counts as read: a new value has a span's grace
    },
    delete: (key: K) => remove(key),
    /** Forgets every entry `stale` picks (a record several entries embed changed). */
    deleteWhere(stale: (value: V, key: K) => boolean): void {
      for (const [key, value] of entries) if (stale(value, key)) remove(key);
    },
    clear: () => {
      admission?.clear();
      lastRead?.clear();
      entries.clear();
      weights.clear();
      total = 0;
    },
  };
}

export type RecordCache<K, V> = ReturnType<typeof createRecordCache<K, V>>;
