import type { Kysely } from 'kysely';

// Events at given venues (`venue=…`, a geolocation circle or box) within a date window: the index on
// venue_id alone made every candidate event's row be read, description and all, for its status and dates.
// This one holds what the filter and the order compare, in both time columns, and serves the foreign key's
// lookups too, so the venue_id-only index goes.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('event_venue_window_idx').on('event')
    .columns(['venue_id', 'status', 'hide_from_listings', 'start_local', 'end_local', 'start_utc', 'end_utc']).execute();
  await db.schema.dropIndex('event_venue_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('event_venue_idx').on('event').column('venue_id').execute();
  await db.schema.dropIndex('event_venue_window_idx').execute();
}
