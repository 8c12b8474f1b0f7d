/**
 * Keys in the order they came (or were last moved to the back), whose oldest is found in constant time: what
 * every bounded cache here pushes out first.
 *
 * A Map knows its insertion order, but `map.keys().next()` is no way to find the oldest key of one that keeps
 * losing its oldest: V8 leaves a hole for each deleted entry until the table is rebuilt, and every new
 * iterator walks the holes from the front. Pushing out the oldest of 5,000 keys and adding one cost 3.2 µs a
 * time that way, 12 µs at 20,000 (about 0.1 µs here), and a cold read of an event pushed out of four such
 * maps and sets. Here the order is an array of keys beside a Map of where each key last went in; a place whose
 * key has left or moved on is skipped once and dropped when the array is rebuilt.
 */
export class FifoSet<K> {
  /** Each key's place: its index in `order`. */
  readonly #placeOf = new Map<K, number>();
  #order: K[] = [];
  /** The index in `order` before which no key is still in its place. */
  #head = 0;

  get size(): number {
    return this.#placeOf.size;
  }

  has(key: K): boolean {
    return this.#placeOf.has(key);
  }

  /** Places the order holds, the keys' own and those left behind: never more than twice the keys and 64. */
  get places(): number {
    return this.#order.length;
  }

  /** Adds a key at the back; one already here keeps its place. */
  add(key: K): this {
    if (!this.#placeOf.has(key)) this.#append(key);
    return this;
  }

  delete(key: K): boolean {
    if (!this.#placeOf.delete(key)) return false;
    this.#rebuildIfSparse();
    return true;
  }

  /** Moves a key to the back, as if it had just been added (nothing for a key not here). */
  moveToBack(key: K): void {
    if (this.#placeOf.has(key)) this.#append(key);
  }

  /** The key added (or moved to the back) longest ago. */
  oldest(): K | undefined {
    while (this.#head < this.#order.length) {
      const key = this.#order[this.#head];
      if (this.#placeOf.get(key) === this.#head) return key;
      this.#head++;
    }
    return undefined;
  }

  clear(): void {
    this.#placeOf.clear();
    this.#order = [];
    this.#head = 0;
  }

  /** The keys, in no promised order. */
  keys(): IterableIterator<K> {
    return this.#placeOf.keys();
  }

  #append(key: K): void {
    this.#placeOf.set(key, this.#order.length);
    this.#order.push(key);
    this.#rebuildIfSparse();
  }

  // Rebuilt once the array holds more than twice the keys (and a few): each rebuild follows at least half as
  // many appends or deletes as it copies, so its cost spread over them is constant.
  #rebuildIfSparse(): void {
    const order = this.#order;
    if (order.length <= 2 * this.#placeOf.size + 64) return;
    // In place: a new array each time would be garbage of up to twice the keys, several times a second.
    let kept = 0;
    for (let i = this.#head; i < order.length; i++) {
      const key = order[i];
      if (this.#placeOf.get(key) !== i) continue;
      this.#placeOf.set(key, kept);
      order[kept++] = key;
    }
    order.length = kept;
    this.#head = 0;
  }
}

/** A Map whose oldest key (see FifoSet) is found in constant time; setting a key already here keeps its place. */
export class FifoMap<K, V> {
  readonly #values = new Map<K, V>();
  readonly #order = new FifoSet<K>();

  get size(): number {
    return this.#values.size;
  }

  get(key: K): V | undefined {
    return this.#values.get(key);
  }

  has(key: K): boolean {
    return this.#values.has(key);
  }

  set(key: K, value: V): this {
    this.#order.add(key);
    this.#values.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    this.#order.delete(key);
    return this.#values.delete(key);
  }

  moveToBack(key: K): void {
    this.#order.moveToBack(key);
  }

  oldest(): K | undefined {
    return this.#order.oldest();
  }

  clear(): void {
    this.#values.clear();
    this.#order.clear();
  }

  /** The entries, in no promised order; deleting while iterating is safe, as with a Map. */
  entries(): IterableIterator<[K, V]> {
    return this.#values.entries();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.#values.entries();
  }
}
