import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.ts';

// SQLite statements read rows as arrays and make each object with one literal (db/create-db.ts, shapedRows):
// what a query returns must be what better-sqlite3's own objects were.
describe('SQLite: rows as the driver gave them', () => {
  const handle = createDb('sqlite::memory:');
  afterAll(() => handle.close());

  it('has every column in order, a repeated name holding its last value, for reads, RETURNING and streams', async () => {
    const { rows } = await sql<Record<string, unknown>>`select 1 as a, 'two' as "b c", null as d, 3 as a`.execute(handle.db);
    expect(rows).toEqual([{ a: 3, 'b c': 'two', d: null }]);
    expect(Object.keys(rows[0])).toEqual(['a', 'b c', 'd']);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);

    await sql`create table thing (id integer primary key, name text)`.execute(handle.db);
    const inserted = await handle.db.insertInto('thing' as never).values([{ name: 'x' }, { name: 'y' }] as never).returning(['id', 'name'] as never).execute();
    expect(inserted).toEqual([{ id: 1, name: 'x' }, { id: 2, name: 'y' }]);
    const streamed = [];
    for await (const row of handle.db.selectFrom('thing' as never).selectAll().stream()) streamed.push(row);
    expect(streamed).toEqual([{ id: 1, name: 'x' }, { id: 2, name: 'y' }]);
    // A statement that returns nothing still answers what it changed.
    const updated = await handle.db.updateTable('thing' as never).set({ name: 'z' } as never).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
  });

  it('has the columns a table has now, after another connection added or dropped one', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cal-rows-'));
    const file = createDb(`sqlite:${join(folder, 'cal.db')}`);
    try {
      await sql`create table place (id integer primary key, name text)`.execute(file.db);
      await sql`insert into place (name) values ('Hall')`.execute(file.db);
      const all = () => file.db.selectFrom('place' as never).selectAll().execute();
      expect(await all()).toEqual([{ id: 1, name: 'Hall' }]);
      const other = new SqliteDatabase(join(folder, 'cal.db'));
      other.exec(`alter table place add column city text not null default 'Lyon'`);
      // Seen from the next turn on: the reads of one turn share a snapshot (db/create-db.ts, readsTogether).
      await new Promise((resolve) => setImmediate(resolve));
      expect(await all()).toEqual([{ id: 1, name: 'Hall', city: 'Lyon' }]);
      other.exec('alter table place drop column name');
      other.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(await all()).toEqual([{ id: 1, city: 'Lyon' }]);
    } finally {
      await file.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('keeps a column named like an object prototype a plain property', async () => {
    const { rows } = await sql<Record<string, unknown>>`select 1 as "constructor", 2 as "toString"`.execute(handle.db);
    expect(rows[0]).toEqual({ constructor: 1, toString: 2 });
  });
});
