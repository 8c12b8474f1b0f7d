import type { Kysely } from 'kysely';

// iCalendar feeds: each event's SEQUENCE (RFC 5545 §3.8.7.4) grows with every update that changes it, so
// calendar apps tell an update from a duplicate; and the time of the last committed write, which a feed's
// Last-Modified must follow (a trashed or deleted event leaves no row of its own to date it).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event').addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('data_version').addColumn('changed_utc', 'text', (c) => c.notNull().defaultTo('')).execute();
  // Data already there changed at some unknown time before now: now is the safe answer.
  const now = new Date().toISOString().replace('T', ' ').slice(0, 23);
  await db.updateTable('data_version').set({ changed_utc: now }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_version').dropColumn('changed_utc').execute();
  await db.schema.alterTable('event').dropColumn('sequence').execute();
}
