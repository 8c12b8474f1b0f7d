import { type Expression, type ExpressionBuilder, type Insertable, type Selectable, type SqlBool, sql } from 'kysely';
import type { Database, Db, Dialect, EventTable, TermTable } from '../db/database.ts';
import { idTable } from '../db/id-table.ts';
import { precompiled, precompiledByShape, precompiledList, precompiledValues } from '../db/precompiled.ts';
import type { ListOrder } from '../posts/list-order.ts';
import { containsIgnoringCase as like, slugFamily, slugFamilyParameters } from '../db/text-match.ts';
import { distanceSql, type GeoFilter, geoCondition } from '../geo/geo.ts';

export type EventRow = Selectable<EventTable>;
/** What a single read checks of an event before serving it: the caller's rights, its password, its stored text's revision. */
export const EVENT_CHECK_COLUMNS = ['id', 'slug', 'status', 'author_id', 'password', 'revision', 'venue_id'] as const satisfies ReadonlyArray<keyof EventRow>;
export type EventCheck = Pick<EventRow, (typeof EVENT_CHECK_COLUMNS)[number]>;
/** What writers set; `sequence` is the repository's own (see `update`). */
export type EventColumns = Omit<EventTable, 'id' | 'sequence' | 'revision'>;

/** Where a walk over the series due is: the last one it read, by its next start (see `seriesDue`). */
export interface SeriesKey {
  next: string;
  id: number;
}

export interface EventLinks {
  categories: number[];
  tags: number[];
  organizers: number[];
  imported: string[];
}

/** Bounds as SQL text: event-local wall-clock strings or UTC strings, matching `column`. */
export interface EventWindow {
  column: 'local' | 'utc';
  startFrom?: string;
  endTo?: string;
  startsBefore?: string;
  startsAfter?: string;
  endsBefore?: string;
  endsAfter?: string;
}

export interface EventListFilter {
  statuses: string[] | 'any';
  window?: EventWindow;
  search?: string;
  /**
   * When set, a search matches password-protected events only if this password unlocks them ('' for none):
   * anonymous searches leave them out, as the reference does, so blanked content cannot be probed.
   */
  searchPassword?: string;
  categoryIds?: number[];
  tagIds?: number[];
  venueIds?: number[];
  organizerIds?: number[];
  featured?: boolean;
  parentId?: number;
  ids?: number[];
  /** Modified after / before these UTC times (`YYYY-MM-DD HH:MM:SS`). */
  modifiedAfter?: string;
  modifiedBefore?: string;
  /** By the coordinates of the event's venue (issue 12). */
  geo?: GeoFilter;
  /** Only the earliest matching event of each recurring series (`hide_subsequent_recurrences`). */
  firstOfSeries?: boolean;
}

/** An event list's order: by start (in the compared column), or any column every post has; id breaks ties. */
export type EventOrder = ListOrder<'start_local' | 'start_utc'>;

type EventEb = ExpressionBuilder<Database, 'event'>;
// Both sides are lowered by the database: SQLite's lower() folds ASCII only, so a pattern lowered in JS
// ('über') could never match what SQLite makes of the column ('Über'), even when the case was right.

function where(filter: EventListFilter, dialect: Dialect, table = 'event', venuesJoined = false) {
  // The same conditions on another name for the table (a correlated subquery's), typed as the event's own.
  const c = <C extends keyof EventTable>(column: C) => `${table}.${column}` as `event.${C}`;
  return (eb: EventEb): Expression<SqlBool> => {
    // Hidden events never appear in lists; trash only when asked for by name.
    const clauses: Expression<SqlBool>[] = [eb(c('hide_from_listings'), '=', 0)];
    clauses.push(filter.statuses === 'any' ? eb(c('status'), '!=', 'trash') : eb(c('status'), 'in', filter.statuses));
    const w = filter.window;
    if (w) {
      const start = w.column === 'local' ? c('start_local') : c('start_utc');
      const end = w.column === 'local' ? c('end_local') : c('end_utc');
      if (w.startFrom !== undefined) clauses.push(eb(start, '>=', w.startFrom));
      if (w.endTo !== undefined) clauses.push(eb(end, '<=', w.endTo));
      // An event starts no later than it ends, so a bound on the end bounds the start, which the window
      // index can use: a week's count otherwise read the index from the week's start to the last event.
      const endBound = w.endTo ?? w.endsBefore;
      const latest = endBound === undefined ? undefined : latestStart(endBound, w.column);
      if (latest !== undefined) clauses.push(eb(start, '<=', latest));
      if (w.startsBefore !== undefined) clauses.push(eb(start, '<', w.startsBefore));
      if (w.startsAfter !== undefined) clauses.push(eb(start, '>', w.startsAfter));
      if (w.endsBefore !== undefined) clauses.push(eb(end, '<', w.endsBefore));
      if (w.endsAfter !== undefined) clauses.push(eb(end, '>', w.endsAfter));
    }
    if (filter.search !== undefined) {
      const text = filter.search;
      clauses.push(eb.or([like(c('title'), text), like(c('search_text'), text)]));
      if (filter.searchPassword !== undefined) clauses.push(eb(c('password'), 'in', [...new Set(['', filter.searchPassword])]));
    }
    for (const ids of [filter.categoryIds, filter.tagIds]) {
      if (ids) clauses.push(eb.exists(eb.selectFrom('event_term').select('event_term.event_id').whereRef('event_term.event_id', '=', c('id')).where('event_term.term_id', 'in', ids)));
    }
    if (filter.venueIds) clauses.push(eb(c('venue_id'), 'in', filter.venueIds));
    if (filter.organizerIds) {
      clauses.push(eb.exists(eb.selectFrom('event_organizer').select('event_organizer.event_id').whereRef('event_organizer.event_id', '=', c('id')).where('event_organizer.organizer_id', 'in', filter.organizerIds)));
    }
    if (filter.featured !== undefined) clauses.push(eb(c('featured'), '=', filter.featured ? 1 : 0));
    if (filter.parentId !== undefined) clauses.push(eb(c('parent_id'), '=', filter.parentId));
    if (filter.ids) clauses.push(eb(c('id'), 'in', filter.ids));
    if (filter.modifiedAfter !== undefined) clauses.push(eb(c('modified_utc'), '>', filter.modifiedAfter));
    if (filter.modifiedBefore !== undefined) clauses.push(eb(c('modified_utc'), '<', filter.modifiedBefore));
    // Ordered by distance, the venues in the circle are joined already (see `listed`).
    if (filter.geo && !venuesJoined) {
      const { geo } = filter;
      const venues = eb.selectFrom('venue').select('venue.id').where((v) => geoCondition(v, geo, 'venue.geo_lat', 'venue.geo_lng', dialect));
      const atVenue = eb(c('venue_id'), 'in', venues);
      clauses.push(geo.located === false ? eb.or([eb(c('venue_id'), 'is', null), atVenue]) : atVenue);
    }
    if (filter.firstOfSeries) clauses.push(firstOfSeries(eb, filter, dialect, c));
    return eb.and(clauses);
  };
}

/**
 * The latest start an event ending by `end` can have: `end` itself in UTC; in local wall-clock time a day
 * later, since a local clock can go back across a DST change (by at most two hours anywhere) while the event's
 * end, as an instant, is never before its start (event-dates.ts). Undefined past the year 9999.
 */
function latestStart(end: string, column: 'local' | 'utc'): string | undefined {
  if (column === 'utc') return end;
  const later = new Date(Date.parse(`${end.replace(' ', 'T')}Z`) + 24 * 3600 * 1000);
  if (Number.isNaN(later.getTime()) || later.getUTCFullYear() > 9999) return undefined;
  return later.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * `hide_subsequent_recurrences`: an event outside a series, or an occurrence no earlier member of its series
 * (the series event itself, or an occurrence) also matches: the same filter, on the same index, per row.
 */
function firstOfSeries(eb: EventEb, filter: EventListFilter, dialect: Dialect, c: <C extends keyof EventTable>(column: C) => `event.${C}`) {
  const alike = where({ ...filter, firstOfSeries: false }, dialect, 'prior');
  const start = filter.window?.column === 'utc' ? 'start_utc' : 'start_local';
  const prior = () => eb.selectFrom('event as prior').select('prior.id').where((p) => alike(p as unknown as EventEb));
  return eb.or([
    eb(c('parent_id'), '=', 0),
    eb.and([
      eb.not(eb.exists(prior().whereRef('prior.id', '=', c('parent_id')))),
      eb.not(eb.exists(prior().whereRef('prior.parent_id', '=', c('parent_id')).where((p) => p.or([
        p(`prior.${start}`, '<', p.ref(c(start))),
        p.and([p(`prior.${start}`, '=', p.ref(c(start))), p('prior.id', '<', p.ref(c('id')))]),
      ])))),
    ]),
  ]);
}

/** `items` in parts of at most `size`: what one statement's parameters can hold. */
function chunks<T>(items: T[], size = 1000): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += size) parts.push(items.slice(i, i + size));
  return parts;
}

/** The only place with the SQL of events and their links. */
export function createEventRepository(db: Db, dialect: Dialect) {
  /**
   * Events matching `filter`, in `order` with id breaking ties. Ordered by distance: by their venue's
   * distance from the filter's centre, then venue, then start (soonest first), then id.
   */
  const listed = (filter: EventListFilter, order: EventOrder) => {
    const base = db.selectFrom('event');
    if (order.column !== 'distance') {
      return base.where(where(filter, dialect)).orderBy(`event.${order.column}` as 'event.id', order.direction).orderBy('event.id', order.direction);
    }
    const { geo } = filter;
    const centre = geo?.circle?.centre;
    if (!geo || !centre) throw new Error('a distance order needs a centre (checked by listOrder)');
    // The venues in the circle, materialized in distance order with each one's distance computed once, then
    // each venue's events in start order: the database sorts one venue's events at a time and stops when the
    // page is full, instead of computing a distance for every event in the circle and sorting them all.
    const dir = order.direction;
    const start = filter.window?.column === 'utc' ? 'event.start_utc' : 'event.start_local';
    const near = db.with((cte) => cte('near').materialized(), (qc) => qc.selectFrom('venue')
      .select(['venue.id', distanceSql(centre, 'venue.geo_lat', 'venue.geo_lng', dialect).as('d')])
      .where((v) => geoCondition(v, geo, 'venue.geo_lat', 'venue.geo_lng', dialect))
      .orderBy('d', dir).orderBy('venue.id', dir));
    return (near.selectFrom('near').innerJoin('event', 'event.venue_id', 'near.id') as unknown as typeof base)
      .where(where(filter, dialect, 'event', true))
      .orderBy(sql.ref('near.d'), dir).orderBy(sql.ref('near.id'), dir).orderBy(start, dir).orderBy('event.id', dir);
  };

  // A list's page and its count are built anew for each filter: compiled once per shape instead (see precompiled.ts).
  const pageIds = precompiledByShape(db, ({ filter, order, limit, offset }: { filter: EventListFilter; order: EventOrder; limit: number; offset: number }) =>
    listed(filter, order).select('event.id').limit(limit).offset(offset));
  const countedAtSeq = precompiledByShape(db, (filter: EventListFilter) => db.selectFrom('event').select([
    sql<number>`count(*)`.as('n'),
    sql<number>`(select max(seq) from change_log)`.as('seq'),
    sql<number>`(select count(*) from change_pending)`.as('pending'),
  ]).where(where(filter, dialect)));
  const counted = precompiledByShape(db, (filter: EventListFilter) => db.selectFrom('event').select(sql<number>`count(*)`.as('n')).where(where(filter, dialect)));
  const byId = precompiled(db, () => db.selectFrom('event').selectAll().where('id', '=', 0), 'events:by-id');
  // Every create asks (built anew it cost ~17 us of Kysely's a create).
  const slugsOfFamily = precompiled(db, () => db.selectFrom('event').select('slug').where(slugFamily(dialect, '')), 'events:slug-family');
  const bySlug = precompiled(db, () => db.selectFrom('event').selectAll().where('slug', '=', ''), 'events:by-slug');
  const byIds = precompiledList(db, (ids) => db.selectFrom('event').selectAll().where('id', 'in', ids), 'events:by-ids');
  const arrivals = precompiledList(db, (ids) =>
    db.selectFrom('event').select(['id', 'status', 'hide_from_listings', 'venue_id', 'start_local', 'start_utc', 'end_local', 'end_utc']).where('id', 'in', ids));
  const termsOf = precompiledList(db, (ids) =>
    db.selectFrom('event_term').innerJoin('term', 'term.id', 'event_term.term_id').selectAll('term').select('event_term.event_id')
      .where('event_term.event_id', 'in', ids).orderBy(sql`lower(term.name)`).orderBy('term.id'));
  // Everything a record text needs of an event besides its row, in one statement (see `linksOf`). On SQLite
  // the ids are a table of values (db/id-table.ts), each joined by key: an IN list in each of the three parts
  // made SQLite build a temporary index for each (measured alone on the bench's 100k database: 10 ids ~175 ->
  // ~95 us, 3 ids ~67 -> ~31 us, one id the same).
  const linksOfIds = precompiledList(db, (ids) => {
    const sqlite = dialect === 'sqlite';
    const from = (table: string, alias: string, key: string) => (sqlite
      ? sql`ids cross join ${sql.table(table)} ${sql.raw(alias)} on ${sql.ref(`${alias}.${key}`)} = ids.id`
      : sql`${sql.table(table)} ${sql.raw(alias)}`);
    const of = (alias: string, key: string) => (sqlite ? sql`1 = 1` : sql`${sql.ref(`${alias}.${key}`)} in (${sql.join(ids)})`);
    return {
      compile: () => sql<{ event_id: number; kind: string; ref: number; k1: string; k2: number }>`
        ${sqlite ? sql`with ids(id) as ${idTable(ids)}` : sql``}
        select et.event_id as event_id, t.taxonomy as kind, t.id as ref, lower(t.name) as k1, t.id as k2
          from ${from('event_term', 'et', 'event_id')} inner join term t on t.id = et.term_id where ${of('et', 'event_id')}
        union all
        select eo.event_id, ${sql.lit('organizer')}, eo.organizer_id, ${sql.lit('')}, eo.position
          from ${from('event_organizer', 'eo', 'event_id')} where ${of('eo', 'event_id')}
        union all
        select l.local_id, ${sql.lit('lineage')}, 0, l.source_key, 0
          from ${from('import_lineage', 'l', 'local_id')} where l.kind = ${sql.lit('event')} and ${of('l', 'local_id')}
        order by 1, 2, 4, 5`.compile(db),
    };
  });
  /**
   * An update's values with the revision moved on (migration 0017: set here, the row is written once; the
   * database moves it for a write that does not), and the SEQUENCE when the event really changed.
   */
  const moved = (eb: ExpressionBuilder<Database, 'event'>, values: Partial<EventColumns>, revise: boolean) =>
    Object.assign({}, values, revise ? { sequence: eb('sequence', '+', 1) } : {}, { revision: eb('revision', '+', 1) });
  // The statements of an event's create, compiled once per shape (see precompiledValues).
  const withValues = precompiledValues(db, 'events');
  // The terms of the events a write changed, read again by every process that learns of it (their counts).
  // A join, each term once per event it is in (termsOfEvents keeps one): as `term.id in (select …)`, SQLite
  // gathered the ids into a temporary table first, 73 us against 44 for the terms of 8 events (2026-11-28).
  // On SQLite the ids are a table of values (db/id-table.ts).
  const termsOfIds = precompiledList(db, (ids) => (dialect === 'sqlite'
    ? db.selectFrom(idTable(ids).as('ids')).crossJoin('event_term as et').innerJoin('term as t', 't.id', 'et.term_id')
      .whereRef('et.event_id', '=', 'ids.column1').selectAll('t')
    : db.selectFrom('event_term').innerJoin('term', 'term.id', 'event_term.term_id').selectAll('term').where('event_term.event_id', 'in', ids)));
  const organizerLinksOf = precompiledList(db, (ids) =>
    db.selectFrom('event_organizer').selectAll().where('event_id', 'in', ids).orderBy('event_id').orderBy('position'));
  return {
    findById: async (id: number): Promise<EventRow | undefined> => (await byId(id))[0],
    findBySlug: async (slug: string): Promise<EventRow | undefined> => (await bySlug(slug))[0],
    exists: async (id: number) => (await db.selectFrom('event').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,

    async slugsStartingWith(base: string): Promise<Set<string>> {
      const rows = await slugsOfFamily(...slugFamilyParameters(dialect, base));
      return new Set(rows.map((r) => r.slug));
    },

    /**
     * One new event (a create), and its row as stored: what the write's answer is built from, with no read
     * after it. On PostgreSQL its post id is made in the same statement (a round trip a create fewer). Compiled
     * once per set of columns given (see precompiledValues).
     */
    async create(values: EventColumns): Promise<EventRow> {
      const columns = Object.keys(values).filter((column) => values[column as keyof EventColumns] !== undefined) as Array<keyof EventColumns>;
      const given = columns.map((column) => values[column]);
      const shape = columns.join(',');
      if (dialect === 'postgres') {
        const { rows } = await withValues<EventRow>(`create:${shape}`, ['event', ...given], () =>
          db.with('made', (d) => d.insertInto('post').values({ type: 'event' }).returning('id'))
            .insertInto('event')
            .values(Object.assign({ id: (eb: ExpressionBuilder<Database, 'event'>) => eb.selectFrom('made' as never).select('id' as never) }, values) as never)
            .returningAll());
        return rows[0];
      }
      const post = (await withValues<{ id: number }>('post:1', ['event'], () => db.insertInto('post').values({ type: 'event' }).returning('id'))).rows[0];
      const { rows } = await withValues<EventRow>(`create:${shape}`, [...given, post.id], () =>
        db.insertInto('event').values(Object.assign({}, values, { id: post.id }) as Insertable<EventTable>).returningAll());
      return rows[0];
    },

    /**
     * Many new events in three statements whatever their number (a bulk import's page): their post ids, then
     * the rows. Ids come back in insertion order (ascending within one statement on both databases).
     */
    async insertMany(rows: EventColumns[]): Promise<number[]> {
      const ids: number[] = [];
      // In parts: a statement's parameters are bounded (SQLite 32766), and an event row takes ~35.
      for (const part of chunks(rows, 500)) {
        const posts = (await withValues(`post:${part.length}`, part.map(() => 'event'), () =>
          db.insertInto('post').values(part.map(() => ({ type: 'event' }))).returning('id'))).rows;
        const partIds = posts.map((p) => p.id).sort((a, b) => a - b);
        const full = part.map((row, i) => Object.assign({}, row, { id: partIds[i] }) as Insertable<EventTable>);
        const insert = () => db.insertInto('event').values(full);
        // One event (a series extended by one occurrence, an import's page of one) compiled once by its columns;
        // a page of many is built, once for its 500. A create has its own statement (`create`).
        if (full.length === 1) {
          const columns = Object.keys(full[0]).filter((column) => full[0][column as keyof typeof full[0]] !== undefined);
          await withValues(`event:${columns.join(',')}`, columns.map((column) => full[0][column as keyof typeof full[0]]), insert);
        } else await insert().execute();
        ids.push(...partIds);
      }
      return ids;
    },

    /** `revise`: the event really changed, so its SEQUENCE moves on (counted in SQL: concurrent updates both count). */
    update: async (id: number, values: Partial<EventColumns>, revise = false) => {
      if (revise || Object.keys(values).length > 0) await db.updateTable('event').set((eb) => moved(eb, values, revise)).where('id', '=', id).execute();
    },

    remove: async (id: number) => {
      await db.deleteFrom('post').where('id', '=', id).execute();
    },

    removeMany: async (ids: number[]) => {
      for (const part of chunks(ids)) await db.deleteFrom('post').where('id', 'in', part).execute();
    },

    /** The same columns set on many events (a series' edit reaching its occurrences); `revise` as in `update`. */
    updateMany: async (ids: number[], values: Partial<EventColumns>, revise: boolean) => {
      for (const part of chunks(ids)) {
        await db.updateTable('event').set((eb) => moved(eb, values, revise)).where('id', 'in', part).execute();
      }
    },

    /** A series' occurrences, every status, in start order. */
    seriesMembers: (seriesId: number): Promise<EventRow[]> =>
      db.selectFrom('event').selectAll().where('parent_id', '=', seriesId).orderBy('start_utc').orderBy('id').execute(),

    /** The occurrence of a series the rules gave this wall-clock start. */
    occurrenceAt: async (seriesId: number, originalStart: string): Promise<number | undefined> =>
      (await db.selectFrom('event').select('id').where('parent_id', '=', seriesId).where('original_start', '=', originalStart).executeTakeFirst())?.id,

    /** The occurrences of these series edited on their own (a feed writes them as exceptions). */
    overridesOf: async (seriesIds: number[]): Promise<EventRow[]> =>
      seriesIds.length === 0 ? [] : db.selectFrom('event').selectAll().where('parent_id', 'in', seriesIds).where('override', '=', 1).orderBy('start_utc').orderBy('id').execute(),

    /**
     * Series whose next start (wall-clock) comes by `through`, past `after` in the order of that start: due
     * for their horizon to move on. In that order, SQLite reads the index's range of due series and no more; in
     * id order it walked every event's row from the first to find them (0.4 s of the process at 1M events).
     */
    seriesDue: async (through: string, after: SeriesKey | undefined, limit: number): Promise<SeriesKey[]> =>
      (await db.selectFrom('event').select(['event.id', 'event.recurrence_next']).where('event.recurrence_next', '<=', through)
        .$if(after !== undefined, (query) => query.where((eb) => eb(eb.refTuple('event.recurrence_next', 'event.id'), '>', eb.tuple((after as SeriesKey).next, (after as SeriesKey).id))))
        .orderBy('event.recurrence_next').orderBy('event.id').limit(limit).execute())
        .map((row) => ({ next: row.recurrence_next as string, id: row.id })),

    /** A split: the occurrences of one series from an original start on become another's. */
    reparent: async (fromSeries: number, toSeries: number, fromStart: string) => {
      await db.updateTable('event').set({ parent_id: toSeries }).where('parent_id', '=', fromSeries).where('original_start', '>=', fromStart).execute();
    },

    /** The terms any of these events is in, each once, as they are now (their counts current). */
    termsOfEvents: async (eventIds: number[]): Promise<Array<Selectable<TermTable>>> => {
      const found = new Map<number, Selectable<TermTable>>();
      for (const part of chunks(eventIds)) {
        for (const row of await termsOfIds(part)) found.set(row.id, row);
      }
      return [...found.values()];
    },

    /** The term ids (ascending) and organizer ids (in order) of many events: a series' occurrences. */
    async linkIdsOf(eventIds: number[]): Promise<{ terms: Map<number, number[]>; organizers: Map<number, number[]> }> {
      const terms = new Map<number, number[]>();
      const organizers = new Map<number, number[]>();
      const add = (map: Map<number, number[]>, key: number, value: number) => map.set(key, [...(map.get(key) ?? []), value]);
      for (const part of chunks(eventIds)) {
        const termRows = await db.selectFrom('event_term').select(['event_id', 'term_id']).where('event_id', 'in', part).orderBy('term_id').execute();
        for (const row of termRows) add(terms, row.event_id, row.term_id);
        const organizerRows = await db.selectFrom('event_organizer').select(['event_id', 'organizer_id']).where('event_id', 'in', part).orderBy('position').execute();
        for (const row of organizerRows) add(organizers, row.event_id, row.organizer_id);
      }
      return { terms, organizers };
    },

    /** Many events' terms and organizers replaced by the same ones (a series' occurrences follow the series). */
    async replaceLinks(eventIds: number[], termIds: number[], organizerIds: number[]) {
      for (const part of chunks(eventIds)) {
        await db.deleteFrom('event_term').where('event_id', 'in', part).execute();
        await db.deleteFrom('event_organizer').where('event_id', 'in', part).execute();
      }
      await this.addLinks(eventIds.map((eventId) => ({ eventId, termIds, organizerIds })));
    },

    async setTerms(eventId: number, taxonomy: string, termIds: number[]) {
      await db.deleteFrom('event_term').where('event_id', '=', eventId)
        .where('term_id', 'in', db.selectFrom('term').select('id').where('taxonomy', '=', taxonomy)).execute();
      if (termIds.length) await db.insertInto('event_term').values(termIds.map((term_id) => ({ event_id: eventId, term_id }))).execute();
    },

    /** Which of these events are in a term (a webhook's category filter). */
    idsInTerm: async (eventIds: number[], termId: number): Promise<number[]> =>
      eventIds.length === 0
        ? []
        : (await db.selectFrom('event_term').select('event_id').where('term_id', '=', termId).where('event_id', 'in', eventIds).execute()).map((r) => r.event_id),

    /** New events' first links, terms of both taxonomies at once: nothing to replace, so nothing deleted first. */
    async addLinks(links: Array<{ eventId: number; termIds: number[]; organizerIds: number[] }>) {
      const terms = links.flatMap((l) => l.termIds.map((term_id) => ({ event_id: l.eventId, term_id })));
      const organizers = links.flatMap((l) => l.organizerIds.map((organizer_id, position) => ({ event_id: l.eventId, organizer_id, position })));
      for (const part of chunks(terms, 5000)) {
        await withValues(`event_term:${part.length}`, part.flatMap((link) => [link.event_id, link.term_id]), () => db.insertInto('event_term').values(part));
      }
      for (const part of chunks(organizers, 5000)) {
        await withValues(`event_organizer:${part.length}`, part.flatMap((link) => [link.event_id, link.organizer_id, link.position]), () =>
          db.insertInto('event_organizer').values(part));
      }
    },

    async setOrganizers(eventId: number, organizerIds: number[]) {
      await db.deleteFrom('event_organizer').where('event_id', '=', eventId).execute();
      if (organizerIds.length) {
        await db.insertInto('event_organizer').values(organizerIds.map((organizer_id, position) => ({ event_id: eventId, organizer_id, position }))).execute();
      }
    },

    /** Ordered by start (in the compared column) then id; `include` lists order by post date then id. */
    list: (filter: EventListFilter, order: EventOrder, limit: number, offset: number) =>
      listed(filter, order).selectAll('event').limit(limit).offset(offset).execute(),

    /**
     * The ids of a list page, in order: the window's index covers them, so no row (and none of the
     * description's overflow pages) is read; the rows themselves are mostly kept in memory (see event-json.ts).
     */
    listIds: async (filter: EventListFilter, order: EventOrder, limit: number, offset: number): Promise<number[]> =>
      (await pageIds({ filter, order, limit, offset })).map((row) => row.id),

    /** What a list filter compares directly, of events by id, in no particular order (event-arrivals.ts). */
    arrivalsOf: (ids: number[]) => arrivals(ids),

    /** Rows by id, in no particular order. */
    findByIds: (ids: number[]): Promise<EventRow[]> => byIds(ids),

    /** What a calendar grid needs of every event in a window, and no more: a month holds thousands. */
    listBriefs: (filter: EventListFilter, order: EventOrder, limit: number) =>
      listed(filter, order)
        .select(['event.id', 'event.slug', 'event.title', 'event.start_local', 'event.end_local', 'event.start_utc', 'event.end_utc', 'event.all_day', 'event.featured'])
        .limit(limit).execute(),

    /**
     * A count and where the change log stood when it was taken, in one statement (one snapshot on both
     * databases): when every committed change was `settled` into the log, the changes after `seq` are exactly
     * those the count has not seen (a pending one will get a later `seq` though the count has seen it).
     */
    countAtSeq: async (filter: EventListFilter): Promise<{ total: number; seq: number; settled: boolean }> => {
      const [row] = await countedAtSeq(filter);
      return { total: Number(row.n), seq: Number(row.seq ?? 0), settled: Number(row.pending) === 0 };
    },

    count: async (filter: EventListFilter) => Number((await counted(filter))[0].n),

    /** The terms of a page of events with their published counts: one query for any page size. */
    termsOf: (eventIds: number[]): Promise<Array<Selectable<TermTable> & { event_id: number; count: number }>> => termsOf(eventIds),

    /** The stored status, the row locked until the transaction ends (SQLite transactions write one at a time). */
    lockStatus: async (id: number): Promise<string | undefined> => {
      const query = db.selectFrom('event').select('status').where('id', '=', id);
      return (await (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst())?.status;
    },

    termIdsOf: async (eventId: number) =>
      (await db.selectFrom('event_term').select('term_id').where('event_id', '=', eventId).execute()).map((r) => r.term_id),

    organizerLinksOf: (eventIds: number[]) => organizerLinksOf(eventIds),

    /**
     * What a record embeds by reference, per event: its categories and tags (ordered by name, as embedded),
     * its organizers (in order) and the source keys it was imported from. One statement for any page.
     */
    async linksOf(eventIds: number[]): Promise<Map<number, EventLinks>> {
      const links = new Map<number, EventLinks>(eventIds.map((id) => [id, { categories: [], tags: [], organizers: [], imported: [] }]));
      // Each id once: on SQLite an id given twice would join its links twice.
      for (const row of await linksOfIds([...links.keys()])) {
        const of = links.get(Number(row.event_id));
        if (!of) continue;
        if (row.kind === 'tribe_events_cat') of.categories.push(Number(row.ref));
        else if (row.kind === 'post_tag') of.tags.push(Number(row.ref));
        else if (row.kind === 'organizer') of.organizers.push(Number(row.ref));
        else of.imported.push(row.k1);
      }
      return links;
    },

  };
}

export type EventRepository = ReturnType<typeof createEventRepository>;
