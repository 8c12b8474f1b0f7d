import { type Kysely, PostgresAdapter, sql } from 'kysely';

// PostgreSQL serves `slug LIKE 'prefix%'` from a btree only under the C collation or with text_pattern_ops;
// these make finding a free slug an index lookup whatever the database collation (see db/slug-family.ts).
// SQLite compares bytes, so its slug indexes serve the same search as a range already.

const TABLES = ['event', 'venue', 'organizer'];

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const table of TABLES) await sql`create index ${sql.id(`${table}_slug_prefix_idx`)} on ${sql.table(table)} (slug text_pattern_ops)`.execute(db);
  await sql`create index term_slug_prefix_idx on term (taxonomy, slug text_pattern_ops)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const name of [...TABLES.map((t) => `${t}_slug_prefix_idx`), 'term_slug_prefix_idx']) {
    await sql`drop index ${sql.id(name)}`.execute(db);
  }
}
