import { FifoMap } from './fifo-map.ts';
import { createFrequencyAdmission } from './frequency-sketch.ts';

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
  options: { admitByFrequency?: boolean } = {},
) {
  const entries = new FifoMap<string, { version: number; value: V; weight: number }>();
  // With admitByFrequency, values get in as db/frequency-sketch.ts's admission lets them (as record-cache.ts):
  // a value asked for once (a crawler's walk over every page) is let go young, and a walk over more than fit
  // does not turn the cache over, filling V8's old space (or its external memory) with what was pushed out.
  const admission = options.admitByFrequency ? createFrequencyAdmission<string>(KEYS_WEIGHED) : undefined;
  const stats = cacheStats.get(name) ?? cacheStats.set(name, { hits: 0, misses: 0 }).get(name) as CacheStats;
  let total = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    total -= entry.weight;
  };
  const oldest = () => entries.oldest();
  const spare = (key: string) => entries.moveToBack(key);
  /**
   * `set`, with the value made only once the cache lets it in: a value offered for the first time never gets
   * in (admitByFrequency), and most are offered once (a crawler's walk over every page), so what making it
   * costs (a page's bytes: a copy of ~10 kB, and memory outside the heap until a collection) is not spent on them.
   */
  const offer = (key: string, version: number, make: () => V): void => {
    let made: { value: V; weight: number } | undefined;
    const value = () => {
      if (made === undefined) {
        const value = make();
        made = { value, weight: weigh(value) };
      }
      return made;
    };
    const room = () => total + value().weight <= limit;
    if (admission && !entries.has(key) && !admission.admits(key, room, oldest, spare)) return;
    remove(key);
    const { value: kept, weight } = value();
    if (weight > limit) return;
    while (total + weight > limit) remove(entries.oldest() as string);
    entries.set(key, { version, value: kept, weight });
    total += weight;
  };
  return {
    get(key: string, version: number): V | undefined {
      const entry = entries.get(key);
      if (entry && entry.version === version) {
        stats.hits++;
        admission?.read(key);
        return entry.value;
      }
      stats.misses++;
      return undefined;
    },
    set: (key: string, version: number, value: V): void => offer(key, version, () => value),
    offer,
  };
}

// How many keys the frequencies of a cache bounded by bytes are kept for (pages of ~10 kB in 20 MB: ~2000).
const KEYS_WEIGHED = 2048;

export type VersionedCache<V> = ReturnType<typeof createVersionedCache<V>>;

export interface CacheStats {
  hits: number;
  misses: number;
}

/** Lookups of every cache of this process by name, for the metrics (two counters a lookup, nothing else). */
export const cacheStats = new Map<string, CacheStats>();
