import type { Fixtures } from './fixtures.ts';
import { CITIES, createRandom, THEMES, ZONES } from './vocabulary.ts';

/** One request as the load worker sends it; `__N__` in a body becomes a number unique to the run. */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: ScenarioName;
  title: string;
  /** Sent in turn by every connection, over and over. */
  sequence: BenchRequest[];
}

export const SCENARIOS = [
  'single-id', 'single-id-cold', 'single-slug', 'list', 'list-filtered', 'search', 'date-window', 'venues', 'categories', 'create', 'mix',
  'event-page', 'event-page-cold', 'month-view', 'feed', 'geo-radius', 'list-series-first', 'list-cold',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];
/** What `--scale` runs at each size: the list and the single reads. */
export const SCALE_SCENARIOS: ScenarioName[] = ['single-id', 'single-id-cold', 'single-slug', 'list'];

const API = '/cal/events/v1';
const get = (path: string): BenchRequest => ({ method: 'GET', path: `${API}${path}` });
const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function buildScenarios(fx: Fixtures, authorization: string): Record<ScenarioName, Scenario> {
  const random = createRandom(7);
  const now = Date.now();
  if (fx.events.length === 0 || fx.categoryVenuePairs.length === 0) throw new Error('the seeded database has no listed events to ask for');

  const creates = Array.from({ length: 100 }, (): BenchRequest => {
    const start = now + random.int(1, 365) * DAY;
    const hour = random.int(9, 20);
    const body = {
      title: `Bench __N__ ${random.pick(THEMES)} Night`,
      description: 'A benchmark event.\n\nWith two paragraphs and <em>some</em> markup.',
      start_date: `${day(start)} ${String(hour).padStart(2, '0')}:00:00`,
      end_date: `${day(start)} ${hour + 2}:30:00`,
      timezone: random.pick(ZONES),
      venue: random.pick(fx.venueIds),
      organizer: random.sample(fx.organizerIds, random.int(1, 2)),
      categories: random.sample(fx.categoryIds, random.int(1, 3)),
      tags: random.sample(fx.tagIds, random.int(0, 3)),
      cost: random.pick(['10', '15 - 25', 'Free']),
      featured: random.chance(0.1),
      status: 'publish',
    };
    return {
      method: 'POST',
      path: `${API}/events`,
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    };
  });

  const byId = fx.events.map((event) => get(`/events/${event.id}`));
  const bySlug = fx.events.map((event) => get(`/events/by-slug/${encodeURIComponent(event.slug)}`));
  const filtered = fx.categoryVenuePairs.map((pair) => get(`/events?categories=${pair.category}&venue=${pair.venue}`));
  const windows = Array.from({ length: 200 }, () => {
    const from = now + random.int(-540, 533) * DAY;
    return get(`/events?start_date=${day(from)}%2010:00:00&end_date=${day(from + 7 * DAY)}%2010:00:00&strict_dates=true`);
  });
  const list = get('/events');
  // Every day of the seeded three years, each one's first page, in a shuffled order: a crawler's or a calendar
  // app's reads, spread over far more pages (and records) than any cache keeps.
  const days = Array.from({ length: 1097 }, (_, i) => get(`/events?start_date=${day(now + (i - 548) * DAY)}&end_date=${day(now + (i - 548) * DAY)}%2023:59:59&strict_dates=true`));
  for (let i = days.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [days[i], days[j]] = [days[j], days[i]];
  }
  // Within 10 km of a point near each city, nearest first: the index's box, then the exact distance.
  const nearby = Array.from({ length: 50 }, (_, i) => {
    const city = CITIES[i % CITIES.length];
    const lat = (city.lat + random.int(-50, 50) / 1000).toFixed(4);
    const lng = (city.lng + random.int(-50, 50) / 1000).toFixed(4);
    return get(`/events?geoloc_lat=${lat}&geoloc_lng=${lng}&geoloc_radius=10&orderby=distance`);
  });
  // The list with each recurring series once (its first matching occurrence), from 20 days over the next year.
  const seriesFirst = Array.from({ length: 20 }, (_, i) => get(`/events?hide_subsequent_recurrences=true&start_date=${day(now + i * 18 * DAY)}`));
  const page = (path: string): BenchRequest => ({ method: 'GET', path });
  const eventPages = fx.events.map((event) => page(`/event/${encodeURIComponent(event.slug)}/`));
  const coldPages = fx.coldEvents.map((event) => page(`/event/${encodeURIComponent(event.slug)}/`));
  // The twelve months from now on: a busy calendar's month holds thousands of events.
  const months = Array.from({ length: 12 }, (_, i) => {
    const at = new Date(now);
    at.setUTCDate(1);
    at.setUTCMonth(at.getUTCMonth() + i);
    return page(`/events/month/${at.toISOString().slice(0, 7)}/`);
  });
  // About a thousand events: eleven days of a calendar of 100k events over three years.
  const feedDays = Math.max(1, Math.round((11 * 100_000) / Math.max(fx.totalEvents, 1)));
  const feeds = Array.from({ length: 20 }, (_, i) => {
    const from = now + (i * 13 - 100) * DAY;
    return page(`/events/?ical=1&start_date=${day(from)}&end_date=${day(from + (feedDays - 1) * DAY)}`);
  });

  // 90/10 in one run: nine reads shaped like a calendar's traffic (mostly single events and the list), one create.
  const mix: BenchRequest[] = [];
  for (let i = 0; i < 100; i++) {
    mix.push(byId[(3 * i) % byId.length], bySlug[i % bySlug.length], list, byId[(3 * i + 1) % byId.length], filtered[i % filtered.length]);
    mix.push(list, byId[(3 * i + 2) % byId.length], windows[i % windows.length], bySlug[(i + 500) % bySlug.length], creates[i]);
  }

  const scenario = (name: ScenarioName, title: string, sequence: BenchRequest[]): Scenario => ({ name, title, sequence });
  return {
    'single-id': scenario('single-id', 'GET /events/{id} (1000 ids in turn)', byId),
    'single-id-cold': scenario('single-id-cold', 'GET /events/{id} (every readable event, in random order: no cache helps)', fx.coldEvents.map((event) => get(`/events/${event.id}`))),
    'single-slug': scenario('single-slug', 'GET /events/by-slug/{slug} (1000 slugs in turn)', bySlug),
    list: scenario('list', 'GET /events (default: from today, 10 per page)', [list]),
    'list-filtered': scenario('list-filtered', 'GET /events?categories=…&venue=… (200 pairs)', filtered),
    'list-cold': scenario('list-cold', 'GET /events?start_date&end_date&strict_dates (every day of the three years, shuffled: no cache helps)', days),
    search: scenario('search', 'GET /events?search=<word> (30 words)', THEMES.map((word) => get(`/events?search=${word.toLowerCase()}`))),
    'date-window': scenario('date-window', 'GET /events?start_date&end_date&strict_dates (200 weeks)', windows),
    venues: scenario('venues', 'GET /venues?page=1..5', [1, 2, 3, 4, 5].map((page) => get(`/venues?page=${page}`))),
    categories: scenario('categories', 'GET /categories?page=1..5', [1, 2, 3, 4, 5].map((page) => get(`/categories?page=${page}`))),
    create: scenario('create', 'POST /events (venue, organizers, terms)', creates),
    mix: scenario('mix', '90% reads / 10% POST /events', mix),
    'event-page': scenario('event-page', 'GET /event/{slug}/ (HTML page, 1000 slugs in turn)', eventPages),
    'event-page-cold': scenario('event-page-cold', 'GET /event/{slug}/ (every readable event, in random order: no cache helps)', coldPages),
    'month-view': scenario('month-view', 'GET /events/month/YYYY-MM/ (HTML month grid, 12 months)', months),
    feed: scenario('feed', 'GET /events/?ical=1&start_date&end_date (iCalendar, ~1000 events, 20 windows)', feeds),
    'list-series-first': scenario('list-series-first', 'GET /events?hide_subsequent_recurrences=true&start_date=… (20 days; 1% of events start a weekly series of 10)', seriesFirst),
    'geo-radius': scenario('geo-radius', 'GET /events?geoloc_lat&geoloc_lng&geoloc_radius=10&orderby=distance (50 centres)', nearby),
  };
}
