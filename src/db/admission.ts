/**
 * Which values a cache lets in: from their key's second offer, and, once the cache is full, only one such
 * offer in `WHEN_FULL` (chosen at random).
 *
 * A value offered once (a crawler's walk over every record) is built, sent and let go young. Offered again
 * it has earned a place; but reads spread over more records than fit (lists of every day of the calendar,
 * shuffled) offer each one again before long, and letting every one in pushed a kept value out with each:
 * ~100 kB a list page moved into V8's old space and out again, a full collection every ~0.4 s with steps of
 * 20-30 ms (list-cold's p99 of ~60 ms at 100k events). Spread uniformly, every choice of what to keep
 * serves as many reads, so keeping what is there costs nothing; a record read often still gets in after
 * a few dozen reads. Random rather than counted: a count a key (TinyLFU's sketch) is the better judge of
 * uneven reads, and more code than this bench has shown a need for.
 */
const WHEN_FULL = 16;

export function createAdmission<K>(remembered: number, random: () => number = Math.random) {
  // Keys offered and not let in yet, oldest first; bounded, so a walk over every record forgets its start.
  const offered = new Set<K>();
  const remember = (key: K) => {
    if (offered.size >= remembered) offered.delete(offered.keys().next().value as K);
    offered.add(key);
  };
  return {
    /**
     * Whether to keep a value for `key`, which the cache does not hold; `full`: whether keeping it pushes
     * another out, asked only on a second offer (weighing a value of ~10 kB reads all of it). `share`: the
     * part of the usual odds a value gets once full, below 1 for one that pushes out as much as several
     * (what moves through the old space is bytes, not values).
     */
    admits(key: K, full: () => boolean, share = 1): boolean {
      if (!offered.delete(key)) {
        remember(key);
        return false;
      }
      if (full() && random() * WHEN_FULL >= share) {
        remember(key);
        return false;
      }
      return true;
    },
    clear: () => offered.clear(),
  };
}
