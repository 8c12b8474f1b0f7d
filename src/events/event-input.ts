import type { Config } from '../config.ts';
import type { Repositories } from '../store.ts';
import { invalidParam } from '../errors.ts';
import { createUrls } from '../http/urls.ts';
import { type CommonPostInput, commonColumns } from '../posts/post-input.ts';
import { nowStamp } from '../time/clock.ts';
import type { Caller } from '../users/roles.ts';
import { normalizeCostInput, presentCost } from './cost.ts';
import { eventDateColumns } from './event-dates.ts';
import { searchText } from './event-search.ts';
import { type LinkContext, resolveOrganizers, resolveTerms, resolveVenue } from './event-links.ts';
import type { EventColumns, EventRow } from './event.repository.ts';
import type { Recurrence } from '../recurrence/expand.ts';

export type EventInput = CommonPostInput & {
  title?: string;
  start_date?: string;
  end_date?: string;
  timezone?: string;
  all_day?: boolean;
  cost?: unknown;
  website?: string;
  password?: string;
  categories?: unknown;
  tags?: unknown;
  venue?: unknown;
  organizer?: unknown;
  organizers?: unknown;
  /** Makes the event a recurring series (null: a single event again); see recurrence/series.ts. */
  recurrence?: Recurrence | null;
  /** An occurrence's update: this one alone (an override, the default) or this and the following (a split). */
  recurrence_scope?: 'occurrence' | 'following';
} & Partial<Record<(typeof FLAGS)[number], boolean>>;

const FLAGS = ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const;

export interface EventWrite {
  columns: Partial<EventColumns>;
  categories?: number[];
  tags?: number[];
  organizers?: number[];
}

/**
 * What a create (everything, with defaults) or an update (only what was sent, API.md §5.1) writes. Runs
 * inside the write's transaction, so venues, organizers and terms it creates go with it or not at all.
 */
export async function eventWrite(
  input: EventInput,
  existing: EventRow | undefined,
  ctx: LinkContext & { config: Config; reservedSlugs?: Set<string> },
): Promise<EventWrite> {
  const { repos, caller, config } = ctx;
  const common = await commonColumns(input, {
    caller,
    existing,
    title: input.title ?? existing?.title ?? '',
    zone: config.timezone,
    now: nowStamp(config.timezone),
    users: repos.users,
    images: repos.images,
    slugsStartingWith: async (base) => {
      const taken = await slugsTakenByOthers(base, existing, repos);
      for (const slug of ctx.reservedSlugs ?? []) taken.add(slug);
      return taken;
    },
    fallbackSlug: 'event',
  });
  // Object.assign, not a literal opening with a spread: see QueryEcho in event-list.ts (a hidden class a write).
  const columns: Partial<EventColumns> = Object.assign({}, common, eventDateColumns(input, existing, config.timezone));
  if (input.title !== undefined) columns.title = input.title.trim();
  if (input.password !== undefined) columns.password = input.password;
  else if (!existing) columns.password = '';
  for (const flag of FLAGS) {
    if (input[flag] !== undefined) columns[flag] = input[flag] ? 1 : 0;
    else if (!existing) columns[flag] = 0;
  }
  const website = websiteColumn(input.website, existing, config);
  if (website !== undefined) columns.website = website;
  else if (!existing) columns.website = null;
  const cost = costColumn(input.cost, existing, config);
  if (cost !== undefined) columns.cost = cost;
  else if (!existing) columns.cost = '[]';
  if (!existing) Object.assign(columns, { parent_id: 0, venue_id: null, recurrence: null, original_start: null, override: 0, recurrence_next: null });
  if (input.recurrence !== undefined) columns.recurrence = recurrenceColumn(input.recurrence);
  if (columns.description !== undefined || columns.excerpt !== undefined) {
    columns.search_text = searchText(columns.description ?? existing?.description ?? '', columns.excerpt ?? existing?.excerpt ?? '');
  }

  const write: EventWrite = { columns };
  if (input.venue !== undefined) columns.venue_id = await resolveVenue(input.venue, ctx);
  if (input.organizer !== undefined) write.organizers = await resolveOrganizers(input.organizer, ctx);
  else if (input.organizers !== undefined) write.organizers = await resolveOrganizers(input.organizers, ctx, 'organizers');
  if (input.categories !== undefined) write.categories = await resolveTerms(input.categories, 'tribe_events_cat', 'categories', repos, caller);
  if (input.tags !== undefined) write.tags = await resolveTerms(input.tags, 'post_tag', 'tags', repos, caller);
  return write;
}

/** An event's own slug is not taken for it: renaming `gig-2` to a taken `gig` keeps `gig-2`, not `gig-3`. */
async function slugsTakenByOthers(base: string, existing: EventRow | undefined, repos: Repositories): Promise<Set<string>> {
  // Writers allocating from one base take turns: otherwise each sees the same free slug and all but one fail.
  await repos.lockName(`event-slug:${base}`);
  const taken = await repos.events.slugsStartingWith(base);
  if (existing) taken.delete(existing.slug);
  return taken;
}

/**
 * The stored website: never set stays NULL, which shows the permalink; an explicit "" on update shows "".
 * The permalink a GET showed for an unset website, sent back, keeps it unset (API.md §5.2), so the
 * website still follows the slug.
 */
function websiteColumn(input: string | undefined, existing: EventRow | undefined, config: Config): string | null | undefined {
  if (input === undefined) return undefined;
  if (!existing) return input === '' ? null : input;
  if (existing.website === null && input === createUrls(config).permalink('event', existing.slug)) return undefined;
  return input;
}

/** The stored cost (a JSON array); the formatted cost a GET showed, sent back, keeps what is stored. */
function costColumn(input: unknown, existing: EventRow | undefined, config: Config): string | undefined {
  if (input === undefined) return undefined;
  if (existing && typeof input === 'string' && input === presentCost(JSON.parse(existing.cost), config.currency).cost) {
    return existing.cost;
  }
  const values = normalizeCostInput(input);
  if (values === null) throw invalidParam('cost');
  return JSON.stringify(values);
}


/** A series' rules as stored: trimmed, without empty lists, so an unchanged recurrence sent back changes nothing. */
function recurrenceColumn(input: Recurrence | null): string | null {
  if (input === null) return null;
  const list = (values: string[] | undefined) => (values ?? []).map((value) => String(value).trim());
  const stored: Recurrence = { rules: list(input.rules).map((rule) => rule.replace(/^RRULE:/i, '').toUpperCase()) };
  if (input.rdates?.length) stored.rdates = list(input.rdates);
  if (input.exdates?.length) stored.exdates = list(input.exdates);
  return JSON.stringify(stored);
}
