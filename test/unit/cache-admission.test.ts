import { describe, expect, it } from 'vitest';
import { createFrequencySketch } from '../../src/db/frequency-sketch.ts';
import { createRecordCache } from '../../src/db/record-cache.ts';
import { createVersionedCache } from '../../src/db/versioned-cache.ts';

describe('how often keys were asked for (TinyLFU sketch)', () => {
  it('counts each key apart, numbers and strings alike, up to 15', () => {
    const sketch = createFrequencySketch(100);
    for (let i = 0; i < 3; i++) sketch.count(7);
    expect(sketch.count(7)).toBe(4);
    expect(sketch.estimate(7)).toBe(4);
    expect(sketch.estimate(8)).toBe(0);
    for (let i = 0; i < 20; i++) sketch.count('7:single');
    expect(sketch.estimate('7:single')).toBe(15);
    expect(sketch.estimate('7:list')).toBe(0);
    expect(sketch.estimate(7)).toBe(4);
  });

  it('halves every count after ten times its capacity in counts: what was asked for long ago weighs less', () => {
    const sketch = createFrequencySketch(100); // halves after 1000 counts
    for (let i = 0; i < 8; i++) sketch.count('old');
    for (let key = 0; key < 991; key++) sketch.count(key); // 999 counts in all
    expect(sketch.estimate('old')).toBe(8);
    sketch.count('new');
    expect(sketch.estimate('old')).toBe(4);
    expect(sketch.estimate('new')).toBe(0); // 1 halved
  });
});

describe('record caches that admit by frequency', () => {
  const cacheOf = (limit: number) => createRecordCache<number, string>(limit, () => 0, 'test', undefined, { admitByFrequency: true });
  /** A read as the services make one: looked up, and offered when missing. */
  const read = (cache: ReturnType<typeof cacheOf>, key: number) => cache.get(key) ?? cache.set(key, `v${key}`, 0);
  const kept = (cache: ReturnType<typeof cacheOf>, keys: number[]) => keys.filter((key) => cache.get(key) !== undefined);

  it('keeps a value from its second offer, and replaces a kept one at once', () => {
    const cache = cacheOf(2);
    cache.set(1, 'a', 0);
    expect(cache.get(1)).toBeUndefined();
    cache.set(1, 'a', 0);
    expect(cache.get(1)).toBe('a');
    cache.set(1, 'a2', 0);
    expect(cache.get(1)).toBe('a2');
    // Eight offers remembered at most (four times the limit): the oldest offer is forgotten first.
    for (let key = 10; key < 19; key++) cache.set(key, 'x', 0);
    cache.set(10, 'x', 0); // forgotten by the ninth offer: offered anew
    cache.set(12, 'y', 0); // still remembered: its second offer, and there is room
    expect([cache.get(10), cache.get(12)]).toEqual([undefined, 'y']);
    // Forgetting everything forgets the offers too.
    cache.set(20, 'z', 0);
    cache.clear();
    cache.set(20, 'z', 0);
    expect(cache.get(20)).toBeUndefined();
  });

  it('once full, a walk over more records than fit, each read as often as those kept, leaves those kept in place', () => {
    const cache = cacheOf(4);
    for (const key of [1, 2, 3, 4, 1, 2, 3, 4]) read(cache, key);
    expect(kept(cache, [1, 2, 3, 4])).toEqual([1, 2, 3, 4]);
    // Ten records read in turn, five times over: four fit. (A first-in-first-out cache letting every second
    // offer in would turn over with every read, and hold none of them when read again.)
    for (let round = 0; round < 5; round++) for (let key = 1; key <= 10; key++) read(cache, key);
    expect(kept(cache, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toEqual([1, 2, 3, 4]);
  });

  it('nor when the rounds come in other orders and counts have aged alike, the kept ones asked for after the others', () => {
    const cache = cacheOf(4); // its sketch halves every 40 counts: four rounds
    const all = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    // Every other round backwards, for 40 rounds: once halving has evened the counts, an offer in a backward
    // round comes before the kept ones are asked for in it. Had the ask bringing the offer been weighed, it
    // would have beaten a kept one every few rounds (the kept four changed 7 times).
    const keptAfter: string[] = [];
    for (let round = 0; round < 40; round++) {
      for (const key of round % 2 === 1 ? [...all].reverse() : all) read(cache, key);
      keptAfter.push(kept(cache, all).join(','));
    }
    expect(new Set(keptAfter.slice(1))).toEqual(new Set([keptAfter[1]]));
    expect(keptAfter[1].split(',')).toHaveLength(4);
  });

  it('a record read more often than the oldest kept ones gets in within a few reads; one that wins stays, moved back', () => {
    const cache = cacheOf(4);
    for (const key of [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3]) read(cache, key); // 4 read twice, the others three times
    let reads = 0;
    while (cache.get(9) === undefined && reads < 10) {
      read(cache, 9);
      reads++;
    }
    // Its first read is its first offer. Then it is weighed by the reads before the one offering it: its second
    // (one before) loses to 1 (three), its third (two) to 2, its fourth (three) to 3, each moved back; its fifth
    // (four) beats 4 (two), which goes.
    expect(reads).toBe(5);
    expect(kept(cache, [1, 2, 3, 4, 9])).toEqual([1, 2, 3, 9]);
  });

  it('records no longer read give way to those read now, as counts age', () => {
    const cache = cacheOf(4); // its sketch halves every 40 counts
    for (let round = 0; round < 4; round++) for (let key = 1; key <= 4; key++) read(cache, key);
    // Now 5 to 8 are read, and 1 to 4 no more: within a few aging periods they are all kept instead.
    for (let round = 0; round < 20; round++) for (let key = 5; key <= 8; key++) read(cache, key);
    expect(kept(cache, [1, 2, 3, 4, 5, 6, 7, 8])).toEqual([5, 6, 7, 8]);
  });
});

describe('a cache bounded by bytes that admits by frequency (rendered pages)', () => {
  it('keeps a page from its second rendering; once full, a walk over more pages than fit leaves those kept in place', () => {
    const pages = createVersionedCache<string>(30, (html) => html.length, 'test-pages', { admitByFrequency: true });
    const read = (url: string) => pages.get(url, 1) ?? pages.set(url, 1, `<html>${url.padEnd(4)}`); // 10 bytes
    for (const url of ['/a', '/b', '/c', '/a', '/b', '/c']) read(url);
    const urls = ['/a', '/b', '/c', '/d', '/e', '/f', '/g', '/h'];
    const kept = () => urls.filter((url) => pages.get(url, 1) !== undefined);
    expect(kept()).toEqual(['/a', '/b', '/c']);
    for (let round = 0; round < 5; round++) for (const url of urls) read(url);
    expect(kept()).toEqual(['/a', '/b', '/c']);
    // A page asked for more often than the oldest kept ones gets in, in place of one.
    for (let i = 0; i < 12; i++) read('/hot');
    expect(pages.get('/hot', 1)).toBeDefined();
    expect(kept()).toHaveLength(2);
  });

  it('makes an offered page only once it gets in: a page rendered once is never copied for the cache', () => {
    const pages = createVersionedCache<string>(30, (html) => html.length, 'test-pages', { admitByFrequency: true });
    const made: string[] = [];
    const offer = (url: string) => pages.offer(url, 1, () => {
      made.push(url);
      return `<html>${url.padEnd(4)}`;
    });
    for (const url of ['/a', '/b', '/c', '/d']) offer(url);
    expect(made).toEqual([]);
    expect(pages.get('/a', 1)).toBeUndefined();
    // Rendered a second time, it gets in (room to spare): made once, and served from then on.
    offer('/a');
    expect(made).toEqual(['/a']);
    expect(pages.get('/a', 1)).toBe('<html>/a  ');
    // A page too large for the whole cache is made (to be weighed), and not kept.
    pages.offer('/big', 1, () => 'x'.repeat(40));
    pages.offer('/big', 1, () => {
      made.push('/big');
      return 'x'.repeat(40);
    });
    expect(made).toEqual(['/a', '/big']);
    expect(pages.get('/big', 1)).toBeUndefined();
  });
});
