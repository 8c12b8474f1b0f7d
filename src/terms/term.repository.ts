import { type Expression, type ExpressionBuilder, type Insertable, type Selectable, type SqlBool, sql } from 'kysely';
import type { Database, Db, Dialect, TermTable } from '../db/database.ts';
import type { Taxonomy } from './term.kind.ts';
import { idTable } from '../db/id-table.ts';
import { precompiled, precompiledByShape, precompiledValues } from '../db/precompiled.ts';
import { compareAsSqlite, containsIgnoringCase as likeLower, slugFamily } from '../db/text-match.ts';

export type TermRow = Selectable<TermTable>;
/** A term with WordPress's count: the published events using it. */
export type CountedTermRow = TermRow & { count: number };

export interface TermListFilter {
  taxonomy: Taxonomy;
  /** Case-insensitive substring of the name or the slug. */
  search?: string;
  include?: number[];
  exclude?: number[];
  parent?: number;
  slug?: string;
  eventId?: number;
  hideEmpty: boolean;
}

export interface TermOrder {
  by: 'id' | 'name' | 'slug' | 'count';
  direction: 'asc' | 'desc';
}

type TermEb = ExpressionBuilder<Database, 'term'>;



/** `inTextOrder`: the rows are read in name or slug order (see `hideEmpty` below). */
function where(filter: TermListFilter, inTextOrder = false) {
  return (eb: TermEb): Expression<SqlBool> => {
    const clauses: Expression<SqlBool>[] = [eb('term.taxonomy', '=', filter.taxonomy)];
    if (filter.search !== undefined) clauses.push(eb.or([likeLower('term.name', filter.search), likeLower('term.slug', filter.search)]));
    // WordPress ignores `exclude` when `include` is given.
    if (filter.include?.length) clauses.push(eb('term.id', 'in', filter.include));
    else if (filter.exclude?.length) clauses.push(eb('term.id', 'not in', filter.exclude));
    if (filter.parent !== undefined) clauses.push(eb('term.parent_id', '=', filter.parent));
    if (filter.slug !== undefined) clauses.push(eb('term.slug', '=', filter.slug));
    if (filter.eventId !== undefined) {
      clauses.push(eb('term.id', 'in', eb.selectFrom('event_term').select('term_id').where('event_id', '=', filter.eventId)));
    }
    // Read in name order, a page walks the (taxonomy, lower(name)) index and skips the empty terms. Offered the
    // count index for `count > 0`, SQLite took it and sorted every term of the taxonomy by lower(name), our
    // JavaScript function, called once a term (a page of 10 of the bench's 50 categories: 69 us against 29).
    // A unary plus keeps a condition out of index choices (SQLite's documented way; the same value on PostgreSQL).
    if (filter.hideEmpty) clauses.push(inTextOrder ? eb(sql<number>`+${sql.ref('term.count')}`, '>', 0) : eb('term.count', '>', 0));
    return eb.and(clauses);
  };
}

const counted = (rows: Array<TermRow & { count: number | string | null }>): CountedTermRow[] =>
  rows.map((row) => ({ ...row, count: Number(row.count ?? 0) }));

/** Queries of the `term` table and its links. The only place that knows their SQL. */
export function createTermRepository(db: Db, dialect: Dialect) {
  const selectCounted = () => db.selectFrom('term').selectAll('term');
  // What an event's write asks of terms, compiled once per shape (see precompiledValues); a term by id,
  // a statement of fixed text compiled once (precompiled: 'post_tag' and 0 stand in for each call's taxonomy and id).
  const withValues = precompiledValues(db, 'terms');
  const byId = precompiled(db, () => selectCounted().where('term.taxonomy', '=', 'post_tag').where('term.id', '=', 0), 'terms:by-id');
  // Byte order of the lower-cased text on both dialects, whatever PostgreSQL's database collation is.
  const textOrder = (column: 'term.name' | 'term.slug') =>
    dialect === 'postgres' ? sql`lower(${sql.ref(column)}) collate "C"` : sql`lower(${sql.ref(column)})`;

  // A list's page and its count, built anew for each filter, cost more than their statements: compiled once
  // per shape instead, as event lists are (see precompiled.ts).
  const page = precompiledByShape(db, ({ filter, order, limit, offset }: { filter: TermListFilter; order: TermOrder; limit: number; offset: number }) => {
    let query = selectCounted().where(where(filter, order.by === 'name' || order.by === 'slug'));
    if (order.by === 'name' || order.by === 'slug') query = query.orderBy(textOrder(`term.${order.by}`), order.direction);
    else if (order.by === 'count') query = query.orderBy('count', order.direction);
    // The id breaks ties, so pages never overlap and `desc` is exactly the reverse of `asc`.
    return query.orderBy('term.id', order.direction).limit(limit).offset(offset);
  });
  const counting = precompiledByShape(db, (filter: TermListFilter) => db.selectFrom('term').select((eb) => eb.fn.countAll().as('n')).where(where(filter)));

  return {
    /** Locks the term's row until the transaction ends (SQLite transactions write one at a time): a checked write's read. */
    lock: async (id: number): Promise<void> => {
      if (dialect === 'postgres') await db.selectFrom('term').select('id').where('id', '=', id).forUpdate().execute();
    },

    findById: async (taxonomy: Taxonomy, id: number): Promise<CountedTermRow | undefined> =>
      counted(await byId(taxonomy, id))[0],

    findByIds: async (taxonomy: Taxonomy, ids: number[]): Promise<CountedTermRow[]> =>
      ids.length === 0
        ? []
        : counted(await selectCounted().where('term.taxonomy', '=', taxonomy).where('term.id', 'in', ids).orderBy('term.id').execute()),

    /**
     * Which of `ids` are terms of this taxonomy: an event's write checks its categories (or tags) in one
     * statement. In the order a record embeds them (by lowercased name, then id: as `linksOf` reads them).
     */
    idsOf: async (taxonomy: Taxonomy, ids: number[]): Promise<Set<number>> => {
      if (ids.length === 0) return new Set();
      if (dialect === 'postgres') {
        const { rows } = await withValues(`ids-in:${ids.length}`, [taxonomy, ...ids], () =>
          db.selectFrom('term').select('id').where('taxonomy', '=', taxonomy).where('id', 'in', ids).orderBy(sql`lower(name)`).orderBy('id'));
        return new Set(rows.map((row) => Number(row.id)));
      }
      // On SQLite the ids are a table of values (db/id-table.ts). A select built as such, not raw SQL, which
      // the store's write watch (shown every statement run through withValues) would take for a write. Put
      // in order here: SQLite's sorter, calling lower() for each row, made the statement ~2.5 times as long.
      const { rows } = await withValues(`ids-of:${ids.length}`, [...ids, taxonomy], () =>
        db.selectFrom(idTable(ids).as('ids')).crossJoin('term as t')
          .select(['t.id', 't.name']).whereRef('t.id', '=', 'ids.column1').where('t.taxonomy', '=', taxonomy));
      const keyed = rows.map((row) => ({ id: Number(row.id), key: row.name.toLowerCase() }));
      keyed.sort((a, b) => compareAsSqlite(a.key, b.key) || a.id - b.id);
      return new Set(keyed.map((row) => row.id));
    },

    /** Terms named (any case) or slugged as one of `values`: how an event's `categories`/`tags` input resolves. */
    findByNamesOrSlugs: async (taxonomy: Taxonomy, values: string[]): Promise<CountedTermRow[]> => {
      if (values.length === 0) return [];
      const lowered = values.map((v) => v.toLowerCase());
      // Two lookups, each on its index (migration 0012): joined by OR, the databases scan every term.
      // An event's write asks this for its categories and tags: compiled once per count.
      const [byName, bySlug] = await Promise.all([
        withValues(`name-in:${values.length}`, [taxonomy, ...lowered], () =>
          selectCounted().where('term.taxonomy', '=', taxonomy).where(sql`lower(${sql.ref('term.name')})`, 'in', lowered)),
        withValues(`slug-in:${values.length}`, [taxonomy, ...values], () => selectCounted().where('term.taxonomy', '=', taxonomy).where('term.slug', 'in', values)),
      ]);
      const rows = [...new Map([...byName.rows, ...bySlug.rows].map((row) => [row.id, row])).values()].sort((a, b) => a.id - b.id);
      return counted(rows);
    },

    /** A term of this name (any case) under this parent, other than `exceptId`: the `term_exists` check. */
    findSibling: (taxonomy: Taxonomy, parentId: number, name: string, exceptId?: number): Promise<TermRow | undefined> => {
      let query = db
        .selectFrom('term')
        .selectAll()
        .where('taxonomy', '=', taxonomy)
        .where('parent_id', '=', parentId)
        .where(sql`lower(name)`, '=', name.toLowerCase());
      if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
      return query.orderBy('id').executeTakeFirst();
    },

    async slugsStartingWith(taxonomy: Taxonomy, base: string, exceptId?: number): Promise<Set<string>> {
      let query = db
        .selectFrom('term')
        .select('slug')
        .where('taxonomy', '=', taxonomy)
        .where(slugFamily(dialect, base));
      if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
      return new Set((await query.execute()).map((row) => row.slug));
    },

    /** `id` and every term above it; UNION (not UNION ALL) ends the walk even on a corrupt cycle. */
    lineage: async (id: number): Promise<number[]> => {
      const rows = await db
        .withRecursive('chain(id, parent_id)', (qc) =>
          qc
            .selectFrom('term')
            .select(['term.id', 'term.parent_id'])
            .where('term.id', '=', id)
            .union(qc.selectFrom('term').innerJoin('chain', 'chain.parent_id', 'term.id').select(['term.id', 'term.parent_id'])),
        )
        .selectFrom('chain')
        .select('chain.id')
        .execute();
      return rows.map((row) => row.id);
    },

    list: async (filter: TermListFilter, order: TermOrder, limit: number, offset: number): Promise<CountedTermRow[]> =>
      counted(await page({ filter, order, limit, offset })),

    count: async (filter: TermListFilter): Promise<number> => Number((await counting(filter))[0].n),

    insert: async (values: Insertable<TermTable>): Promise<number> =>
      (await db.insertInto('term').values(values).returning('id').executeTakeFirstOrThrow()).id,

    update: async (id: number, values: Partial<Omit<TermRow, 'id'>>): Promise<void> => {
      if (Object.keys(values).length > 0) await db.updateTable('term').set(values).where('id', '=', id).execute();
    },

    /** Permanent delete: its event links go with it (foreign key cascade) and its children move to the top level. */
    remove: async (id: number): Promise<void> => {
      await db.updateTable('term').set({ parent_id: 0 }).where('parent_id', '=', id).execute();
      await db.deleteFrom('term').where('id', '=', id).execute();
    },

    /** Recounts the published events of these terms from their links: for repairs and bulk loads (the bench seed); event writes move counts by +1/-1 (addToCounts). */
    recount: async (ids: number[]): Promise<void> => {
      if (ids.length === 0) return;
      await db
        .updateTable('term')
        // From the term's links, each event found by its key: joined the other way round, SQLite's planner
        // walks every published event for each term (hundreds of seconds at a million events).
        .set((eb) => ({
          count: eb
            .selectFrom('event_term')
            .whereRef('event_term.term_id', '=', 'term.id')
            .where((e) =>
              e.exists(
                e.selectFrom('event').select('event.id').whereRef('event.id', '=', 'event_term.event_id').where('event.status', '=', 'publish'),
              ),
            )
            .select(sql<number>`count(*)`.as('n')),
        }))
        .where('id', 'in', ids)
        .execute();
    },

    /** Moves counts by these differences, one statement per distinct difference. */
    addToCounts: async (deltas: Map<number, number>): Promise<void> => {
      const byDelta = new Map<number, number[]>();
      for (const [id, delta] of deltas) if (delta !== 0) byDelta.set(delta, [...(byDelta.get(delta) ?? []), id]);
      for (const [delta, ids] of byDelta) {
        await withValues(`count:${ids.length}`, [delta, ...ids], () => db.updateTable('term').set((eb) => ({ count: eb('count', '+', delta) })).where('id', 'in', ids));
      }
    },

    eventExists: async (id: number): Promise<boolean> =>
      (await db.selectFrom('event').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,
  };
}

export type TermRepository = ReturnType<typeof createTermRepository>;
