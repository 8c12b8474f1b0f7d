import { DateTime } from 'luxon';
import type { Config } from '../config.ts';
import type { Repositories, Store } from '../db/store.ts';
import { forbidden, gone, notAccessible, notFound } from '../errors.ts';
import { listPage, pageRequest } from '../http/pagination.ts';
import type { Urls } from '../http/urls.ts';
import type { LinkedPostService } from '../linked-posts/linked-post.service.ts';
import type { RecordRef } from '../linked-posts/linked-post.service.ts';
import { nowStamp } from '../time/clock.ts';
import { type Caller, canCreate, canEdit, canEditOthers, canRead } from '../users/roles.ts';
import { type EventInput, eventWrite } from './event-input.ts';
import { type EventListQuery, eventListFilter } from './event-list.ts';
import { toEventRecords } from './event.record.ts';
import type { EventRow } from './event.repository.ts';

export interface EventReadOptions {
  password?: string;
  context?: 'view' | 'edit';
}

export function createEventService(deps: {
  store: Store;
  urls: Urls;
  config: Config;
  venues: LinkedPostService<'venue'>;
  organizers: LinkedPostService<'organizer'>;
}) {
  const { store, urls, config, venues, organizers } = deps;
  const recordDeps = (repos: Repositories) => ({ repos, urls, config, venues, organizers });

  async function load(ref: RecordRef): Promise<EventRow> {
    const row = 'id' in ref ? await store.repos.events.findById(ref.id) : await store.repos.events.findBySlug(ref.slug);
    if (!row) {
      const message = 'id' in ref ? `Event with ID ${ref.id} does not exist.` : `Event with slug "${ref.slug}" does not exist.`;
      throw notFound('rest-event-not-found', message);
    }
    return row;
  }

  const record = async (id: number) => (await toEventRecords([await load({ id })], recordDeps(store.repos), { unlocked: () => true }))[0];

  /** Editors reading with context=edit, or the right password, see a protected event whole. */
  const unlockedFor = (caller: Caller | null, options: EventReadOptions) => (row: EventRow) =>
    (options.password !== undefined && options.password === row.password) || (options.context === 'edit' && canEdit(caller, row));

  async function write(input: EventInput, caller: Caller, existing?: EventRow): Promise<number> {
    return store.transaction(async (repos) => {
      const { columns, categories, tags, organizers: organizerIds } = await eventWrite(input, existing, {
        repos, caller, config, venues, organizers,
      });
      let id = existing?.id;
      if (id === undefined) id = await repos.events.insert(columns as Parameters<typeof repos.events.insert>[0]);
      else if (Object.entries(columns).some(([key, value]) => !key.startsWith('modified') && existing?.[key as keyof EventRow] !== value)) {
        await repos.events.update(id, columns);
      }
      if (categories) await repos.events.setTerms(id, 'tribe_events_cat', categories);
      if (tags) await repos.events.setTerms(id, 'post_tag', tags);
      if (organizerIds) await repos.events.setOrganizers(id, organizerIds);
      return id;
    });
  }

  return {
    async get(ref: RecordRef, caller: Caller | null, options: EventReadOptions) {
      const row = await load(ref);
      if (row.status === 'trash') throw notAccessible('event-no-longer-available', 'This event is no longer available');
      if (!canRead(caller, row)) throw notAccessible('event-not-accessible', 'The requested event is not accessible');
      if (row.password !== '' && !unlockedFor(caller, options)(row)) {
        throw notAccessible('event-password-protected', 'The requested event is not accessible without a password');
      }
      return (await toEventRecords([row], recordDeps(store.repos), { single: true, unlocked: () => true }))[0];
    },

    async list(query: EventListQuery, caller: Caller | null) {
      const page = pageRequest(query, config.maxPerPage);
      const { filter, order, echo } = await eventListFilter(query, caller, {
        repos: store.repos, config, now: DateTime.utc(),
      });
      const [rows, total] = await Promise.all([
        store.repos.events.list(filter, order, page.perPage, (page.page - 1) * page.perPage),
        store.repos.events.count(filter),
      ]);
      const items = await toEventRecords(rows, recordDeps(store.repos), { unlocked: unlockedFor(caller, query) });
      return listPage({
        items, total, page, base: `${urls.collection('events')}/`, echo: { per_page: page.perPage, ...echo },
        pageNotFound: { code: 'event-archive-page-not-found', message: 'The requested event archive page does not exist' },
      });
    },

    async create(input: EventInput, caller: Caller) {
      if (!canCreate(caller)) throw forbidden(true);
      return record(await write(input, caller));
    },

    /** Only what was sent changes (API.md §5.1); a GET body sent back changes nothing (§5.2). */
    async update(ref: RecordRef, input: EventInput, caller: Caller) {
      const existing = await load(ref);
      if (!canEdit(caller, existing)) throw forbidden(true);
      return record(await write(input, caller, existing));
    },

    async trash(ref: RecordRef, caller: Caller, force: boolean) {
      const existing = await load(ref);
      if (!canEdit(caller, existing) || (force && !canEditOthers(caller))) throw forbidden(true);
      if (force) {
        const before = await record(existing.id);
        await store.transaction((repos) => repos.events.remove(existing.id));
        return before;
      }
      if (existing.status === 'trash') throw gone('event-is-in-trash', 'The event is already trashed');
      const now = nowStamp(config.timezone);
      await store.repos.events.update(existing.id, { status: 'trash', modified_local: now.local, modified_utc: now.utc });
      return record(existing.id);
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
