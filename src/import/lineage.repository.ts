import type { Db } from '../db/database.ts';

/**
 * Which local record each imported source record became (migration 0008). A repository like the others, so
 * an import writes a record and its lineage in one transaction: a crash between the two cannot leave a record
 * the next run would not recognise and create again.
 */
export function createLineageRepository(db: Db) {
  return {
    /** The lineage rows of these source keys, by key (one query for a page of records). */
    async findMany(kind: string, sourceKeys: string[]) {
      if (sourceKeys.length === 0) return new Map<string, { local_id: number; source_modified: string }>();
      const rows = await db.selectFrom('import_lineage').select(['source_key', 'local_id', 'source_modified'])
        .where('kind', '=', kind).where('source_key', 'in', [...new Set(sourceKeys)]).execute();
      return new Map(rows.map((row) => [row.source_key, row]));
    },

    /**
     * Remembers what new source keys became. A key another writer (a second import at the same time) has
     * just remembered is a conflict, not an overwrite: the transaction fails, and its records with it.
     */
    async add(kind: string, entries: Array<{ sourceKey: string; localId: number; sourceModified: string }>) {
      if (entries.length === 0) return;
      await db.insertInto('import_lineage')
        .values(entries.map((e) => ({ kind, source_key: e.sourceKey, local_id: e.localId, source_modified: e.sourceModified })))
        .execute();
    },

    /** Remembers (or moves on) what each source key became: one statement for a page. */
    async save(kind: string, entries: Array<{ sourceKey: string; localId: number; sourceModified: string }>) {
      if (entries.length === 0) return;
      await db.insertInto('import_lineage')
        .values(entries.map((e) => ({ kind, source_key: e.sourceKey, local_id: e.localId, source_modified: e.sourceModified })))
        .onConflict((oc) => oc.columns(['kind', 'source_key']).doUpdateSet((eb) => ({
          local_id: eb.ref('excluded.local_id'),
          source_modified: eb.ref('excluded.source_modified'),
        })))
        .execute();
    },

    /** The source keys local records were imported from: the tail of their global_id_lineage. */
    keysOf: (kind: string, localIds: number[]) =>
      localIds.length === 0
        ? Promise.resolve([])
        : db.selectFrom('import_lineage').select(['local_id', 'source_key']).where('kind', '=', kind).where('local_id', 'in', localIds)
          .orderBy('source_key').execute(),
  };
}

export type LineageRepository = ReturnType<typeof createLineageRepository>;
