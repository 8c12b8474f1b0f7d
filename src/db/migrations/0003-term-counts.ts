import { type Kysely, sql } from 'kysely';

// WordPress keeps each term's count of published posts on the term; counting links on every read walks
// thousands of rows per term at calendar sizes. Kept up to date by every event write (see the event
// service); filled here from the links that exist.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('term').addColumn('count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update term set count = (
    select count(*) from event_term join event on event.id = event_term.event_id
    where event_term.term_id = term.id and event.status = 'publish')`.execute(db);
  await db.schema.createIndex('term_taxonomy_count_idx').on('term').columns(['taxonomy', 'count']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('term_taxonomy_count_idx').execute();
  await db.schema.alterTable('term').dropColumn('count').execute();
}
