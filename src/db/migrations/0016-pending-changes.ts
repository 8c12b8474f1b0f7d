import { type Kysely, PostgresAdapter } from 'kysely';

// Parallel writers on PostgreSQL no longer wait for each other at commit (issue 11). A writer used to bump
// the data version row and append to the change log under that row's lock until it committed, so that the
// log's order was the commit order. Now a writer appends its changes here, taking no lock; a reader moves
// what has committed into `change_log` (one mover at a time), which gives the log its order. SQLite writes
// one transaction at a time anyway and keeps appending to the log directly: this table stays empty there.

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await (postgres
    ? db.schema.createTable('change_pending').addColumn('id', 'bigserial', (c) => c.primaryKey())
    : db.schema.createTable('change_pending').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changed_utc', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('change_pending').execute();
}
