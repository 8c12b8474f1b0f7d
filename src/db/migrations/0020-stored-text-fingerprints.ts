import { type Kysely, PostgresAdapter } from 'kysely';

// A service starting looks for the events with no stored text of its fingerprint (events/stored-texts.ts), a
// range of ids at a time. It did so by joining each event's row to its text's: at 1M events, that read the
// whole file (6 GB) at every start. With these indexes, which events of a range there are and which of them
// have a text are read from indexes alone, a few bytes an event. Ids, not rows: on SQLite an event's id is its
// row's key, so only an index of its own holds the ids without the rows (PostgreSQL's primary key is one).
// In id order, the texts of a file that has none are stored as they were (in the start index's order, each
// page of ids spread over the whole table, storing 100k took 19.8 s instead of 13.0).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('event_text_fingerprint_idx').on('event_text').columns(['fingerprint', 'event_id']).execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) await db.schema.createIndex('event_id_idx').on('event').column('id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) await db.schema.dropIndex('event_id_idx').execute();
  await db.schema.dropIndex('event_text_fingerprint_idx').execute();
}
