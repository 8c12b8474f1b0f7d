import { type Kysely, PostgresAdapter } from 'kysely';

// One ordered log of every change to an event, venue, organizer, category or tag (issue 11): what sync
// clients read (`/changes`) and what webhooks are sent from. `seq` orders it; rows are appended at the end
// of the writing transaction, under the lock that orders commits, so `seq` follows commit order. The horizon
// row says up to which `seq` old rows were pruned: a cursor before it can no longer be replayed.
// Incremental readers of the lists (`modified_after`, `orderby=modified`) get an index on modified_utc.

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await (postgres
    ? db.schema.createTable('change_log').addColumn('seq', 'bigserial', (c) => c.primaryKey())
    : db.schema.createTable('change_log').addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changed_utc', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .execute();
  await db.schema.createIndex('change_log_changed').on('change_log').column('changed_utc').execute();
  await db.schema
    .createTable('change_log_horizon')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('pruned_through', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('change_log_horizon').values({ id: 1, pruned_through: 0 }).execute();
  for (const table of ['event', 'venue', 'organizer']) {
    await db.schema.createIndex(`${table}_modified_idx`).on(table).columns(['modified_utc', 'id']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['event', 'venue', 'organizer']) await db.schema.dropIndex(`${table}_modified_idx`).execute();
  await db.schema.dropTable('change_log_horizon').execute();
  await db.schema.dropTable('change_log').execute();
}
