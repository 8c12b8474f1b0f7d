import type { Kysely } from 'kysely';

// The digest of a stored own text (events/stored-texts.ts), which an event's entity tag is composed from
// (events/event-json.ts `composedTag`): taken once when the text is stored, not at every read that serves it
// (~3 kB digested a cold read). Texts stored before have none: theirs is taken when they are read.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event_text').addColumn('digest', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event_text').dropColumn('digest').execute();
}
