import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileInMemory, idleMemoryReclaim, sqliteFile } from '../../bench/page-cache.ts';

// The bench says on which kind of machine it ran (one whose kernel reclaims idle memory, or not) and how much
// of the database file each scenario met in memory: a cold read's speed depends on both.
describe('bench: the page cache a scenario meets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cal-bench-page-cache-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A DAMON sysfs tree of one kdamond with one context and the given schemes. */
  const damon = (name: string, state: string, schemes: Array<{ action: string; ageMin: number }>) => {
    const root = join(dir, name);
    const files: Record<string, string> = {
      '0/state': state,
      '0/contexts/0/monitoring_attrs/intervals/aggr_us': '5000000',
    };
    schemes.forEach((scheme, i) => {
      Object.assign(files, {
        [`0/contexts/0/schemes/${i}/action`]: scheme.action,
        [`0/contexts/0/schemes/${i}/access_pattern/age/min`]: String(scheme.ageMin),
        [`0/contexts/0/schemes/${i}/quotas/bytes`]: String(128 * 2 ** 20),
        [`0/contexts/0/schemes/${i}/quotas/reset_interval_ms`]: '1000',
      });
    });
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), `${text}\n`);
    }
    return root;
  };

  it('names a running pageout scheme with its idle time and rate, and nothing else', () => {
    expect(idleMemoryReclaim(damon('pageout', 'on', [{ action: 'pageout', ageMin: 12 }])))
      .toBe('memory idle 60 s reclaimed (DAMON pageout, up to 128 MB a second)');
    expect(idleMemoryReclaim(damon('stopped', 'off', [{ action: 'pageout', ageMin: 12 }]))).toBeUndefined();
    expect(idleMemoryReclaim(damon('statistics', 'on', [{ action: 'stat', ageMin: 0 }]))).toBeUndefined();
    expect(idleMemoryReclaim(join(dir, 'no-damon'))).toBeUndefined();
  });

  it('tells how much of a file is in memory, and nothing of a file that is not there', () => {
    const file = join(dir, 'bench.db');
    writeFileSync(file, Buffer.alloc(4 * 2 ** 20, 7));
    readFileSync(file);
    const held = fileInMemory(file);
    expect(held?.fileMb).toBe(4);
    // Just written and read: the page cache holds it (a reclaim takes memory idle for many seconds).
    expect(held?.residentMb).toBe(4);
    expect(fileInMemory(join(dir, 'missing.db'))).toBeUndefined();
  });

  it('finds the SQLite file in a bench database URL, and none in a PostgreSQL one', () => {
    expect(sqliteFile('sqlite:/tmp/cal-bench-x/bench.db')).toBe('/tmp/cal-bench-x/bench.db');
    expect(sqliteFile('postgres://postgres@127.0.0.1:5432/test')).toBeUndefined();
  });
});
