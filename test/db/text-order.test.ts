import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.ts';
import { compareAsSqlite } from '../../src/db/text-match.ts';

// An ORDER BY lower(name), id done in memory (terms/term.repository.ts `idsOf`) must be the one SQLite makes:
// its lower() is ours (create-db.ts), its BINARY collation compares UTF-8 bytes.
describe('SQLite: text ordered in memory as SQLite orders it', () => {
  const handle = createDb('sqlite::memory:');
  afterAll(() => handle.close());

  it('puts names in the order of `order by lower(name), id`, beyond U+FFFF and past U+E000 too', async () => {
    const names = ['b', 'A', 'a', 'Z', 'é', 'É', 'e', 'f', '\u{1F600} smile', '\u{10000}', '\uE000', '\uFFFD', '\uFB01', 'ß', 'SS', 'İstanbul',
      'ı', '', ' ', 'a b', 'a-b', 'a_b', 'Ω', 'ω', '日本', '𝔄lpha', 'alpha', 'Alpha', '10', '9', 'Ǆ', 'ǅ', 'ǆ'];
    await sql`create table named (id integer primary key, name text not null)`.execute(handle.db);
    // Each name twice, in two places, so ties go by id.
    for (const name of [...names, ...[...names].reverse()]) await sql`insert into named (name) values (${name})`.execute(handle.db);
    const { rows } = await sql<{ id: number; name: string }>`select id, name from named order by lower(name), id`.execute(handle.db);
    const mine = rows.map((row) => ({ id: row.id, key: row.name.toLowerCase() })).reverse()
      .sort((a, b) => compareAsSqlite(a.key, b.key) || a.id - b.id);
    expect(mine.map((row) => row.id)).toEqual(rows.map((row) => row.id));
    // `<` alone puts a character beyond U+FFFF before U+E000; SQLite (and this order) after it.
    expect(compareAsSqlite('\u{1F600}', '\uE000')).toBe(1);
    expect('\u{1F600}' < '\uE000').toBe(true);
  });
});
