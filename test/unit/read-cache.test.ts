import { describe, expect, it } from 'vitest';
import { cacheBytes } from '../../src/db/cache-budget.ts';
import { createPageCache } from '../../src/db/read-cache.ts';

// List pages kept until the next write (db/read-cache.ts), bounded by what their rows weigh.
describe('the list page cache', () => {
  const reads = () => {
    const counter = { n: 0 };
    return { counter, read: <T>(rows: T[]) => async () => (counter.n++, rows) };
  };

  it('reads a page once per data version', async () => {
    const pageOf = createPageCache<{ id: number }>();
    const { counter, read } = reads();
    expect(await pageOf('p1', 7, read([{ id: 1 }]))).toEqual([{ id: 1 }]);
    expect(await pageOf('p1', 7, read([{ id: 2 }]))).toEqual([{ id: 1 }]);
    expect(counter.n).toBe(1);
    // Another write: read again.
    expect(await pageOf('p1', 8, read([{ id: 2 }]))).toEqual([{ id: 2 }]);
    expect(counter.n).toBe(2);
  });

  it('keeps no page heavier than its share of the caches, and lets the oldest go for a new one', async () => {
    const share = cacheBytes(0.01);
    const pageOf = createPageCache<{ id: number; description: string }>();
    const { counter, read } = reads();
    const huge = [{ id: 1, description: 'x'.repeat(share) }];
    await pageOf('huge', 1, read(huge));
    await pageOf('huge', 1, read(huge));
    expect(counter.n).toBe(2);
    const half = (id: number) => [{ id, description: 'y'.repeat(Math.floor(share / 2)) }];
    await pageOf('a', 1, read(half(1)));
    await pageOf('b', 1, read(half(2)));
    await pageOf('b', 1, read(half(2)));
    await pageOf('a', 1, read(half(1)));
    // a and b do not fit together: b pushed a out.
    expect(counter.n).toBe(2 + 3);
  });
});
