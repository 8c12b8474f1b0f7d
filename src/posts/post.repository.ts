import type { ListOrder } from './list-order.ts';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database, Db, Dialect } from '../db/database.ts';
import { idTable } from '../db/id-table.ts';
import { containsIgnoringCase, slugFamily } from '../db/text-match.ts';
import { precompiled, precompiledByShape, precompiledList, precompiledValues } from '../db/precompiled.ts';
import { distanceSql, type GeoFilter, geoCondition } from '../geo/geo.ts';

export type PostTableName = 'venue' | 'organizer';
export type PostRow<T extends PostTableName> = Database[T];

export interface PostListFilter {
  statuses: string[] | 'any';
  /** Fragments that must all occur in at least one of `searchColumns` (the reference's venue search). */
  search?: { fragments: string[]; columns: string[] };
  /** Only records linked to this event. */
  eventId?: number;
  /** true: linked from an event that is not a draft, pending or trashed; false: linked from none. */
  hasEvents?: boolean;
  /** Linked to an event starting at or after this UTC time, with one of these statuses. */
  upcoming?: { fromUtc: string; statuses: string[] | 'any' };
  /** Modified after / before these UTC times (`YYYY-MM-DD HH:MM:SS`). */
  modifiedAfter?: string;
  modifiedBefore?: string;
  /** By the venue's coordinates (venues only). */
  geo?: GeoFilter;
}


/** A list's record: its id, and a venue's coordinates. */
export interface ListedId {
  id: number;
  geo_lat?: number | null;
  geo_lng?: number | null;
}

/** Queries of one post-like table (venues, organizers). The only place that knows their SQL. */
export function createPostRepository<T extends PostTableName>(db: Db, dialect: Dialect, table: T) {
  // Kysely cannot type a query over a union of table names; rows are typed by the caller's table.
  const d = db as unknown as Kysely<any>;
  const name: string = table;
  type Row = PostRow<T>;

  /** The events linked to the outer row: by `event.venue_id`, or through `event_organizer`. */
  const linkedEvents = (eb: any) =>
    table === 'venue'
      ? eb.selectFrom('event').select('event.id').whereRef('event.venue_id', '=', 'venue.id')
      : eb
          .selectFrom('event_organizer')
          .innerJoin('event', 'event.id', 'event_organizer.event_id')
          .select('event.id')
          .whereRef('event_organizer.organizer_id', '=', 'organizer.id');
  const statusIn = (eb: any, column: string, statuses: string[] | 'any') =>
    statuses === 'any' ? eb(column, '!=', 'trash') : eb(column, 'in', statuses);

  function where(filter: PostListFilter) {
    return (eb: any): Expression<SqlBool> => {
      const clauses: Expression<SqlBool>[] = [statusIn(eb, `${name}.status`, filter.statuses)];
      if (filter.eventId !== undefined) clauses.push(eb.exists(linkedEvents(eb).where('event.id', '=', filter.eventId)));
      if (filter.hasEvents !== undefined) {
        const live = eb.exists(linkedEvents(eb).where('event.status', 'not in', ['draft', 'pending', 'trash']));
        clauses.push(filter.hasEvents ? live : eb.not(live));
      }
      if (filter.upcoming) {
        const { fromUtc, statuses } = filter.upcoming;
        const upcoming = linkedEvents(eb).where('event.start_utc', '>=', fromUtc);
        clauses.push(eb.exists(upcoming.where((e: any) => statusIn(e, 'event.status', statuses))));
      }
      if (filter.modifiedAfter !== undefined) clauses.push(eb(`${name}.modified_utc`, '>', filter.modifiedAfter));
      if (filter.modifiedBefore !== undefined) clauses.push(eb(`${name}.modified_utc`, '<', filter.modifiedBefore));
      if (filter.geo && table === 'venue') clauses.push(geoCondition(eb, filter.geo, 'venue.geo_lat', 'venue.geo_lng', dialect));
      if (filter.search) {
        const { fragments, columns } = filter.search;
        clauses.push(
          eb.or(
            columns.map((column) =>
              eb.and(fragments.map((fragment) => containsIgnoringCase(column, fragment))),
            ),
          ),
        );
      }
      return eb.and(clauses);
    };
  }

  const byIds = precompiledList(d, (ids) => d.selectFrom(name).selectAll().where('id', 'in', ids), `posts:${name}:by-ids`);
  const byId = precompiled<Row>(d, () => d.selectFrom(name).selectAll().where('id', '=', 0));
  // An event's write checks the venue and organizers it names: their status alone, not their ~25 columns
  // (~2 µs against ~10 a record in the driver, on the bench's 100k database).
  const statusById = precompiled<{ status: string }>(d, () => d.selectFrom(name).select('status').where('id', '=', 0), `posts:${name}:status`);
  // On SQLite two ids or more are a table of values (db/id-table.ts), each joined by key: an event's two
  // organizers 22.9 -> 8.3 us in the service (one id alone is planned as `id = ?` either way).
  const statusByIds = precompiledList<{ id: number; status: string }>(d, (ids) => (dialect === 'sqlite' && ids.length > 1
    ? d.selectFrom(idTable(ids).as('ids')).crossJoin(`${name} as p`).select(['p.id', 'p.status']).whereRef('p.id', '=', 'ids.column1')
    : d.selectFrom(name).select(['id', 'status']).where('id', 'in', ids)), `posts:${name}:statuses`);
  const withValues = precompiledValues(d, `posts:${name}`);

  /** A column, or for `distance` the venue's distance from the filter's centre. */
  const orderOf = (order: ListOrder, filter: PostListFilter) => {
    if (order.column !== 'distance') return order.column;
    const centre = filter.geo?.circle?.centre;
    if (!centre || table !== 'venue') throw new Error('a distance order needs a venue list with a centre (checked by listOrder)');
    return distanceSql(centre, 'venue.geo_lat', 'venue.geo_lng', dialect);
  };

  // A list's page and its count, compiled once per shape (see precompiled.ts): built anew for each filter they
  // cost as much as their statements. The page reads ids alone (and a venue's coordinates, for its distance):
  // the records are kept as text (linked-post.service.ts), and ten rows read whole cost ten times what their
  // ids do (~33 against ~3 µs).
  const page = precompiledByShape<{ filter: PostListFilter; order: ListOrder; limit: number; offset: number }, ListedId>(d, ({ filter, order, limit, offset }) =>
    d.selectFrom(name).select(table === 'venue' ? ['id', 'geo_lat', 'geo_lng'] : ['id']).where(where(filter))
      .orderBy(orderOf(order, filter), order.direction)
      .orderBy('id', order.direction)
      .limit(limit)
      .offset(offset));
  const counted = precompiledByShape(d, (filter: PostListFilter) => d.selectFrom(name).select(sql<number>`count(*)`.as('n')).where(where(filter)));

  return {
    findById: async (id: number): Promise<Row | undefined> => (await byId(id))[0],

    /** The record's status, or undefined when there is no such record. */
    statusOf: async (id: number): Promise<string | undefined> => (await statusById(id))[0]?.status,

    /** The statuses of those of `ids` that are records, by id (an event's organizers, in one statement). */
    statusesOf: async (ids: number[]): Promise<Map<number, string>> => new Map((await statusByIds(ids)).map((row) => [Number(row.id), row.status])),

    /** The row, locked until the transaction ends (SQLite transactions write one at a time): a checked write's read. */
    findForUpdate: (id: number) => {
      const query = d.selectFrom(name).selectAll().where('id', '=', id);
      return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst() as Promise<Row | undefined>;
    },

    findBySlug: (slug: string) =>
      d.selectFrom(name).selectAll().where('slug', '=', slug).executeTakeFirst() as Promise<Row | undefined>,

    findByIds: byIds as (ids: number[]) => Promise<Row[]>,

    /** A live record with this name (any case), and this description when one is given: the duplicate check. */
    findDuplicate: async (title: string, description?: string): Promise<Row | undefined> => {
      const values = [title.toLowerCase(), 'trash', ...(description === undefined ? [] : [description.toLowerCase()])];
      // An event's write that names its venue or organizer asks this: compiled once per shape (see precompiledValues).
      const { rows } = await withValues<Row>(description === undefined ? 'title' : 'title+description', values, () => {
        const query = d.selectFrom(table).selectAll().where(sql`lower(title)`, '=', values[0]).where('status', '!=', 'trash');
        return (description === undefined ? query : query.where(sql`lower(description)`, '=', values[2])).orderBy('id');
      });
      return rows[0];
    },

    async slugsStartingWith(base: string): Promise<Set<string>> {
      const rows: { slug: string }[] = await d
        .selectFrom(name)
        .select('slug')
        .where(slugFamily(dialect, base))
        .execute();
      return new Set(rows.map((r) => r.slug));
    },

    async insert(values: Omit<Row, 'id'>): Promise<number> {
      const { id } = await db.insertInto('post').values({ type: table }).returning('id').executeTakeFirstOrThrow();
      await d.insertInto(name).values(Object.assign({}, values, { id })).execute();
      return id;
    },

    update: async (id: number, values: Partial<Row>): Promise<void> => {
      if (Object.keys(values).length > 0) await d.updateTable(name).set(values).where('id', '=', id).execute();
    },

    /** Permanent delete; links from events go with it (foreign keys cascade or set null). */
    remove: async (id: number): Promise<void> => {
      await db.deleteFrom('post').where('id', '=', id).execute();
    },

    /** Trashing a venue or organizer unlinks it (only it) from its events, as the reference does. */
    unlinkFromEvents: async (id: number): Promise<void> => {
      if (table === 'venue') await db.updateTable('event').set({ venue_id: null }).where('venue_id', '=', id).execute();
      else await db.deleteFrom('event_organizer').where('organizer_id', '=', id).execute();
    },

    /** Newest first unless asked otherwise, as WordPress lists posts; id breaks ties so pages never overlap. */
    listIds: (filter: PostListFilter, limit: number, offset: number, order: ListOrder = { column: 'date_utc', direction: 'desc' }) =>
      page({ filter, order, limit, offset }),

    count: async (filter: PostListFilter): Promise<number> => Number((await counted(filter))[0].n),
  };
}

export type PostRepository<T extends PostTableName> = ReturnType<typeof createPostRepository<T>>;
