import type { Db } from '../db/database.ts';

/** Which local record each imported source record became (migration 0008). */
export function createLineage(db: Db) {
  return {
    find: (kind: string, sourceKey: string) =>
      db.selectFrom('import_lineage').selectAll().where('kind', '=', kind).where('source_key', '=', sourceKey).executeTakeFirst(),
    async save(kind: string, sourceKey: string, localId: number, sourceModified: string) {
      const updated = await db.updateTable('import_lineage').set({ local_id: localId, source_modified: sourceModified })
        .where('kind', '=', kind).where('source_key', '=', sourceKey).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        await db.insertInto('import_lineage').values({ kind, source_key: sourceKey, local_id: localId, source_modified: sourceModified }).execute();
      }
    },
    /** The source keys a local record was imported from: the tail of its global_id_lineage. */
    async keysOf(kind: string, localId: number) {
      const rows = await db.selectFrom('import_lineage').select('source_key').where('kind', '=', kind).where('local_id', '=', localId).execute();
      return rows.map((row) => row.source_key);
    },
  };
}

export type Lineage = ReturnType<typeof createLineage>;
