import type { Kysely } from 'kysely';

// A service starting looks for the events with no stored text of its fingerprint (events/stored-texts.ts),
// every event in turn. It did so by joining each event's row to its text's: at 1M events, that read the whole
// file (6 GB) at every start, and 24-32 s passed before the walk was done. With this index, which texts of a
// fingerprint there are among a few hundred events is read from it alone, a few bytes an event.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('event_text_fingerprint_idx').on('event_text').columns(['fingerprint', 'event_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('event_text_fingerprint_idx').execute();
}
