import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.ts';

// SQLite plans a statement anew at every run when a value is bound to its LIMIT or OFFSET (db/create-db.ts,
// PlannedOnceCompiler); written as expressions of the parameter, they are planned once. What a page holds
// must not change: the same rows, the same refusals.
describe('SQLite: a page limit and offset', () => {
  const handle = createDb('sqlite::memory:');
  const db = handle.db as unknown as import('kysely').Kysely<{ thing: { id: number; name: string } }>;
  beforeAll(async () => {
    await sql`create table thing (id integer primary key, name text not null)`.execute(db);
    await db.insertInto('thing').values(Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `thing ${i + 1}` }))).execute();
  });
  afterAll(() => handle.close());

  const page = (limit: number, offset: number) => db.selectFrom('thing').select('id').orderBy('id').limit(limit).offset(offset);

  it('are parameters written as expressions, so one statement serves every page', () => {
    const first = page(10, 0).compile();
    const third = page(10, 20).compile();
    expect(first.sql).toBe('select "id" from "thing" order by "id" limit (?) + 0 offset (?) + 0');
    expect(third.sql).toBe(first.sql);
    expect(first.parameters).toEqual([10, 0]);
    expect(third.parameters).toEqual([10, 20]);
  });

  it('give the rows they gave as plain parameters', async () => {
    const ids = async (limit: number, offset: number) => (await page(limit, offset).execute()).map((row) => row.id);
    expect(await ids(10, 0)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await ids(10, 20)).toEqual([21, 22, 23, 24, 25]);
    expect(await ids(10, 30)).toEqual([]);
    expect(await ids(0, 0)).toEqual([]);
    expect((await db.selectFrom('thing').select('id').where('id', '>', 23).orderBy('id').limit(5).execute()).map((row) => row.id)).toEqual([24, 25]);
  });

  it('still refuse a limit that is not a whole number, as SQLite refused it bound', async () => {
    await expect(page(2.5, 0).execute()).rejects.toThrow(/datatype mismatch/);
    await expect(page(10, 1.5).execute()).rejects.toThrow(/datatype mismatch/);
  });
});
