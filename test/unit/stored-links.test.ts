import { describe, expect, it } from 'vitest';
import { linksOf, linksText } from '../../src/events/stored-texts.ts';

// The three id lists a stored own text names (events/stored-texts.ts), written as `1,2|3|4` and read back
// digit by digit on every cold read: what is read must be what was written, whatever the lists hold.
describe('stored links', () => {
  it('reads back the lists it wrote, empty ones and many-digit ids among them', () => {
    const cases = [
      { categories: [], tags: [], organizers: [] },
      { categories: [1], tags: [], organizers: [] },
      { categories: [], tags: [], organizers: [7] },
      { categories: [], tags: [42], organizers: [] },
      { categories: [3, 10, 2147483647], tags: [0, 9, 100000], organizers: [12, 5] },
    ];
    for (const links of cases) expect(linksOf(linksText(links))).toEqual(links);
    expect(linksText(cases[4])).toBe('3,10,2147483647|0,9,100000|12,5');
  });

  it('keeps every id of random lists, in their order', () => {
    let seed = 20261127;
    const next = () => (seed = (Math.imul(seed, 48271) >>> 0) % 2147483647);
    const list = () => Array.from({ length: next() % 6 }, () => next() % (10 ** (1 + (next() % 9))));
    for (let i = 0; i < 500; i++) {
      const links = { categories: list(), tags: list(), organizers: list() };
      expect(linksOf(linksText(links))).toEqual(links);
    }
  });
});
