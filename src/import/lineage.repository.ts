import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { precompiledList } from '../db/precompiled.ts';

/** Where each kind's local records are: a lineage row whose record is gone from there is stale. */
const TABLES: Record<string, string> = { event: 'event', venue: 'venue', organizer: 'organizer', category: 'term', tag: 'term' };
/** Whether a lineage row's local record is still here (deleted since, by hand or through the API, it is not). */
function recordHere(kind: string) {
  const table = TABLES[kind];
  if (!table) throw new Error(`no lineage for records of kind ${kind}`);
  return sql<boolean>`exists (select 1 from ${sql.table(table)} r where r.id = import_lineage.local_id)`;
}

/**
 * Which local record each imported source record became (migration 0008). A repository like the others, so
 * an import writes a record and its lineage in one transaction: a crash between the two cannot leave a record
 * the next run would not recognise and create again.
 */
export function createLineageRepository(db: Db) {
  // One kind's keys, compiled once per list length: a single event read asks for its own only (its venue and
  // organizers are mostly kept), and building the query of several kinds cost more than running it.
  const keysOfKind = new Map<string, ReturnType<typeof precompiledList<{ local_id: number; source_key: string }>>>();
  const ofKind = (kind: string) => {
    let query = keysOfKind.get(kind);
    if (!query) {
      query = precompiledList(db, (ids) => db.selectFrom('import_lineage').select(['local_id', 'source_key'])
        .where('kind', '=', kind).where('local_id', 'in', ids).orderBy('source_key'));
      keysOfKind.set(kind, query);
    }
    return query;
  };
  return {
    /**
     * The lineage rows of these source keys whose local records are still here, by key (one query for a page
     * of records). A record deleted here since is as if never imported: the next import brings it again.
     */
    async findMany(kind: string, sourceKeys: string[]) {
      if (sourceKeys.length === 0) return new Map<string, { local_id: number; source_modified: string }>();
      const rows = await db.selectFrom('import_lineage').select(['source_key', 'local_id', 'source_modified'])
        .where('kind', '=', kind).where('source_key', 'in', [...new Set(sourceKeys)]).where(recordHere(kind)).execute();
      return new Map(rows.map((row) => [row.source_key, row]));
    },

    /**
     * Remembers what new source keys became. A key another writer (a second import at the same time) has
     * just remembered is a conflict, not an overwrite: the transaction fails, and its records with it.
     */
    async add(kind: string, entries: Array<{ sourceKey: string; localId: number; sourceModified: string }>) {
      if (entries.length === 0) return;
      // The rows of records deleted here since go first; a live row of the same key still conflicts.
      await db.deleteFrom('import_lineage').where('kind', '=', kind).where('source_key', 'in', entries.map((e) => e.sourceKey))
        .where(sql<boolean>`not ${recordHere(kind)}`).execute();
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

    /**
     * The source keys local records were imported from (the tail of their global_id_lineage), for records
     * of several kinds in one query: an event page asks for its events', venues' and organizers' at once.
     */
    async keysOf(idsByKind: Record<string, number[]>): Promise<ImportedKeys> {
      const wanted = Object.entries(idsByKind).filter(([, ids]) => ids.length > 0);
      const keys: ImportedKeys = new Map();
      if (wanted.length === 0) return keys;
      if (wanted.length === 1) {
        const [kind, ids] = wanted[0];
        for (const row of await ofKind(kind)(ids)) keys.set(`${kind}:${row.local_id}`, [...(keys.get(`${kind}:${row.local_id}`) ?? []), row.source_key]);
        return keys;
      }
      const rows = await db.selectFrom('import_lineage').select(['kind', 'local_id', 'source_key'])
        .where((eb) => eb.or(wanted.map(([kind, ids]) => eb.and([eb('kind', '=', kind), eb('local_id', 'in', ids)]))))
        .orderBy('source_key').execute();
      for (const row of rows) {
        const key = `${row.kind}:${row.local_id}`;
        keys.set(key, [...(keys.get(key) ?? []), row.source_key]);
      }
      return keys;
    },
  };
}

export type LineageRepository = ReturnType<typeof createLineageRepository>;

/** Source keys by `kind:id`. */
export type ImportedKeys = Map<string, string[]>;
