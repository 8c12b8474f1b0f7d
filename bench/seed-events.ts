import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';
import { normalizeCostInput } from '../src/events/cost.ts';
import { searchText } from '../src/events/event-search.ts';
import type { EventColumns } from '../src/events/event.repository.ts';
import { slugify } from '../src/posts/slug.ts';
import { dateColumns, type EventTimes } from './event-times.ts';
import { KINDS, type Random, SEASONS, THEMES, ZONES } from './vocabulary.ts';

/** What events link to, made before them (ids as the repositories returned them). */
export interface SeedRefs {
  authorId: number;
  venueIds: number[];
  organizerIds: number[];
  categoryIds: number[];
  tagIds: number[];
  /** Rendered HTML (through the service's renderHtml), reused: sanitizing 100k texts would dominate the seed. */
  descriptions: string[];
  excerpts: string[];
  /** Now, and the start of today (UTC), in epoch milliseconds. */
  nowMs: number;
  todayMs: number;
}

export interface SeedEvent {
  columns: EventColumns;
  times: EventTimes;
  categories: number[];
  tags: number[];
  organizers: number[];
}

const COSTS: unknown[] = ['', '', '', '', '0', '10', '15', ['15', '25'], '€12', '5.50', 'Free', [20, 35, 50]];
const HALF_SPAN_DAYS = 548; // three years centred on today
const MINUTE = 60_000;
const utcText = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** `base`, `base-2`, `base-3`, …: what firstFreeSlug gives for events created one after another. */
export function createSlugCounter() {
  const seen = new Map<string, number>();
  return (title: string, fallback: string) => {
    const base = slugify(title) || fallback;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  };
}

const DAY = 86_400_000;
const dayOf = (ms: number) => {
  const date = new Date(ms);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
};

/** Date arithmetic on plain numbers: a Luxon DateTime per event would cost more than the rest of the seed. */
function eventTimes(random: Random, todayMs: number): EventTimes {
  const dayMs = todayMs + random.int(-HALF_SPAN_DAYS, HALF_SPAN_DAYS) * DAY;
  const allDay = random.chance(0.1);
  // Timed events start between 08:00 and 21:45 (never in a DST gap); a few run over several days.
  const start = { ...dayOf(dayMs), hour: random.int(8, 21), minute: 15 * random.int(0, 3) };
  const extraDays = (allDay || random.chance(0.05)) && !random.chance(0.7) ? random.int(1, 3) : 0;
  const endHour = extraDays === 0 ? Math.min(23, start.hour + random.int(1, 4)) : random.int(9, 22);
  const end = { ...dayOf(dayMs + extraDays * DAY), hour: endHour, minute: start.minute };
  return { zone: random.pick(ZONES), start, end, allDay };
}

/**
 * One event with the columns the service's create computes (event-input.ts: common post columns, the date
 * columns, flags, cost as the normalized JSON array, website NULL unless set), with realistic variety.
 */
export function generateEvent(random: Random, refs: SeedRefs, slug: ReturnType<typeof createSlugCounter>): SeedEvent {
  const times = eventTimes(random, refs.todayMs);
  const dates = dateColumns(times);
  const title = `${random.pick(SEASONS)} ${random.pick(THEMES)} ${random.pick(KINDS)}`;
  // Posted up to 120 days before the event starts, and never after now; site zone UTC (the service's default).
  const startMs = Date.parse(`${dates.start_utc.replace(' ', 'T')}Z`);
  const posted = Math.min(startMs, refs.nowMs) - random.int(60, 120 * 24 * 60) * MINUTE;
  const modified = Math.min(posted + random.int(0, 14 * 24 * 60) * MINUTE, refs.nowMs);
  const eventSlug = slug(title, 'event');
  const cost = normalizeCostInput(random.pick(COSTS)) ?? [];
  const description = random.pick(refs.descriptions);
  const excerpt = random.chance(0.3) ? random.pick(refs.excerpts) : '';
  const columns: EventColumns = {
    author_id: refs.authorId,
    status: random.chance(0.01) ? 'draft' : 'publish',
    slug: eventSlug,
    title,
    description,
    excerpt,
    search_text: searchText(description, excerpt),
    image_id: null,
    date_local: utcText(posted),
    date_utc: utcText(posted),
    modified_local: utcText(modified),
    modified_utc: utcText(modified),
    ...dates,
    password: random.chance(0.005) ? 'let-me-in' : '',
    parent_id: 0,
    cost: JSON.stringify(cost),
    website: random.chance(0.1) ? `https://example.org/events/${eventSlug}` : null,
    show_map: random.chance(0.5) ? 1 : 0,
    show_map_link: random.chance(0.5) ? 1 : 0,
    hide_from_listings: random.chance(0.002) ? 1 : 0,
    sticky: random.chance(0.01) ? 1 : 0,
    featured: random.chance(0.05) ? 1 : 0,
    venue_id: random.chance(0.9) ? random.pick(refs.venueIds) : null,
    recurrence: null,
    original_start: null,
    override: 0,
    recurrence_next: null,
  };
  return {
    columns,
    times,
    categories: random.sample(refs.categoryIds, random.int(1, 3)),
    tags: random.sample(refs.tagIds, random.int(0, 4)),
    organizers: random.sample(refs.organizerIds, random.int(0, 3)),
  };
}

/** A share of the calendar's events start weekly series (issue 12), each this many events long. */
export const SERIES_SHARE = 0.01;
export const SERIES_LENGTH = 10;

/** An event as a series' first: its rules, and its own start as its original one (as materialize stores it). */
export function asSeriesHead(event: SeedEvent): SeedEvent {
  const recurrence = JSON.stringify({ rules: [`FREQ=WEEKLY;COUNT=${SERIES_LENGTH}`] });
  return { ...event, columns: { ...event.columns, recurrence, original_start: event.columns.start_local } };
}

/**
 * The further occurrences of a weekly series whose first event got `headId`: the same columns and links, a
 * week apart in wall-clock time, each with its series as parent, as recurrence/series.ts materializes them.
 */
export function occurrencesOf(head: SeedEvent, headId: number): SeedEvent[] {
  const shifted = (wall: EventTimes['start'], weeks: number) => {
    const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day) + weeks * 7 * DAY);
    return { ...wall, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
  };
  return Array.from({ length: SERIES_LENGTH - 1 }, (_, i) => {
    const times = { ...head.times, start: shifted(head.times.start, i + 1), end: shifted(head.times.end, i + 1) };
    const dates = dateColumns(times);
    const columns: EventColumns = {
      ...head.columns, ...dates, slug: `${head.columns.slug}-${dates.start_local.slice(0, 10)}`, parent_id: headId,
      recurrence: null, original_start: dates.start_local, override: 0, recurrence_next: null,
    };
    return { ...head, times, columns };
  });
}

const ROWS_PER_STATEMENT = 500; // 32 columns: 16k parameters, under SQLite's 32766 and PostgreSQL's 65535
const LINKS_PER_STATEMENT = 5000;

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * Mirrors EventRepository.insert, setTerms and setOrganizers (src/events/event.repository.ts) for many
 * events per statement: a `post` row of type 'event' gives each id, then the `event` row with the same
 * columns, then `event_term` and `event_organizer` (organizers keep their order as `position`). The
 * repository inserts one event with four statements; 100k events that way take minutes. Run in a transaction;
 * the term counts the event service keeps (terms.recount) are the caller's to bring up to date afterwards.
 */
export async function insertEvents(db: Db, events: SeedEvent[]): Promise<number[]> {
  const ids: number[] = [];
  for (const part of chunks(events, ROWS_PER_STATEMENT)) {
    // Every post row is alike, so which returned id goes to which event does not matter.
    const rows = await db.insertInto('post').values(part.map(() => ({ type: 'event' }))).returning('id').execute();
    const partIds = rows.map((row) => row.id).sort((a, b) => a - b);
    await db.insertInto('event').values(part.map((event, i) => ({ ...event.columns, id: partIds[i] }))).execute();
    ids.push(...partIds);
  }
  const terms = events.flatMap((event, i) => [...event.categories, ...event.tags].map((term_id) => ({ event_id: ids[i], term_id })));
  for (const part of chunks(terms, LINKS_PER_STATEMENT)) await db.insertInto('event_term').values(part).execute();
  const organizers = events.flatMap((event, i) =>
    event.organizers.map((organizer_id, position) => ({ event_id: ids[i], organizer_id, position })),
  );
  for (const part of chunks(organizers, LINKS_PER_STATEMENT)) await db.insertInto('event_organizer').values(part).execute();
  return ids;
}

/**
 * Mirrors TermRepository.recount for every term at once: the published events using each term. The
 * repository's query counts one term at a time, and on SQLite its plan walks every published event for
 * each term (event_window_*_idx on status), minutes for 250 terms at 1M events; one GROUP BY is seconds.
 */
export async function recountAllTerms(db: Db): Promise<void> {
  const counts = await db
    .selectFrom('event_term')
    .innerJoin('event', 'event.id', 'event_term.event_id')
    .select(['event_term.term_id', sql<number>`count(*)`.as('n')])
    .where('event.status', '=', 'publish')
    .groupBy('event_term.term_id')
    .execute();
  for (const { term_id, n } of counts) await db.updateTable('term').set({ count: Number(n) }).where('id', '=', term_id).execute();
}
