import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest } from '../../src/db/migrator.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { openTestDatabase } from '../helpers/test-app.ts';

const ALL = Object.keys(migrations);
const dialects = process.env.TEST_DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

for (const dialect of dialects) {
  describe(`migrations [${dialect}]`, () => {
    it('go up, down and up again, and the schema works after each', async () => {
      const database = await openTestDatabase(dialect);
      try {
        expect(await migrateToLatest(database.db)).toEqual(ALL.map((name) => `applied ${name}`));
        expect(await migrateToLatest(database.db)).toEqual([]);
        await database.db.insertInto('user').values({ login: 'a', email: '', display_name: 'a', role: 'editor', created_utc: '2026-01-01 00:00:00' }).execute();
        for (const name of [...ALL].reverse()) expect(await migrateDown(database.db)).toEqual([`reverted ${name}`]);
        await expect(sql`select count(*) from ${sql.table('user')}`.execute(database.db)).rejects.toThrow();
        await expect(sql`select count(*) from ${sql.table('data_version')}`.execute(database.db)).rejects.toThrow();
        expect(await migrateToLatest(database.db)).toEqual(ALL.map((name) => `applied ${name}`));
        expect((await database.db.selectFrom('data_version').selectAll().execute())).toEqual([{ id: 1, version: 0, changed_utc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/) }]);
        const event = await database.db.selectFrom('event').select('sequence').limit(1).execute();
        expect(event).toEqual([]);
        const count = await database.db.selectFrom('user').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
        expect(Number(count.n)).toBe(0);
      } finally {
        await database.close();
      }
    });
  });
}
