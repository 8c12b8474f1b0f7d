import { FifoSet } from './fifo-map.ts';

/**
 * How often each key was asked for lately, estimated in a fixed amount of memory (TinyLFU's sketch: Einziger,
 * Friedman and Manes, "TinyLFU: A Highly Efficient Cache Admission Policy", 2017). Four small counters a key,
 * in one array shared by all keys; a key's estimate is the least of its four, so keys sharing counters can
 * only make one look more frequent, never less, and a count raises only those of its four at that least
 * (conservative update: the estimates of others grow less). Counts stop at 15, and every `10 * capacity`
 * counts all counters are halved: what was asked for long ago weighs less than what is asked for now, so a
 * cache that follows it adapts when what is read changes.
 */
export function createFrequencySketch(capacity: number) {
  // Sixteen counters per kept key at least (few keys share all four), a power of two.
  let width = 64;
  while (width < capacity * 16) width *= 2;
  const counters = new Uint8Array(width);
  // A hash's counters are the top bits of four products of it (multiplicative hashing): a shift, no mask.
  const shift = 32 - Math.log2(width);
  const period = Math.max(64, capacity * 10);
  let counted = 0;

  const hashOf = (key: unknown): number => {
    if (typeof key === 'number') return mix(key | 0);
    const text = String(key);
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    return mix(hash);
  };
  const at = (hash: number, i: number) => Math.imul(hash, SPREAD[i]) >>> shift;

  const estimateOf = (hash: number) => {
    let least = 15;
    for (let i = 0; i < 4; i++) least = Math.min(least, counters[at(hash, i)]);
    return least;
  };
  const halve = () => {
    for (let i = 0; i < width; i++) counters[i] >>= 1;
    counted = Math.floor(counted / 2);
  };

  return {
    /** Counts one more ask for `key`; returns its estimate after it. */
    count(key: unknown): number {
      const hash = hashOf(key);
      const least = estimateOf(hash);
      if (least < 15) for (let i = 0; i < 4; i++) if (counters[at(hash, i)] === least) counters[at(hash, i)]++;
      if (++counted >= period) halve();
      return Math.min(15, least + 1);
    },
    /** How many times `key` was asked for lately (at most 15). */
    estimate: (key: unknown): number => estimateOf(hashOf(key)),
  };
}

const SPREAD = [0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f];

/** A 32-bit integer's bits mixed (murmur3's finalizer): ids next to each other land far apart. */
function mix(value: number): number {
  let h = value;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * TinyLFU's admission, for a cache whose oldest entry goes first: a value gets in from its key's second offer
 * within the last `capacity * 4` (the doorkeeper: a key asked for once is let go young), and once the cache is
 * full only if its key was asked for more often lately than the oldest kept one's, which otherwise stays and
 * is moved to the back, so the next offer is weighed against the next oldest. A walk over more keys than fit,
 * each asked for as often as those kept, turns nothing over; keys asked for more often get in within a few
 * asks, and as counts age, keys no longer asked for give way to those asked for now.
 *
 * The ask that brings an offer is not weighed: in a walk, the kept key may not have been asked for yet in
 * this round, and counting the offer's own ask let it win about every other time. Walking every day of three
 * years as one-day lists, the kept event texts turned over and ~26 MB/s went through V8's old space (7 MB/s
 * without that ask); its collections made list-cold's p99 28 ms (13 ms without).
 */
export function createFrequencyAdmission<K>(capacity: number) {
  const sketch = createFrequencySketch(capacity);
  const offered = new FifoSet<K>();
  return {
    /** A kept value was read. */
    read(key: K): void {
      sketch.count(key);
    },
    /**
     * Whether a value for `key`, not kept, gets in; the offer counts as an ask (a miss led to it). `room`:
     * whether it fits without pushing another out (asked past the doorkeeper only: weighing a value can read
     * all of it); `oldest`: the key that would go first; `spare` moves that one to the back.
     */
    admits(key: K, room: () => boolean, oldest: () => K | undefined, spare: (key: K) => void): boolean {
      const asked = sketch.count(key);
      if (!offered.has(key)) {
        if (offered.size >= capacity * 4) offered.delete(offered.oldest() as K);
        offered.add(key);
        return false;
      }
      const first = room() ? undefined : oldest();
      if (first === undefined || asked - 1 > sketch.estimate(first)) {
        offered.delete(key);
        return true;
      }
      spare(first);
      return false;
    },
    /** Forgets the keys offered once (how often keys were asked for stays known). */
    clear(): void {
      offered.clear();
    },
  };
}
