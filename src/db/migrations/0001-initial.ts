import { type Kysely, type CreateTableBuilder, PostgresAdapter, sql } from 'kysely';

// Only types both dialects share: integer, text; timestamps are fixed-format text, flags are 0/1.
// Frozen once shipped: later changes go in a new migration.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-assigned integer key: SERIAL on PostgreSQL, INTEGER PRIMARY KEY AUTOINCREMENT on SQLite. */
function withSerialId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Columns shared by every post-like table; `id` comes from the shared `post` sequence. */
function withPostColumns<T extends string>(table: CreateTableBuilder<T, never>) {
  return table
    .addColumn('id', 'integer', (c) => c.primaryKey().references('post.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image_id', 'integer', (c) => c.references('image.id').onDelete('set null'))
    .addColumn('date_local', 'text', (c) => c.notNull())
    .addColumn('date_utc', 'text', (c) => c.notNull())
    .addColumn('modified_local', 'text', (c) => c.notNull())
    .addColumn('modified_utc', 'text', (c) => c.notNull());
}

const text = (table: CreateTableBuilder<any, never>, ...names: string[]) =>
  names.reduce((t, name) => t.addColumn(name, 'text', (c) => c.notNull().defaultTo('')), table);
const flags = (table: CreateTableBuilder<any, never>, ...names: string[]) =>
  names.reduce((t, name) => t.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0)), table);

export async function up(db: Kysely<any>): Promise<void> {
  await withSerialId(db, db.schema.createTable('user'))
    .addColumn('login', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('display_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .execute();

  await withSerialId(db, db.schema.createTable('app_password'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('app_password_user_idx').on('app_password').column('user_id').execute();

  await withSerialId(db, db.schema.createTable('post')).addColumn('type', 'text', (c) => c.notNull()).execute();

  await db.schema
    .createTable('image')
    .addColumn('id', 'integer', (c) => c.primaryKey().references('post.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull().unique())
    .addColumn('extension', 'text', (c) => c.notNull())
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .execute();

  const venue = text(withPostColumns(db.schema.createTable('venue')),
    'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince');
  await flags(venue, 'show_map', 'show_map_link').execute();

  await text(withPostColumns(db.schema.createTable('organizer')), 'phone', 'website', 'email').execute();

  for (const table of ['venue', 'organizer']) {
    await db.schema.createIndex(`${table}_slug_idx`).on(table).column('slug').unique().execute();
    await db.schema.createIndex(`${table}_status_date_idx`).on(table).columns(['status', 'date_utc', 'id']).execute();
    await db.schema.createIndex(`${table}_title_idx`).on(table).expression(sql`lower(title)`).execute();
  }

  await withSerialId(db, db.schema.createTable('term'))
    .addColumn('taxonomy', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('term_taxonomy_slug_idx').on('term').columns(['taxonomy', 'slug']).unique().execute();
  await db.schema.createIndex('term_taxonomy_name_idx').on('term').columns(['taxonomy', 'parent_id']).execute();

  const eventBase = withPostColumns(db.schema.createTable('event'))
    .addColumn('password', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0));
  const event = text(eventBase, 'timezone', 'timezone_abbr', 'start_local', 'end_local', 'start_utc', 'end_utc')
    .addColumn('cost', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('website', 'text')
    .addColumn('venue_id', 'integer', (c) => c.references('venue.id').onDelete('set null'));
  await flags(event, 'all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured').execute();
  await db.schema.createIndex('event_slug_idx').on('event').column('slug').unique().execute();
  await db.schema.createIndex('event_start_utc_idx').on('event').columns(['start_utc', 'id']).execute();
  await db.schema.createIndex('event_start_local_idx').on('event').columns(['start_local', 'id']).execute();
  await db.schema.createIndex('event_venue_idx').on('event').column('venue_id').execute();
  await db.schema.createIndex('event_parent_idx').on('event').column('parent_id').execute();

  await db.schema
    .createTable('event_term')
    .addColumn('event_id', 'integer', (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('term_id', 'integer', (c) => c.notNull().references('term.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('event_term_pk', ['event_id', 'term_id'])
    .execute();
  await db.schema.createIndex('event_term_term_idx').on('event_term').columns(['term_id', 'event_id']).execute();

  await db.schema
    .createTable('event_organizer')
    .addColumn('event_id', 'integer', (c) => c.notNull().references('event.id').onDelete('cascade'))
    .addColumn('organizer_id', 'integer', (c) => c.notNull().references('organizer.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_organizer_pk', ['event_id', 'organizer_id'])
    .execute();
  await db.schema
    .createIndex('event_organizer_organizer_idx')
    .on('event_organizer')
    .columns(['organizer_id', 'event_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['event_organizer', 'event_term', 'event', 'term', 'organizer', 'venue', 'image', 'post',
    'app_password', 'user']) {
    await db.schema.dropTable(table).execute();
  }
}
