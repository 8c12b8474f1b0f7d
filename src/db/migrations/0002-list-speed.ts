import type { Kysely } from 'kysely';

// Lists stay fast at any size: the window indexes serve the event list in order (status and the hidden
// flag are equalities for most callers) and cover its count; `data_version` lets totals be cached until
// the next write, whichever process makes it.

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['local', 'utc']) {
    await db.schema
      .createIndex(`event_window_${column}_idx`)
      .on('event')
      .columns(['status', 'hide_from_listings', `start_${column}`, 'id', `end_${column}`])
      .execute();
  }
  await db.schema
    .createTable('data_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('data_version').values({ id: 1, version: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('data_version').execute();
  for (const column of ['local', 'utc']) await db.schema.dropIndex(`event_window_${column}_idx`).execute();
}
