import type { Kysely } from 'kysely';

// Recurring events (issue 12). A series is an event whose `recurrence` holds its rules (JSON); each of its
// occurrences is an event of its own whose parent_id is the series, as the reference's Pro add-on stores
// them. `original_start` is the wall-clock start the rules gave an occurrence (RFC 5545's RECURRENCE-ID): it
// keeps the occurrence's id when the series is edited, and stays when the occurrence itself is moved.
// `override` marks an occurrence edited on its own, which edits of the series leave alone.
// `recurrence_next` is the first wall-clock start a series' rules give beyond its materialized occurrences
// (NULL when they give no more): the horizon moves on for the series whose next start comes within it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event').addColumn('recurrence', 'text').execute();
  await db.schema.alterTable('event').addColumn('original_start', 'text').execute();
  await db.schema.alterTable('event').addColumn('override', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('event').addColumn('recurrence_next', 'text').execute();
  // A series' occurrences in order (hide_subsequent_recurrences looks for an earlier one), in place of the
  // parent_id-only index.
  await db.schema.createIndex('event_series_idx').on('event').columns(['parent_id', 'start_local', 'start_utc']).execute();
  await db.schema.dropIndex('event_parent_idx').execute();
  await db.schema.createIndex('event_recurrence_next_idx').on('event').column('recurrence_next').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('event_recurrence_next_idx').execute();
  await db.schema.createIndex('event_parent_idx').on('event').column('parent_id').execute();
  await db.schema.dropIndex('event_series_idx').execute();
  for (const column of ['recurrence_next', 'override', 'original_start', 'recurrence']) {
    await db.schema.alterTable('event').dropColumn(column).execute();
  }
}
