import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import { statusChange } from '../changes/change.repository.ts';
import type { Config } from '../config.ts';
import type { ChangeWatch } from '../changes/change-watch.ts';
import { distanceKm, type Point, roundKm } from '../geo/geo.ts';
import type { Repositories, Store } from '../store.ts';
import { forbidden, gone, invalidParam, notAccessible, notFound } from '../errors.ts';
import { ifMatches, preconditionFailed } from '../http/conditional.ts';
import { listPage, pageRequest } from '../http/pagination.ts';
import type { Urls } from '../http/urls.ts';
import type { LinkedPostService } from '../linked-posts/linked-post.service.ts';
import type { RecordRef } from '../linked-posts/linked-post.service.ts';
import { deleteOccurrences, isOccurrence, lockForWrite, materialize, type SeriesContext, setException } from '../recurrence/series.ts';
import { split } from '../recurrence/series-split.ts';
import { nowStamp, writeStamp } from '../time/clock.ts';
import { type Caller, canCreate, canDelete, canEdit, canEditOthers, canRead } from '../users/roles.ts';
import { type EventInput, type EventWrite, eventWrite } from './event-input.ts';
import { countedTerms, linksChanged, moveTermCounts, saveLinks } from './event-links-write.ts';
import { type EventListQuery, eventListFilter } from './event-list.ts';
import { createFilterRefs } from './filter-refs.ts';
import { createEventJson } from './event-json.ts';
import { createStoredTexts } from './stored-texts.ts';
import { createEventTotals } from './event-totals.ts';
import { createEventPages } from './event-pages.ts';
import { createArrivals } from './event-arrivals.ts';
import { createFeedEntries, type FeedEntry } from './event-feed.ts';
import { type EventRecord, toEventRecords } from './event.record.ts';
import type { EventCheck, EventColumns, EventLinks, EventRow } from './event.repository.ts';
import type { Taxonomy } from '../terms/term.kind.ts';

export interface EventReadOptions {
  password?: string;
  context?: 'view' | 'edit';
  /** What a browser keeps after the password form (see passwordProof), instead of the password itself. */
  passwordProof?: string;
}

/** Proves the password of one event without holding it: a page's cookie carries this, never the password. */
export const passwordProof = (eventId: number, password: string) =>
  createHash('sha256').update(`${eventId}\0${password}`).digest('base64url');

/** A write's event: its id, and its row and links as stored when the write had them whole (a create's). */
interface Written {
  id: number;
  row?: EventRow;
  links?: EventLinks;
}

export function createEventService(deps: {
  store: Store;
  urls: Urls;
  config: Config;
  venues: LinkedPostService<'venue'>;
  organizers: LinkedPostService<'organizer'>;
  /** This process's one watch of what changed (changes/change-watch.ts), which the venues and organizers share. */
  watch: ChangeWatch;
  /** Told when stored texts could not be written (they are a cache: the reads go on). */
  failed?: (error: unknown) => void;
}) {
  const { store, urls, config, venues, organizers, watch } = deps;
  const arrivals = createArrivals(watch, () => store.repos.events);
  const totalOf = createEventTotals(watch, () => store.repos.events, arrivals);
  const pageRows = createEventPages(watch, () => store.repos.events, arrivals);
  const resolve = createFilterRefs(watch);
  const stored = createStoredTexts({ repos: store.repos, urls, config, failed: deps.failed });
  const kept = createEventJson(watch, stored);
  const recordDeps = (repos: Repositories) => ({ repos, urls, config, venues, organizers });

  const notFoundError = (ref: RecordRef) =>
    notFound('rest-event-not-found', 'id' in ref ? `Event with ID ${ref.id} does not exist.` : `Event with slug "${ref.slug}" does not exist.`);

  async function load(ref: RecordRef): Promise<EventRow> {
    const row = 'id' in ref ? await store.repos.events.findById(ref.id) : await store.repos.events.findBySlug(ref.slug.toLowerCase());
    if (!row) throw notFoundError(ref);
    return row;
  }

  /**
   * What changed is learnt (changes/change-watch.ts), then the generation that what is read next is kept
   * under. While nothing changed, a read costs one tiny query (the data version).
   */
  const caughtUp = async (): Promise<number> => {
    await watch.sync();
    return watch.generation();
  };

  /**
   * A write's answer: the event's record (list form, whole) as JSON text, put together as a read's is, from
   * the venue, organizer and term texts kept for reads rather than from five, and from the links a create
   * wrote (an update's are read: one query).
   */
  async function answer({ id, row, links }: Written): Promise<string> {
    const from = await caughtUp();
    const stored = { read: false, offer: false, links: links && new Map([[id, links]]) };
    return (await kept.texts([row ?? (await load({ id }))], recordDeps(store.repos), { unlocked: () => true, from, stored }))[0];
  }

  /** Editors reading with context=edit, or the right password, see a protected event whole. */
  const unlockedFor = (caller: Caller | null, options: EventReadOptions) => (row: EventCheck) =>
    (options.password !== undefined && options.password === row.password) ||
    (options.passwordProof !== undefined && options.passwordProof === passwordProof(row.id, row.password)) ||
    (options.context === 'edit' && canEdit(caller, row));

  /**
   * A write that changes nothing stored writes nothing, so `modified` stays (a GET body sent back, API.md
   * §5.2); a change of terms or organizers alone is a change and moves it.
   */
  async function writeWithin(repos: Repositories, input: EventInput, caller: Caller, existing?: EventRow): Promise<Written> {
    // Made when a series is written (luxon's clock is not free): one `now` for the whole write.
    let context: SeriesContext | undefined;
    const series = () => (context ??= seriesContext(caller.id));
    if (existing && isOccurrence(existing)) {
      if (input.recurrence_scope === 'following') {
        // The occurrence becomes a series of its own, then takes the edit as any series does.
        await split(repos, existing, series());
        const head = await repos.events.findById(existing.id);
        return writeWithin(repos, { ...input, recurrence_scope: undefined }, caller, head);
      }
      if (input.recurrence !== undefined) {
        throw invalidParam('recurrence', 'An occurrence follows the rules of its series: change them on the series (series.id), or send recurrence_scope=following to start a new series from this occurrence.');
      }
    }
    const { columns, ...links } = await eventWrite(input, existing, { repos, caller, config, venues, organizers });
    if (!existing) {
      const row = await repos.events.create(columns as EventColumns);
      await linkNew(repos, [row.id], [links], [columns], caller);
      // Terms in the order a record embeds them (resolveTerms), organizers as given: what a read of them gives.
      if (!columns.recurrence) return { id: row.id, row, links: { categories: links.categories ?? [], tags: links.tags ?? [], organizers: links.organizers ?? [], imported: [] } };
      // Its occurrences move the series' own row on (its next start): read again for the answer.
      await materialize(repos, row.id, series());
      return { id: row.id };
    }
    const changed = Object.entries(columns).some(([key, value]) => !key.startsWith('modified') && existing[key as keyof EventRow] !== value);
    if (changed || (await linksChanged(repos, existing.id, links))) {
      // An occurrence edited on its own is an override: edits of its series leave it alone from now on.
      if (isOccurrence(existing)) columns.override = 1;
      // The status as this transaction sees it, the row locked: concurrent writes must not both count it.
      const status = await lockForWrite(repos, existing);
      const before = await countedTerms(repos, existing.id, status);
      await repos.events.update(existing.id, columns, true);
      await saveLinks(repos, existing.id, links);
      await moveTermCounts(repos, before, await countedTerms(repos, existing.id, columns.status ?? status));
      repos.changes.note({ kind: 'event', id: existing.id, action: statusChange(status, columns.status), userId: caller.id });
      if (existing.recurrence !== null || columns.recurrence) await materialize(repos, existing.id, series(), input.recurrence !== undefined);
      // Restored from the trash, an occurrence is no longer an exception of its series.
      if (status === 'trash' && columns.status !== undefined && columns.status !== 'trash') await setException(repos, existing, false, series());
    }
    return { id: existing.id };
  }

  /** How series are written now, by whom: a write past the cap of occurrences is refused. */
  const seriesContext = (userId: number | null, pastCap: SeriesContext['pastCap'] = 'refuse', now: DateTime = DateTime.utc()): SeriesContext =>
    Object.assign({}, config.recurrence, { siteZone: config.timezone, now, userId, pastCap });
  /** New events with their links and term counts, in as few statements as there are kinds of row. */
  async function insertAll(repos: Repositories, writes: EventWrite[], caller: Caller): Promise<number[]> {
    const ids = await repos.events.insertMany(writes.map((w) => w.columns as EventColumns));
    await linkNew(repos, ids, writes, writes.map((w) => w.columns), caller);
    return ids;
  }

  /** New events' links, their terms' counts and their changes noted. */
  async function linkNew(repos: Repositories, ids: number[], links: Array<Omit<EventWrite, 'columns'>>, columns: Array<Partial<EventColumns>>, caller: Caller) {
    for (const id of ids) repos.changes.note({ kind: 'event', id, action: 'create', userId: caller.id });
    const terms = links.map((w) => [...new Set([...(w.categories ?? []), ...(w.tags ?? [])])]);
    await repos.events.addLinks(links.map((w, i) => ({ eventId: ids[i], termIds: terms[i], organizerIds: w.organizers ?? [] })));
    await moveTermCounts(repos, [], links.flatMap((_, i) => (columns[i].status === 'publish' ? terms[i] : [])));
  }

  /** The event as it is under this transaction's lock, after If-Match is checked against its single read. */
  async function checked(repos: Repositories, existing: EventRow, ifMatch: string): Promise<EventRow> {
    await lockForWrite(repos, existing);
    const row = await repos.events.findById(existing.id);
    if (!row) throw notFoundError({ id: existing.id });
    // The tag a read sends (event-json.ts `composedTag`), as this transaction sees the event and what it embeds.
    const tag = await kept.tagOf(row, recordDeps(repos));
    if (!ifMatches(ifMatch, tag)) throw preconditionFailed((await toEventRecords([row], recordDeps(repos), { single: true, unlocked: () => true }))[0], tag);
    return row;
  }

  const write = (input: EventInput, caller: Caller, existing?: EventRow) =>
    store.transaction((repos) => writeWithin(repos, input, caller, existing));

  /** A single read's checks: no such event, gone to the trash, not readable, or locked by a password (403). */
  const readableBy = (ref: RecordRef, caller: Caller | null, options: EventReadOptions) => (row: EventCheck | undefined): asserts row is EventCheck => {
    if (!row) throw notFoundError(ref);
    if (row.status === 'trash') throw notAccessible('event-no-longer-available', 'This event is no longer available');
    if (!canRead(caller, row)) throw notAccessible('event-not-accessible', 'The requested event is not accessible');
    if (row.password !== '' && !unlockedFor(caller, options)(row)) {
      throw notAccessible('event-password-protected', 'The requested event is not accessible without a password');
    }
  };
  const lowerSlug = (ref: RecordRef): RecordRef => ('id' in ref ? ref : { slug: ref.slug.toLowerCase() });

  /** The row of a single read, after its checks (`readableBy`). */
  async function readable(ref: RecordRef, caller: Caller | null, options: EventReadOptions) {
    const from = await caughtUp();
    const row = await kept.row(lowerSlug(ref), from, () => load(ref));
    const check: (row: EventCheck | undefined) => asserts row is EventCheck = readableBy(ref, caller, options);
    check(row);
    return { row, from };
  }

  /**
   * Each listed event's text with its venue's distance from the centre, as the last key; none for an event
   * whose password this caller has not given (its venue is blanked too).
   */
  async function withDistances(texts: string[], rows: EventRow[], centre: Point, unlocked: (row: EventRow) => boolean): Promise<string[]> {
    const venueIds = [...new Set(rows.map((row) => row.venue_id).filter((id): id is number => id !== null))];
    const located = new Map((await store.repos.venues.findByIds(venueIds)).map((venue) => [venue.id, venue]));
    return texts.map((json, i) => {
      const venue = located.get(rows[i].venue_id ?? 0);
      if (venue?.geo_lat == null || venue.geo_lng == null || (rows[i].password !== '' && !unlocked(rows[i]))) return json;
      return `${json.slice(0, -1)},"distance":${roundKm(distanceKm(centre, { lat: venue.geo_lat, lng: venue.geo_lng }))}}`;
    });
  }

  /** A deleted series takes its occurrences along; a deleted occurrence becomes an exception of its series. */
  async function followedBySeries(repos: Repositories, deleted: EventRow, force: boolean, caller: Caller) {
    if (deleted.recurrence !== null) await deleteOccurrences(repos, deleted, force, seriesContext(caller.id));
    if (isOccurrence(deleted)) await setException(repos, deleted, true, seriesContext(caller.id));
  }

  const feedEntries = createFeedEntries({ store, urls, recordDeps });

  return {
    async get(ref: RecordRef, caller: Caller | null, options: EventReadOptions) {
      const from = await caughtUp();
      // Unlocked: the checks answer 403 to a caller the password does not unlock.
      return kept.single(lowerSlug(ref), recordDeps(store.repos), { single: true, unlocked: () => true, from }, readableBy(ref, caller, options));
    },

    /** One event for a calendar feed, with the checks and errors of `get`. */
    async getForFeed(ref: RecordRef, caller: Caller | null, options: EventReadOptions): Promise<FeedEntry[]> {
      const { row } = await readable(ref, caller, options);
      // A series' own feed is the series whole; an occurrence's is that occurrence alone.
      if (row.recurrence === null) return feedEntries([row], () => false);
      const unlocked = unlockedFor(caller, options);
      return feedEntries([row], (other) => other.status !== 'trash' && canRead(caller, other) && (other.password === '' || unlocked(other) || other.id === row.id));
    },

    /**
     * A list query for a calendar feed: the filters, rights and order of `list`, but every match up to `limit`
     * (no pages). A protected event this caller has not unlocked is left out, not blanked: a calendar entry
     * with a title and times but nothing else would look like real data.
     */
    async listForFeed(query: EventListQuery, caller: Caller | null, limit: number): Promise<FeedEntry[]> {
      const { filter, order } = await eventListFilter(query, caller, { repos: store.repos, config, now: DateTime.utc(), resolve });
      const unlocked = unlockedFor(caller, query);
      const rows = await store.repos.events.list(filter, order, limit, 0);
      const visible = (row: EventRow) => row.status !== 'trash' && canRead(caller, row) && (row.password === '' || unlocked(row));
      return feedEntries(rows.filter((row) => row.password === '' || unlocked(row)), visible);
    },

    /**
     * Events by id as this caller may see them (the change feed): readable and not in the trash, content
     * blanked behind a password unless the caller may edit the event, as a list shows it.
     */
    async recordsFor(ids: number[], caller: Caller | null): Promise<Map<number, EventRecord>> {
      const rows = (await Promise.all(ids.map((id) => store.repos.events.findById(id))))
        .filter((row): row is EventRow => row !== undefined && row.status !== 'trash' && canRead(caller, row));
      const records = await toEventRecords(rows, recordDeps(store.repos), { unlocked: (row) => canEdit(caller, row) });
      return new Map(rows.map((row, i) => [row.id, records[i]]));
    },

    async list(query: EventListQuery, caller: Caller | null) {
      const page = pageRequest(query, config.maxPerPage);
      // Before the rows (record-cache.ts, event-totals.ts), and before the filter's references, whose look-up
      // would end the turn the route's read of the data version is shared in (a second read on PostgreSQL).
      const from = await caughtUp();
      const { filter, order, echo } = await eventListFilter(query, caller, { repos: store.repos, config, now: DateTime.utc(), resolve });
      const [rows, total] = await Promise.all([
        pageRows(filter, order, page.perPage, (page.page - 1) * page.perPage, from, (ids) => kept.rows(ids, from, store.repos.events.findByIds)),
        totalOf(filter),
      ]);
      const unlocked = unlockedFor(caller, query);
      const texts = await kept.texts(rows, recordDeps(store.repos), { unlocked, from });
      const centre = filter.geo?.circle?.centre;
      const items = centre ? await withDistances(texts, rows, centre, unlocked) : texts;
      return listPage({
        items, total, page, base: `${urls.collection('events')}/`, echo: { per_page: page.perPage, ...echo },
        pageNotFound: { code: 'event-archive-page-not-found', message: 'The requested event archive page does not exist' },
      });
    },

    /**
     * Every event of a window in brief (a calendar grid), up to `limit`, with the list's filters and
     * visibility: the same filter as `list`, so a grid can never show what the list would hide.
     */
    async span(query: EventListQuery, caller: Caller | null, limit: number) {
      const { filter, order } = await eventListFilter(query, caller, { repos: store.repos, config, now: DateTime.utc(), resolve });
      return store.repos.events.listBriefs(filter, order, limit);
    },

    async create(input: EventInput, caller: Caller) {
      if (!canCreate(caller)) throw forbidden(true);
      return answer(await write(input, caller));
    },

    /**
     * A create (no id) or an update inside the caller's transaction, with the rights of `create`/`update`;
     * returns the id, not the record: a bulk writer (the import) writes a page of events and its own rows
     * together, and builds no record it would not show.
     */
    async saveWithin(repos: Repositories, input: EventInput, caller: Caller, id?: number): Promise<number> {
      if (id === undefined) {
        if (!canCreate(caller)) throw forbidden(true);
        return (await writeWithin(repos, input, caller)).id;
      }
      const existing = await repos.events.findById(id);
      if (!existing) throw notFoundError({ id });
      if (!canEdit(caller, existing)) throw forbidden(true);
      return (await writeWithin(repos, input, caller, existing)).id;
    },

    /**
     * Many new events inside the caller's transaction (a bulk import's page), each checked and filled in as
     * `create` does, then written together; returns their ids in order. A record one of them names is looked
     * up once for all (nothing in this write can remove it).
     */
    async createManyWithin(repos: Repositories, inputs: EventInput[], caller: Caller): Promise<number[]> {
      if (!canCreate(caller)) throw forbidden(true);
      const lookups = withLookupsOnce(repos);
      const reservedSlugs = new Set<string>();
      const writes: EventWrite[] = [];
      for (const input of inputs) {
        const write = await eventWrite(input, undefined, { repos: lookups, caller, config, venues, organizers, reservedSlugs });
        if (write.columns.slug) reservedSlugs.add(write.columns.slug);
        writes.push(write);
      }
      const ids = await insertAll(repos, writes, caller);
      for (const [i, id] of ids.entries()) if (writes[i].columns.recurrence) await materialize(repos, id, seriesContext(caller.id));
      return ids;
    },

    /**
     * Only what was sent changes (API.md §5.1); a GET body sent back changes nothing (§5.2). With `ifMatch`
     * (a write's If-Match) the event is checked as it is under the write's lock: 412 when it moved on.
     */
    async update(ref: RecordRef, input: EventInput, caller: Caller, ifMatch?: string) {
      const existing = await load(ref);
      if (!canEdit(caller, existing)) throw forbidden(true);
      if (ifMatch === undefined) return answer(await write(input, caller, existing));
      return answer(await store.transaction(async (repos) => writeWithin(repos, input, caller, await checked(repos, existing, ifMatch))));
    },

    /**
     * Moves the horizon of open-ended series on: each series whose next start now falls within it gets its
     * occurrences up to it, one transaction per series (its row locked: one process does each). Returns how
     * many series were looked at. A series at its cap stops growing.
     */
    async extendSeries(now: DateTime = DateTime.utc(), failed: (seriesId: number, error: unknown) => void = () => {}): Promise<number> {
      // Wall-clock starts in any zone are at most 14 hours off UTC: a day's margin finds them all.
      const due = writeStamp(now.plus({ days: config.recurrence.horizonDays + 1 }));
      let seen = 0;
      for (let page = await store.repos.events.seriesDue(due, undefined, 100); page.length > 0; page = await store.repos.events.seriesDue(due, page.at(-1), 100)) {
        for (const { id } of page) {
          // One series whose rules fail (a rule refused since) must not hold the others back.
          await store.transaction(async (repos) => {
            await repos.events.lockStatus(id);
            await materialize(repos, id, seriesContext(null, 'stop', now));
          }).catch((error: unknown) => failed(id, error));
        }
        seen += page.length;
      }
      return seen;
    },

    /**
     * Stores the text of every event that has no valid one (stored-texts.ts) but those in the trash (never
     * served), a range of ids at a time, until `stopped`. Requests keep their turn: the texts are built and
     * written `batch` at a time, each batch followed by a turn of the event loop (on SQLite a batch never
     * gives one up by itself: its statements answer at once), and a range that stored some by a pause.
     * Returns how many were stored.
     */
    async storeTexts(stopped: () => boolean, ids = 500, pauseMs = 10, batch = 25): Promise<number> {
      let count = 0;
      const last = await store.repos.eventTexts.lastId();
      for (let after = 0; after < last && !stopped(); after += ids) {
        const missing = await store.repos.eventTexts.unstored(stored.fingerprint, after, after + ids);
        const rows = missing.length === 0 ? [] : (await store.repos.events.findByIds(missing)).filter((row) => row.status !== 'trash');
        for (let i = 0; i < rows.length && !stopped(); i += batch) {
          const some = rows.slice(i, i + batch);
          await kept.store(some, recordDeps(store.repos));
          count += some.length;
          await new Promise(setImmediate);
        }
        // A range with nothing to store took one statement on two indexes: waiting requests still go first.
        await new Promise((resolve) => (rows.length > 0 ? setTimeout(resolve, pauseMs) : setImmediate(resolve)));
      }
      return count;
    },

    /** Writes the texts offered to be stored and not written yet (a process stopping). */
    flushTexts: () => stored.flush(),

    async trash(ref: RecordRef, caller: Caller, force: boolean, ifMatch?: string) {
      const existing = await load(ref);
      if (!canDelete(caller, existing) || (force && !canEditOthers(caller))) throw forbidden(true);
      if (force) {
        const before = await answer({ id: existing.id });
        await store.transaction(async (repos) => {
          if (ifMatch !== undefined) await checked(repos, existing, ifMatch);
          const counted = await countedTerms(repos, existing.id, await lockForWrite(repos, existing));
          await followedBySeries(repos, existing, true, caller);
          await repos.events.remove(existing.id);
          await moveTermCounts(repos, counted, []);
          repos.changes.note({ kind: 'event', id: existing.id, action: 'delete', userId: caller.id });
        });
        return before;
      }
      if (existing.status === 'trash') throw gone('event-is-in-trash', 'The event is already trashed');
      const now = nowStamp(config.timezone);
      await store.transaction(async (repos) => {
        if (ifMatch !== undefined) await checked(repos, existing, ifMatch);
        const counted = await countedTerms(repos, existing.id, await lockForWrite(repos, existing));
        await repos.events.update(existing.id, { status: 'trash', modified_local: now.local, modified_utc: now.utc }, true);
        await moveTermCounts(repos, counted, []);
        repos.changes.note({ kind: 'event', id: existing.id, action: 'trash', userId: caller.id });
        await followedBySeries(repos, existing, false, caller);
      });
      return answer({ id: existing.id });
    },
  };
}

/**
 * The repositories with venues, organizers and terms found by id looked up once: what a page of events
 * names again and again. Only found records are kept, and only for the one write that asked.
 */
function withLookupsOnce(repos: Repositories): Repositories {
  const once = <A extends unknown[], R>(find: (...args: A) => Promise<R | undefined>) => {
    const found = new Map<string, R>();
    return async (...args: A) => {
      const key = args.join('\0');
      const hit = found.get(key);
      if (hit !== undefined) return hit;
      const row = await find(...args);
      if (row !== undefined) found.set(key, row);
      return row;
    };
  };
  // Ids of a taxonomy found once are not asked again; the write asks only for those it has not met.
  const knownOnce = (idsOf: Repositories['terms']['idsOf']) => {
    const found = new Map<string, Set<number>>();
    return async (taxonomy: Taxonomy, ids: number[]): Promise<Set<number>> => {
      const known = found.get(taxonomy) ?? new Set<number>();
      found.set(taxonomy, known);
      for (const id of await idsOf(taxonomy, ids.filter((id) => !known.has(id)))) known.add(id);
      return new Set(ids.filter((id) => known.has(id)));
    };
  };
  const statusesOnce = (statusesOf: Repositories['organizers']['statusesOf']) => {
    const found = new Map<number, string>();
    return async (ids: number[]): Promise<Map<number, string>> => {
      for (const [id, status] of await statusesOf(ids.filter((id) => !found.has(id)))) found.set(id, status);
      return new Map(ids.filter((id) => found.has(id)).map((id) => [id, found.get(id) as string]));
    };
  };
  return {
    ...repos,
    venues: { ...repos.venues, statusOf: once(repos.venues.statusOf) },
    organizers: { ...repos.organizers, statusesOf: statusesOnce(repos.organizers.statusesOf) },
    terms: { ...repos.terms, idsOf: knownOnce(repos.terms.idsOf) },
  };
}

export type EventService = ReturnType<typeof createEventService>;
