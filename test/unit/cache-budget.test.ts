import { describe, expect, it } from 'vitest';
import { createAdmission } from '../../src/db/admission.ts';
import { cacheBytes, textBytes } from '../../src/db/cache-budget.ts';
import { createRecordCache } from '../../src/db/record-cache.ts';
import { createVersionedCache } from '../../src/db/versioned-cache.ts';

describe('caches bounded by the bytes they hold', () => {
  it('weighs text as V8 keeps it: one byte a Latin-1 character, two for any text with a wider one', () => {
    expect(textBytes('Café')).toBe(4);
    expect(textBytes('Jazz – late')).toBe(22);
    expect(textBytes('')).toBe(0);
    expect(textBytes(null)).toBe(0);
  });

  it('shares of the heap grow with the share', () => {
    expect(cacheBytes(0.2)).toBeGreaterThan(cacheBytes(0.1));
    expect(cacheBytes(1)).toBeLessThan(1024 ** 4);
  });

  it('a record cache drops its oldest entries past its budget, and never keeps a value over it', () => {
    const cache = createRecordCache<number, string>(100, () => 0, 'test', { bytes: 10, weigh: (text) => text.length });
    cache.set(1, 'aaaa', 0);
    cache.set(2, 'bbbb', 0);
    cache.set(3, 'cccc', 0); // 12 bytes: the oldest goes
    expect([cache.get(1), cache.get(2), cache.get(3)]).toEqual([undefined, 'bbbb', 'cccc']);
    cache.set(2, 'bb', 0); // replaced: its old weight is given back
    cache.set(4, 'dddd', 0);
    expect([cache.get(2), cache.get(3), cache.get(4)]).toEqual(['bb', 'cccc', 'dddd']);
    cache.set(5, 'x'.repeat(11), 0);
    expect(cache.get(5)).toBeUndefined();
    cache.deleteWhere((_, key) => key === 3);
    cache.set(6, 'eeee', 0); // 2 + 4 + 4: fits once 3 is gone
    expect([cache.get(2), cache.get(4), cache.get(6)]).toEqual(['bb', 'dddd', 'eeee']);
    cache.clear();
    cache.set(7, 'x'.repeat(10), 0);
    expect(cache.get(7)).toBe('x'.repeat(10));
  });

  it('a value that pushes out as much as several gets that much less of the odds once full (admission share)', () => {
    let draw = 0.05; // 0.05 * 16 = 0.8: within a whole share, not within half of one
    const admission = createAdmission<string>(8, () => draw);
    expect(admission.admits('a', () => true)).toBe(false); // first offer: never
    expect(admission.admits('a', () => true, 0.5)).toBe(false);
    expect(admission.admits('a', () => true, 1)).toBe(true);
    expect(admission.admits('b', () => true, 0.5)).toBe(false);
    draw = 0.02; // 0.32
    expect(admission.admits('b', () => true, 0.5)).toBe(true);
    expect(admission.admits('c', () => false, 0.01)).toBe(false);
    expect(admission.admits('c', () => false, 0.01)).toBe(true); // not full: the share does not matter
  });

  it('a page (versioned cache) with admitByFrequency is kept from its second rendering, for its version only', () => {
    const pages = createVersionedCache<string>(100, (html) => html.length, 'test-pages', { admitByFrequency: true });
    pages.set('/event/a/', 1, '<a>');
    expect(pages.get('/event/a/', 1)).toBeUndefined();
    pages.set('/event/a/', 1, '<a>');
    expect(pages.get('/event/a/', 1)).toBe('<a>');
    expect(pages.get('/event/a/', 2)).toBeUndefined(); // a write since: stale
    pages.set('/event/a/', 2, '<a2>'); // wanted before: kept at once
    expect(pages.get('/event/a/', 2)).toBe('<a2>');
    const plain = createVersionedCache<string>(100, (html) => html.length, 'test-pages');
    plain.set('/event/b/', 1, '<b>');
    expect(plain.get('/event/b/', 1)).toBe('<b>');
  });
});
