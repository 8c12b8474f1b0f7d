import { type Kysely, PostgresAdapter } from 'kysely';

// Webhook subscriptions and their deliveries (issue 11). A subscription's `cursor` is the last change-log
// sequence number turned into deliveries; a delivery is one change for one subscription, retried until
// it is delivered or fails for good; each try is an attempt row. (webhook_id, change_seq) is unique, so
// two processes turning the same changes into deliveries cannot both succeed.

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const serial = (name: string) =>
    postgres ? db.schema.createTable(name).addColumn('id', 'serial', (c) => c.primaryKey())
      : db.schema.createTable(name).addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await serial('webhook')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('kinds', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('actions', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category_id', 'integer')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('disabled_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cursor', 'integer', (c) => c.notNull())
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .execute();
  await serial('webhook_delivery')
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhook.id').onDelete('cascade'))
    .addColumn('change_seq', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changed_utc', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_utc', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('delivered_utc', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('webhook_delivery_change').unique().on('webhook_delivery').columns(['webhook_id', 'change_seq']).execute();
  await db.schema.createIndex('webhook_delivery_due').on('webhook_delivery').columns(['status', 'next_attempt_utc']).execute();
  await db.schema.createIndex('webhook_delivery_record').on('webhook_delivery').columns(['webhook_id', 'kind', 'record_id', 'status']).execute();
  await serial('webhook_attempt')
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('webhook_delivery.id').onDelete('cascade'))
    .addColumn('attempted_utc', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempt_delivery').on('webhook_attempt').column('delivery_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_attempt').execute();
  await db.schema.dropTable('webhook_delivery').execute();
  await db.schema.dropTable('webhook').execute();
}
