import { type Kysely, sql } from 'kysely';

// Events name their categories and tags by name as often as by id: finding a term by its name in any case
// scanned every term of the taxonomy (100 µs at a few hundred terms, growing with every tag ever made).

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index term_taxonomy_lower_name_idx on term (taxonomy, lower(name))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index term_taxonomy_lower_name_idx`.execute(db);
}
