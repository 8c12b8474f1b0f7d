import { FifoSet } from './fifo-map.ts';

/**
 * Which values a memory of recent texts lets in (http/conditional.ts, the entity tags): from their key's
 * second offer, and, once full, only one such offer in `WHEN_FULL` (chosen at random).
 *
 * A value offered once is let go young. Offered again it has earned a place; but reads spread over more
 * texts than fit offer each one again before long, and letting every one in pushed a remembered one out with
 * each (a FIFO of 2048 turned over completely by 1000 hot records' ~10 MB of text, so none was found).
 * Spread uniformly, any choice of what to keep serves as many reads; a text read often still gets in within
 * a few dozen reads.
 *
 * The record and page caches (record-cache.ts, versioned-cache.ts) admit by frequency instead
 * (frequency-sketch.ts): these odds there gained list-cold ~5-12% but cost the 90/10 mix ~5%, and a cache
 * full of what nobody read any more followed a change of what is read only after seconds (date-window after
 * the cold reads: -35%), where comparing with the oldest kept entry's frequency costs neither. The tags keep
 * the odds: the texts they are remembered for are held by the record caches already, so letting one in costs
 * little, and a page's share of the odds weighs what it pushes out.
 */
const WHEN_FULL = 16;

export function createAdmission<K>(remembered: number, random: () => number = Math.random) {
  // Keys offered and not let in yet, oldest first; bounded, so a walk over every record forgets its start.
  const offered = new FifoSet<K>();
  const remember = (key: K) => {
    if (offered.size >= remembered) offered.delete(offered.oldest() as K);
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
  };
}
