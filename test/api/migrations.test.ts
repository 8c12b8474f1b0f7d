import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest, ownSchemaOnly, pendingMigrations } from '../../src/db/migrator.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { postgresSchema } from '../helpers/spawn-service.ts';
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
        // 0021: the database moves the credentials' version itself, on any write of a user or a password.
        expect((await database.db.selectFrom('data_version').select('credentials_version').executeTakeFirstOrThrow()).credentials_version).toBe(1);
        for (const name of [...ALL].reverse()) expect(await migrateDown(database.db)).toEqual([`reverted ${name}`]);
        await expect(sql`select count(*) from ${sql.table('user')}`.execute(database.db)).rejects.toThrow();
        await expect(sql`select count(*) from ${sql.table('data_version')}`.execute(database.db)).rejects.toThrow();
        expect(await migrateToLatest(database.db)).toEqual(ALL.map((name) => `applied ${name}`));
        expect((await database.db.selectFrom('data_version').selectAll().execute())).toEqual([{ id: 1, version: 0, unlogged_version: 0, credentials_version: 0, changed_utc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/) }]);
        const event = await database.db.selectFrom('event').select('sequence').limit(1).execute();
        expect(event).toEqual([]);
        const count = await database.db.selectFrom('user').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
        expect(Number(count.n)).toBe(0);
      } finally {
        await database.close();
      }
    });

    it('0006 recomputes stored abbreviations from the tz database, 0007 fills the search text; down undoes both', async () => {
      const database = await openTestDatabase(dialect);
      const { db } = database;
      try {
        await migrateToLatest(db);
        const stamp = '2026-01-01 00:00:00';
        const insert = async (timezone: string, abbr: string, startUtc: string, description: string) => {
          const { id } = await db.insertInto('post').values({ type: 'event' }).returning('id').executeTakeFirstOrThrow();
          await db.insertInto('event').values({
            id, author_id: 1, status: 'publish', slug: `e${id}`, title: 'E', description, excerpt: '<p>Short <b>one</b></p>', search_text: '',
            image_id: null, date_local: stamp, date_utc: stamp, modified_local: stamp, modified_utc: stamp, password: '', parent_id: 0,
            timezone, timezone_abbr: abbr, all_day: 0, start_local: startUtc, end_local: startUtc, start_utc: startUtc, end_utc: startUtc,
            cost: '[]', website: null, show_map: 0, show_map_link: 0, hide_from_listings: 0, sticky: 0, featured: 0, venue_id: null,
            recurrence: null, original_start: null, override: 0, recurrence_next: null,
          }).execute();
          return id;
        };
        const hk = await insert('Asia/Hong_Kong', '+08', '2026-07-01 10:00:00', '<p>Dim <a href="/x">sum</a></p>');
        const berlin = await insert('Europe/Berlin', 'GMT+2', '2026-07-01 10:00:00', '');
        const sp = await insert('America/Sao_Paulo', '-03', '2026-01-01 10:00:00', 'Rock &amp; Roll');
        const read = () => db.selectFrom('event').select(['id', 'timezone_abbr']).orderBy('id').execute();

        expect(await migrateDown(db)).toEqual(['reverted 0021-credentials-version']);
        expect(await migrateDown(db)).toEqual(['reverted 0020-stored-text-fingerprints']);
        expect(await migrateDown(db)).toEqual(['reverted 0019-stored-text-checks']);
        expect(await migrateDown(db)).toEqual(['reverted 0018-stored-text-digests']);
        expect(await migrateDown(db)).toEqual(['reverted 0017-stored-texts']);
        expect(await migrateDown(db)).toEqual(['reverted 0016-pending-changes']);
        expect(await migrateDown(db)).toEqual(['reverted 0015-recurring-series']);
        expect(await migrateDown(db)).toEqual(['reverted 0014-event-venue-window']);
        expect(await migrateDown(db)).toEqual(['reverted 0013-venue-coordinates']);
        expect(await migrateDown(db)).toEqual(['reverted 0012-term-name-index']);
        expect(await migrateDown(db)).toEqual(['reverted 0011-unlogged-writes']);
        expect(await migrateDown(db)).toEqual(['reverted 0010-webhooks']);
        expect(await migrateDown(db)).toEqual(['reverted 0009-change-log']);
        expect(await migrateDown(db)).toEqual(['reverted 0008-import-lineage']);
        expect(await migrateDown(db)).toEqual(['reverted 0007-search-text']);
        expect(await migrateDown(db)).toEqual(['reverted 0006-tzdb-abbreviations']);
        expect(await read()).toEqual([{ id: hk, timezone_abbr: '+08' }, { id: berlin, timezone_abbr: 'CEST' }, { id: sp, timezone_abbr: '-03' }]);
        expect(await migrateToLatest(db)).toEqual(['applied 0006-tzdb-abbreviations', 'applied 0007-search-text', 'applied 0008-import-lineage', 'applied 0009-change-log', 'applied 0010-webhooks', 'applied 0011-unlogged-writes', 'applied 0012-term-name-index', 'applied 0013-venue-coordinates', 'applied 0014-event-venue-window', 'applied 0015-recurring-series', 'applied 0016-pending-changes', 'applied 0017-stored-texts', 'applied 0018-stored-text-digests', 'applied 0019-stored-text-checks', 'applied 0020-stored-text-fingerprints', 'applied 0021-credentials-version']);
        expect(await read()).toEqual([{ id: hk, timezone_abbr: 'HKT' }, { id: berlin, timezone_abbr: 'CEST' }, { id: sp, timezone_abbr: '-03' }]);
        const texts = await db.selectFrom('event').select('search_text').orderBy('id').execute();
        expect(texts.map((r) => r.search_text)).toEqual(['Dim sum\nShort one', 'Short one', 'Rock & Roll\nShort one']);
      } finally {
        await database.close();
      }
    });
  });
}

const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  describe('migrations [postgres] beside other schemas', () => {
    // Services, tests and tenants share one PostgreSQL database, each in a schema of its own. Kysely's own
    // check for its bookkeeping tables read every column of every schema, with functions that look each
    // schema up by name: a schema dropped meanwhile by anyone failed the start, or the readiness check, here.
    it('migrates and answers readiness while other schemas come and go', { timeout: 60_000 }, async () => {
      const database = await openTestDatabase('postgres');
      try {
        await migrateToLatest(database.db);
        for (let round = 0; round < 6; round++) {
          const others = await Promise.all(Array.from({ length: 4 }, (_, i) => postgresSchema(pgUrl, `gone_${process.pid}_${round}_${i}`)));
          const { Client } = (await import('pg')).default;
          await Promise.all(others.map(async (other) => {
            const client = new Client({ connectionString: other.url });
            await client.connect();
            for (let t = 0; t < 40; t++) await client.query(`create table t${t} (id serial primary key, a text, b int)`);
            await client.end();
          }));
          const checks = Promise.all(Array.from({ length: 8 }, () => pendingMigrations(database.db)));
          await Promise.all(others.map((other) => other.drop()));
          expect(await checks).toEqual(Array.from({ length: 8 }, () => []));
          expect(await migrateToLatest(database.db)).toEqual([]);
        }
      } finally {
        await database.close();
      }
    });

    it('sees the tables of its own schema alone, as a list and as metadata', async () => {
      const database = await openTestDatabase('postgres');
      const other = await postgresSchema(pgUrl, `other_${process.pid}`);
      const { Client } = (await import('pg')).default;
      const client = new Client({ connectionString: other.url });
      try {
        await migrateToLatest(database.db);
        await client.connect();
        await client.query('create table not_ours (id serial primary key)');
        const introspection = ownSchemaOnly(database.db).introspection;
        const tables = (await introspection.getTables()).map((table) => table.name).sort();
        expect(tables).toContain('event');
        expect(tables).not.toContain('not_ours');
        expect((await introspection.getMetadata()).tables.map((table) => table.name).sort()).toEqual(tables);
      } finally {
        await client.end();
        await other.drop();
        await database.close();
      }
    });
  });
}
