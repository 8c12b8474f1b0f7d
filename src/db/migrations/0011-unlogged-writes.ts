import type { Kysely } from 'kysely';

// Caches are dropped per record from the change log (issue 11), which only explains the writes that noted
// what they changed. `unlogged_version` is the data version of the last write that noted nothing: a reader
// that has not yet seen that version cannot tell what changed, and drops everything it holds.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_version').addColumn('unlogged_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('data_version').dropColumn('unlogged_version').execute();
}
