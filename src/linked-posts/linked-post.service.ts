import { statusChange } from '../changes/change.repository.ts';
import type { ChangeWatch } from '../changes/change-watch.ts';
import { cacheBytes, textBytes } from '../db/cache-budget.ts';
import { createRecordCache } from '../db/record-cache.ts';
import { forbidden, gone, invalidParam, notAccessible, notFound } from '../errors.ts';
import type { Config } from '../config.ts';
import { createCountCache, createPageCache } from '../db/read-cache.ts';
import type { Store } from '../store.ts';
import { checkIfMatch } from '../http/conditional.ts';
import { jsonText } from '../http/json-text.ts';
import { listPage, pageRequest } from '../http/pagination.ts';
import type { Urls } from '../http/urls.ts';
import { toImage } from '../images/image.service.ts';
import { renderHtml } from '../posts/html.ts';
import { type CommonPostInput, commonColumns } from '../posts/post-input.ts';
import type { PostRepository, PostRow, PostTableName } from '../posts/post.repository.ts';
import type { ImportedKeys } from '../import/lineage.repository.ts';
import { listOrder, type ModifiedQuery, modifiedWindow } from '../posts/list-order.ts';
import { distanceKm, geoEcho, type GeoQuery, geoFilter, roundKm } from '../geo/geo.ts';
import { listStatuses } from '../posts/read-rules.ts';
import { nowStamp } from '../time/clock.ts';
import { type Caller, canCreate, canDelete, canEdit, canEditOthers, canRead } from '../users/roles.ts';
import type { LinkedPostKind } from './linked-post.kind.ts';
import { type LinkedTexts, linkedTexts, listText } from './linked-texts.ts';

export type RecordRef = { id: number } | { slug: string };

export interface LinkedPostListQuery extends ModifiedQuery, GeoQuery {
  page?: number;
  per_page?: number;
  search?: string;
  status?: string[];
  event?: number;
  has_events?: boolean;
  only_with_upcoming?: boolean;
}

type Input = CommonPostInput & Record<string, unknown>;

/**
 * Venues and organizers: one implementation of the reference's linked-post rules. `watch` tells which records
 * changed (changes/change-watch.ts): their texts are kept per record until then, for the events that embed
 * them and for lists.
 */
export function createLinkedPostService<T extends PostTableName>(
  kind: LinkedPostKind<T>,
  deps: { store: Store; urls: Urls; config: Config; watch: ChangeWatch },
) {
  const { store, urls, config, watch } = deps;
  const repoOf = (repos: Store['repos']) => (kind.table === 'venue' ? repos.venues : repos.organizers) as unknown as PostRepository<T>;
  const repo = repoOf(store.repos);
  const label = kind.label;
  const countOf = createCountCache();
  const pageOf = createPageCache<Awaited<ReturnType<typeof repo.listIds>>[number]>();
  // A few thousand serve every event (all of them at 100k events, with 2000 venues and 1000 organizers: every
  // cold read embeds some), and every list page; never built again for each.
  const kept = createRecordCache<number, LinkedTexts>(10000, watch.generation, `embedded-${kind.plural}`, {
    bytes: cacheBytes(0.1),
    weigh: (linked) => 256 + textBytes(linked.head) + textBytes(linked.tail) + textBytes(linked.jsonLd),
  });
  watch.onForget((forget) => {
    if (forget === 'all') return kept.clear();
    for (const { kind: changed, id } of forget) if (changed === kind.table) kept.delete(id);
  });

  /**
   * The texts of these records (any status), kept ones from memory, the rest built from their rows (one
   * statement for all) and kept if nothing was forgotten since generation `from`. `fresh`: nothing kept is
   * used or kept (a write's check sees what its own transaction sees).
   */
  async function texts(ids: number[], from: number, repos: Store['repos'] = store.repos, fresh = false): Promise<Map<number, LinkedTexts>> {
    const found = new Map<number, LinkedTexts>();
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const text = fresh ? undefined : kept.get(id);
      if (text) found.set(id, text);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    for (const record of await toRecords(await repoOf(repos).findByIds(missing), true, undefined, repos)) {
      const text = linkedTexts(record);
      found.set(record.id as number, text);
      if (!fresh) kept.set(record.id as number, text, from);
    }
    return found;
  }

  /** `imported`: the rows' import lineage when the caller has read it already (an event page reads all kinds' at once). */
  async function toRecords(rows: PostRow<T>[], single: boolean, imported?: ImportedKeys, repos: Store['repos'] = store.repos) {
    const imageIds = rows.map((r) => r.image_id).filter((id): id is number => id !== null);
    const [imageRows, keys] = await Promise.all([
      repos.images.findByIds([...new Set(imageIds)]),
      imported ?? repos.lineage.keysOf({ [kind.table]: rows.map((r) => r.id) }),
    ]);
    const images = new Map(imageRows.map((i) => [i.id, i]));
    return rows.map((row) => kind.toRecord(row, {
      image: toImage(row.image_id === null ? undefined : images.get(row.image_id)), urls, importedFrom: keys.get(`${kind.table}:${row.id}`) ?? [],
    }, single));
  }
  const toRecord = async (row: PostRow<T>, single = false) => (await toRecords([row], single))[0];

  async function load(ref: RecordRef): Promise<PostRow<T>> {
    const row = 'id' in ref ? await repo.findById(ref.id) : await repo.findBySlug(ref.slug.toLowerCase()); // slugs are stored lower-case, as WordPress reads them
    if (!row) {
      const which = 'id' in ref ? `ID ${ref.id}` : `slug "${ref.slug}"`;
      throw notFound(`${label}-not-found`, `The ${label} with ${which} does not exist.`);
    }
    return row;
  }

  function columnsFor(input: Input, caller: Caller, existing: PostRow<T> | undefined, repos: Store['repos']) {
    const title = input[kind.nameField] as string | undefined;
    return commonColumns(input, {
      caller,
      existing,
      title: title ?? existing?.title ?? '',
      zone: config.timezone,
      now: nowStamp(config.timezone),
      users: repos.users,
      images: repos.images,
      slugsStartingWith: async (base) => {
        await repos.lockName(`${kind.table}-slug:${base}`); // writers allocating from one base take turns
        return repoOf(repos).slugsStartingWith(base);
      },
      fallbackSlug: label,
    }).then((common) => Object.assign({}, common, title !== undefined ? { title: title.trim() } : {}, kind.ownColumns(input, existing)));
  }

  /** The record as it is under this transaction's lock, after If-Match (when sent) is checked against it. */
  async function checked(repos: Store['repos'], existing: PostRow<T>, ifMatch: string | undefined): Promise<PostRow<T>> {
    if (ifMatch === undefined) return existing;
    const row = await repoOf(repos).findForUpdate(existing.id);
    if (!row) throw notFound(`${label}-not-found`, `The ${label} with ID ${existing.id} does not exist.`);
    const [record] = await toRecords([row], true, undefined, repos);
    checkIfMatch(ifMatch, jsonText(record), record);
    return row;
  }

  async function updateWithin(repos: Store['repos'], existing: PostRow<T>, input: Input, caller: Caller) {
    const columns = await columnsFor(input, caller, existing, repos);
    const changed = Object.entries(columns).some(([key, value]) => !key.startsWith('modified') && existing[key as keyof PostRow<T>] !== value);
    if (!changed) return;
    await repoOf(repos).update(existing.id, columns as Partial<PostRow<T>>);
    repos.changes.note({ kind: kind.table, id: existing.id, action: statusChange(existing.status, columns.status as string | undefined), userId: caller.id });
  }

  return {
    async get(ref: RecordRef, caller: Caller | null) {
      const row = await load(ref);
      if (!canRead(caller, row)) throw notAccessible(`${label}-not-accessible`, `The requested ${label} is not accessible.`);
      return toRecord(row, true);
    },

    async list(query: LinkedPostListQuery, caller: Caller | null) {
      const page = pageRequest(query, config.maxPerPage);
      const statuses = listStatuses(caller, query.status);
      const fragments = query.search?.split(/[^\p{L}\p{N}-]+/u).filter(Boolean);
      const modified = modifiedWindow(query);
      if (query.event !== undefined && !(await store.repos.events.exists(query.event))) {
        throw invalidParam('event', `No event has the id ${query.event}.`);
      }
      // Only the venue list's schema takes these: an organizer query never carries them.
      const geo = geoFilter(query);
      const filter = {
        statuses,
        search: fragments?.length ? { fragments, columns: kind.searchColumns } : undefined,
        eventId: query.event,
        hasEvents: query.has_events,
        // Upcoming events the caller could list: the same status rights as the records themselves.
        upcoming: query.only_with_upcoming ? { fromUtc: nowStamp('UTC').utc, statuses } : undefined,
        modifiedAfter: modified.after,
        modifiedBefore: modified.before,
        geo,
      };
      const order = listOrder(query, { column: 'date_utc', direction: 'desc' }, geo?.circle !== undefined);
      await watch.sync();
      const from = watch.generation();
      const version = await store.dataVersion();
      const [rows, total] = await Promise.all([
        pageOf(JSON.stringify([filter, order, page.perPage, page.page]), version, () => repo.listIds(filter, page.perPage, (page.page - 1) * page.perPage, order)),
        countOf(JSON.stringify(filter), version, () => repo.count(filter)),
      ]);
      const found = await texts(rows.map((row) => row.id), from);
      const centre = geo?.circle?.centre;
      const items: string[] = [];
      for (const { id, geo_lat: lat, geo_lng: lng } of rows) {
        const text = found.get(id);
        // Deleted since its id was read: left out, as a list read a moment later would.
        if (text === undefined) continue;
        const distance = centre && lat != null && lng != null ? roundKm(distanceKm(centre, { lat, lng })) : undefined;
        items.push(listText(text, distance));
      }
      return listPage({
        items,
        total,
        page,
        base: `${urls.collection(kind.plural)}/`,
        echo: {
          per_page: page.perPage,
          search: query.search,
          status: statuses === 'any' ? 'any' : statuses,
          event: query.event,
          has_events: query.has_events,
          only_with_upcoming: query.only_with_upcoming,
          modified_after: query.modified_after,
          modified_before: query.modified_before,
          orderby: query.orderby,
          order: query.order,
          ...geoEcho(query, geo),
        },
        pageNotFound: { code: `${label}-archive-page-not-found`, message: `The requested ${label} archive page does not exist.` },
      });
    },

    /** A record with the same name (and description, when sent) is returned instead of a duplicate. */
    async create(input: Input, caller: Caller) {
      if (!canCreate(caller)) throw forbidden(true);
      const id = await store.transaction((repos) => this.createWithin(repos, input, caller));
      return toRecord(await load({ id }));
    },

    /** Create-or-reuse inside the caller's transaction (an event creating its venue inline); returns the id. */
    async createWithin(repos: Store['repos'], input: Input, caller: Caller): Promise<number> {
      const name = String(input[kind.nameField]).trim();
      const description = input.description === undefined ? undefined : renderHtml(String(input.description));
      await repos.lockName(`${kind.table}:${name.toLowerCase()}`);
      const duplicate = await repoOf(repos).findDuplicate(name, description);
      if (duplicate) return duplicate.id;
      const columns = await columnsFor(input, caller, undefined, repos);
      const id = await repoOf(repos).insert(columns as Omit<PostRow<T>, 'id'>);
      repos.changes.note({ kind: kind.table, id, action: 'create', userId: caller.id });
      return id;
    },

    /** Records by id as this caller may see them (the change feed): readable and not in the trash. */
    async recordsFor(ids: number[], caller: Caller | null): Promise<Map<number, Record<string, unknown>>> {
      const rows = (await repo.findByIds(ids)).filter((row) => row.status !== 'trash' && canRead(caller, row));
      const records = await toRecords(rows, false);
      return new Map(rows.map((row, i) => [row.id, records[i]]));
    },

    /** Records for embedding (an event's venue and organizers), in the given order. */
    toRecords,

    texts,
    /** A record's text if it is kept: what a read needing no statement asks (events/event-json.ts `fromKept`). */
    keptText: (id: number): LinkedTexts | undefined => kept.get(id),

    /**
     * Only what was sent changes; a body that changes nothing writes nothing (API.md §5.1, §5.2). With
     * `ifMatch` (a write's If-Match) the record is checked as it is under the write's lock: 412 when it moved on.
     */
    async update(ref: RecordRef, input: Input, caller: Caller, ifMatch?: string) {
      const existing = await load(ref);
      if (!canEdit(caller, existing)) throw forbidden(true);
      await store.transaction(async (repos) => updateWithin(repos, await checked(repos, existing, ifMatch), input, caller));
      return toRecord(await load({ id: existing.id }));
    },

    /** A create (or reuse, as `create`) or an update inside the caller's transaction, with their rights; returns the id. */
    async saveWithin(repos: Store['repos'], input: Input, caller: Caller, id?: number): Promise<number> {
      if (id === undefined) {
        if (!canCreate(caller)) throw forbidden(true);
        return this.createWithin(repos, input, caller);
      }
      const existing = await repoOf(repos).findById(id);
      if (!existing) throw notFound(`${label}-not-found`, `The ${label} with ID ${id} does not exist.`);
      if (!canEdit(caller, existing)) throw forbidden(true);
      await updateWithin(repos, existing, input, caller);
      return id;
    },

    /** Trash (410 when already there), or with `force` a permanent delete for editors and above. */
    async trash(ref: RecordRef, caller: Caller, force: boolean, ifMatch?: string) {
      const existing = await load(ref);
      if (!canDelete(caller, existing) || (force && !canEditOthers(caller))) throw forbidden(true);
      if (force) {
        const record = await toRecord(existing);
        await store.transaction(async (repos) => {
          await checked(repos, existing, ifMatch);
          await repoOf(repos).remove(existing.id);
          repos.changes.note({ kind: kind.table, id: existing.id, action: 'delete', userId: caller.id });
        });
        return record;
      }
      if (existing.status === 'trash') throw gone(`${label}-is-in-trash`, `The ${label} is already trashed.`);
      const now = nowStamp(config.timezone);
      await store.transaction(async (repos) => {
        await checked(repos, existing, ifMatch);
        await repoOf(repos).update(existing.id, { status: 'trash', modified_local: now.local, modified_utc: now.utc } as Partial<PostRow<T>>);
        await repoOf(repos).unlinkFromEvents(existing.id);
        repos.changes.note({ kind: kind.table, id: existing.id, action: 'trash', userId: caller.id });
      });
      return toRecord(await load({ id: existing.id }));
    },
  };
}

export type LinkedPostService<T extends PostTableName = any> = ReturnType<typeof createLinkedPostService<T>>;
