import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';

// The planner's statistics on SQLite are each index's summary (sqlite_stat1), never stat4's samples of values,
// with which SQLite prepares a statement again at each run whenever a bound value could change its plan.
describe('SQLite: statistics without value samples', () => {
  const folder = mkdtempSync(join(tmpdir(), 'cal-stat-'));
  const path = join(folder, 'cal.db');
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('gathers summaries only, and drops the samples an analysis without a limit left', async () => {
    const handle = createDb(`sqlite:${path}`);
    await migrateToLatest(handle.db);
    // Another tool (or an earlier version of this one) analyzes with no limit: samples are stored.
    const other = new SqliteDatabase(path);
    other.function('lower', { deterministic: true }, (text: unknown) => (text === null ? null : String(text).toLowerCase()));
    const insert = other.prepare(`insert into term (taxonomy, name, slug, description, parent_id, count) values ('post_tag', ?, ?, '', 0, 0)`);
    for (let i = 0; i < 300; i++) insert.run(`Tag ${i % 7}`, `tag-${i}`);
    other.exec('analyze');
    const samples = () => (other.prepare(`select count(*) as n from sqlite_schema where name = 'sqlite_stat4'`).get() as { n: number }).n > 0
      ? (other.prepare('select count(*) as n from sqlite_stat4').get() as { n: number }).n
      : 0;
    expect(samples()).toBeGreaterThan(0);

    other.exec('delete from sqlite_stat1');
    handle.optimize?.();
    expect(samples()).toBe(0);
    const summaries = other.prepare(`select idx from sqlite_stat1 where tbl = 'term'`).all() as Array<{ idx: string }>;
    expect(summaries.map((row) => row.idx)).toContain('term_taxonomy_lower_name_idx');
    other.close();
    await handle.close();
  });
});
