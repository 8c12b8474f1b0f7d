import type { DateTime } from 'luxon';
import type { Config } from '../config.ts';
import type { Repositories } from '../store.ts';
import { invalidParam, invalidParams } from '../errors.ts';
import { type ResolveRefs, resolveRefs } from './filter-refs.ts';
import { type GeoQuery, geoEcho, geoFilter } from '../geo/geo.ts';
import type { QueryEcho } from '../http/pagination.ts';
import { listStatuses } from '../posts/read-rules.ts';
import { boundText, type DateWindow, DateWindowError, resolveDateWindow, type WindowQuery } from '../time/date-window.ts';
import { type Caller, canCreate } from '../users/roles.ts';
import type { EventListFilter, EventOrder, EventWindow } from './event.repository.ts';
import { listOrder, type ModifiedQuery, modifiedWindow } from '../posts/list-order.ts';

export interface EventListQuery extends WindowQuery, ModifiedQuery, GeoQuery {
  page?: number;
  per_page?: number;
  search?: string;
  categories?: Array<number | string>;
  tags?: Array<number | string>;
  venue?: number[];
  organizer?: number[];
  featured?: boolean;
  status?: string[];
  post_parent?: number;
  hide_subsequent_recurrences?: boolean;
  ticketed?: boolean;
  password?: string;
  context?: 'view' | 'edit';
}

// The window of the same dates asked within the same second is the same: worked out once (luxon's zone and
// calendar arithmetic took ~50 µs of every list request). Kept for the current second only, and as text: the
// luxon objects it was worked out with, kept that long, outlived V8's young generation (every day of three
// years as a one-day list: 73 -> 63 MB reached its old space in 10 s).
const WINDOW_PARAMS = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after', 'strict_dates'] as const;
const windows = new Map<string, { echo: DateWindow['echo']; dates: EventWindow }>();
let windowsSecond = 0;

/** The query's date window and its bounds as SQL text; a bad date is a 400 naming its parameter. */
function windowOf(query: EventListQuery, config: Config, now: DateTime) {
  const second = Math.floor(now.toMillis() / 1000);
  if (second !== windowsSecond) {
    windows.clear();
    windowsSecond = second;
  }
  const key = JSON.stringify([config.timezone, config.timezoneMode, query.include?.length ? 1 : 0, ...WINDOW_PARAMS.map((name) => query[name] ?? null)]);
  const known = windows.get(key);
  if (known) return known;
  let window: DateWindow;
  try {
    window = resolveDateWindow(query, { siteZone: config.timezone, now });
  } catch (error) {
    if (error instanceof DateWindowError) throw invalidParams({ [error.param]: 'Invalid parameter.' });
    throw error;
  }
  const mode = config.timezoneMode;
  const text = (bound: DateTime | undefined) => (bound ? boundText(bound, mode) : undefined);
  const dates: EventWindow = {
    column: mode === 'event' ? 'local' : 'utc',
    startFrom: text(window.startFrom),
    endTo: text(window.endTo),
    startsBefore: text(window.startsBefore),
    startsAfter: text(window.startsAfter),
    endsBefore: text(window.endsBefore),
    endsAfter: text(window.endsAfter),
  };
  const made = { echo: window.echo, dates };
  if (windows.size < 1000) windows.set(key, made);
  return made;
}

/**
 * Turns the `/events` query into a repository filter (reference §2.3, API.md §5.7, §5.11, §5.14) and the
 * effective query that `rest_url` echoes, resolved dates included.
 */
export async function eventListFilter(
  query: EventListQuery,
  caller: Caller | null,
  ctx: { repos: Repositories; config: Config; now: DateTime; resolve?: ResolveRefs },
): Promise<{ filter: EventListFilter; order: EventOrder; echo: QueryEcho }> {
  const { repos, config, resolve = resolveRefs } = ctx;
  if (query.ticketed === true) {
    // The reference's validator answers an error, which WordPress files under the parameter's details.
    const reason = 'The ticketing module is not active.';
    throw invalidParams({ ticketed: reason }, { ticketed: { code: 'event-tickets-not-active', message: reason, data: { status: 400 } } });
  }
  const geo = geoFilter(query);

  const { echo: windowEcho, dates } = windowOf(query, config, ctx.now);
  const statuses = listStatuses(caller, query.status);
  const modified = modifiedWindow(query);
  const include = query.include?.length ? query.include : undefined;
  const refs = await resolve(query, repos);
  const filter: EventListFilter = {
    statuses,
    window: include ? undefined : dates,
    search: query.search,
    searchPassword: canCreate(caller) ? undefined : (query.password ?? ''),
    categoryIds: refs.categoryIds,
    tagIds: refs.tagIds,
    venueIds: refs.venueIds,
    organizerIds: refs.organizerIds,
    featured: query.featured,
    parentId: query.post_parent,
    ids: include,
    modifiedAfter: modified.after,
    modifiedBefore: modified.before,
    geo,
    firstOfSeries: query.hide_subsequent_recurrences === true,
  };
  if (query.post_parent !== undefined && !(await repos.events.exists(query.post_parent))) throw invalidParam('post_parent');

  // The window's parameters first, then the rest: not written `{ ...windowEcho, status, … }`. On Node 20's V8 a
  // literal that opens with a spread and then adds keys gets a hidden class of its own every time; each one
  // lives until a full collection, and at ~3500 default lists a second they made one every ~0.5 s.
  const echo: QueryEcho = Object.assign({}, windowEcho, {
    status: statuses === 'any' ? 'any' : statuses,
    search: query.search,
    categories: query.categories,
    tags: query.tags,
    venue: query.venue,
    organizer: query.organizer,
    featured: query.featured,
    post_parent: query.post_parent,
    hide_subsequent_recurrences: query.hide_subsequent_recurrences,
    include,
    strict_dates: query.strict_dates,
    modified_after: query.modified_after,
    modified_before: query.modified_before,
    orderby: query.orderby,
    order: query.order,
    ...geoEcho(query, geo),
  });
  // Without orderby: by start (in the compared column), or by post date for an `include` list, as the reference.
  const own: EventOrder = { column: include ? 'date_utc' : config.timezoneMode === 'event' ? 'start_local' : 'start_utc', direction: 'asc' };
  return { filter, order: listOrder(query, own, geo?.circle !== undefined), echo };
}
