import { describe, expect, it } from 'vitest';
import { FifoMap, FifoSet } from '../../src/db/fifo-map.ts';

// A seeded source (mulberry32), so a failure repeats.
function randomFrom(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('keys whose oldest is found in constant time', () => {
  it('gives the oldest key; a key added again keeps its place, one moved to the back loses it', () => {
    const keys = new FifoSet<string>();
    expect(keys.oldest()).toBeUndefined();
    keys.add('a').add('b').add('c').add('a');
    expect(keys.oldest()).toBe('a');
    keys.moveToBack('a');
    expect(keys.oldest()).toBe('b');
    keys.moveToBack('missing');
    expect(keys.has('missing')).toBe(false);
    expect(keys.delete('b')).toBe(true);
    expect(keys.delete('b')).toBe(false);
    expect(keys.oldest()).toBe('c');
    keys.delete('c');
    expect(keys.oldest()).toBe('a');
    expect(keys.size).toBe(1);
    keys.clear();
    expect([keys.size, keys.oldest()]).toEqual([0, undefined]);
  });

  it('agrees with a Map\'s insertion order through 30,000 random adds, deletes and moves, its array rebuilt many times', () => {
    const random = randomFrom(10);
    const keys = new FifoSet<number>();
    // The reference: a Map's own order (moving a key = deleting it and adding it again).
    const model = new Map<number, true>();
    const modelOldest = () => model.keys().next().value;
    for (let step = 0; step < 30_000; step++) {
      const key = Math.floor(random() * 300);
      const what = random();
      if (what < 0.4) {
        keys.add(key);
        if (!model.has(key)) model.set(key, true);
      } else if (what < 0.6) {
        expect(keys.delete(key)).toBe(model.delete(key));
      } else if (what < 0.8) {
        keys.moveToBack(key);
        if (model.delete(key)) model.set(key, true);
      } else {
        // Pushing out the oldest, as the caches do.
        const oldest = keys.oldest();
        expect(oldest).toBe(modelOldest());
        if (oldest !== undefined) keys.delete(oldest);
        model.delete(oldest as number);
      }
      expect(keys.size).toBe(model.size);
      expect(keys.places).toBeLessThanOrEqual(2 * keys.size + 64);
    }
    expect([...keys.keys()].sort((a, b) => a - b)).toEqual([...model.keys()].sort((a, b) => a - b));
  });

  it('keeps its array bounded by the keys it holds, however many come and go', () => {
    const keys = new FifoSet<number>();
    for (let key = 0; key < 1_000_000; key++) {
      keys.add(key);
      if (keys.size > 100) keys.delete(keys.oldest() as number);
    }
    expect([keys.size, keys.oldest()]).toEqual([100, 999_900]);
    expect(keys.places).toBeLessThanOrEqual(264);
    for (let i = 0; i < 1_000_000; i++) keys.moveToBack(999_900 + (i % 100));
    expect([keys.size, keys.oldest()]).toEqual([100, 999_900]);
    expect(keys.places).toBeLessThanOrEqual(264);
    for (let key = 999_900; key < 999_990; key++) keys.delete(key);
    expect([keys.size, keys.oldest()]).toEqual([10, 999_990]);
    expect(keys.places).toBeLessThanOrEqual(84);
  });
});

describe('a map whose oldest key is found in constant time', () => {
  it('keeps values by key, a value set again in its place, and iterates them all', () => {
    const map = new FifoMap<string, number>();
    map.set('a', 1).set('b', 2).set('a', 3);
    expect([map.get('a'), map.get('b'), map.get('z'), map.has('b'), map.size]).toEqual([3, 2, undefined, true, 2]);
    expect(map.oldest()).toBe('a');
    map.moveToBack('a');
    expect(map.oldest()).toBe('b');
    for (const [key] of map) map.delete(key);
    expect([map.size, map.oldest(), [...map.entries()]]).toEqual([0, undefined, []]);
  });
});
