import type { Kysely } from 'kysely';

// Imports from another calendar (`cal-events import`): each record brought in is remembered by the source's
// key (a TEC global_id, or an iCalendar UID) so a re-run updates instead of duplicating, and so the record's
// global_id_lineage can name where it came from. `source_modified` lets a re-run skip what did not change.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_lineage')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('local_id', 'integer', (c) => c.notNull())
    .addColumn('source_modified', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('import_lineage_pk', ['kind', 'source_key'])
    .execute();
  await db.schema.createIndex('import_lineage_local').on('import_lineage').columns(['kind', 'local_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_lineage').execute();
}
