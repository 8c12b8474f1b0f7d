import type { Config } from '../config.ts';
import type { Repositories } from '../store.ts';
import type { Urls } from '../http/urls.ts';
import { toImage } from '../images/image.service.ts';
import { globalIds, recordHead } from '../linked-posts/linked-post.kind.ts';
import type { LinkedPostService } from '../linked-posts/linked-post.service.ts';
import { toEmbeddedTerm } from '../terms/term.service.ts';
import type { Taxonomy } from '../terms/term.kind.ts';
import { costDetailsEmpty, presentCost } from './cost.ts';
import { dateDetails } from './event-dates.ts';
import { eventJsonLd } from './event.json-ld.ts';
import type { EventCheck, EventRow } from './event.repository.ts';
import { isOccurrence } from '../recurrence/series.ts';

export interface RecordDeps {
  repos: Repositories;
  urls: Urls;
  config: Config;
  venues: LinkedPostService<'venue'>;
  organizers: LinkedPostService<'organizer'>;
}

export interface RecordOptions {
  single?: boolean;
  /** Events whose password protection is lifted for this caller (right password, or an editor). */
  unlocked?: (row: EventCheck) => boolean;
}

export type EventRecord = Record<string, unknown>;

/** Event records for a page of rows, built with a fixed number of queries whatever the page holds. */
export async function toEventRecords(rows: EventRow[], deps: RecordDeps, options: RecordOptions = {}): Promise<EventRecord[]> {
  const built = await buildRecords(rows, deps, options.single ?? false);
  return built.map((record, i) => (isLocked(rows[i], options) ? blanked(record) : record));
}

export const isLocked = (row: EventCheck, options: RecordOptions) => row.password !== '' && !(options.unlocked?.(row) ?? false);

const group = <T, K>(items: T[], key: (item: T) => K) => {
  const map = new Map<K, T[]>();
  for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
};

/** Terms, organizer links, venues, organizers and images are each loaded once for all the rows. */
export async function buildRecords(rows: EventRow[], deps: RecordDeps, single: boolean): Promise<EventRecord[]> {
  if (rows.length === 0) return [];
  const { repos, urls, config } = deps;
  const ids = rows.map((r) => r.id);
  const [termRows, organizerLinks] = await Promise.all([repos.events.termsOf(ids), repos.events.organizerLinksOf(ids)]);
  const venueIds = [...new Set(rows.map((r) => r.venue_id).filter((id): id is number => id !== null))];
  const organizerIds = [...new Set(organizerLinks.map((l) => l.organizer_id))];
  const imageIds = [...new Set(rows.map((r) => r.image_id).filter((id): id is number => id !== null))];
  const [venueRows, organizerRows, imageRows, imported] = await Promise.all([
    repos.venues.findByIds(venueIds),
    repos.organizers.findByIds(organizerIds),
    repos.images.findByIds(imageIds),
    repos.lineage.keysOf({ event: ids, venue: venueIds, organizer: organizerIds }),
  ]);
  const venues = new Map((await deps.venues.toRecords(venueRows, single, imported, repos)).map((v) => [v.id as number, v]));
  const organizers = new Map((await deps.organizers.toRecords(organizerRows, single, imported, repos)).map((o) => [o.id as number, o]));
  const images = new Map(imageRows.map((i) => [i.id, i]));
  const termsByEvent = group(termRows, (t) => t.event_id);
  const organizersByEvent = group(organizerLinks, (l) => l.event_id);

  return rows.map((row) => {
    const terms = (taxonomy: Taxonomy) =>
      (termsByEvent.get(row.id) ?? []).filter((t) => t.taxonomy === taxonomy).map((t) => toEmbeddedTerm(t, Number(t.count ?? 0), urls, taxonomy));
    const venue = row.venue_id !== null ? venues.get(row.venue_id) : undefined;
    const eventOrganizers = (organizersByEvent.get(row.id) ?? []).map((l) => organizers.get(l.organizer_id)).filter((o) => o !== undefined);
    return eventRecord(row, {
      categories: terms('tribe_events_cat'),
      tags: terms('post_tag'),
      venue: venue ?? [],
      organizers: eventOrganizers,
      venueJsonLd: venue?.json_ld,
      organizerJsonLds: eventOrganizers.map((o) => o.json_ld).filter(Boolean),
      image: row.image_id !== null ? images.get(row.image_id) : undefined,
      imported: imported.get(`event:${row.id}`) ?? [],
    }, { urls, config }, single);
  });
}

/**
 * What an event's record embeds: the built records (buildRecords), or markers that its text is put together
 * around (event-text.ts). The JSON-LD's location and organizers are the venue's and organizers' own JSON-LD.
 */
export interface Embedded {
  categories: unknown;
  tags: unknown;
  venue: unknown;
  organizers: unknown;
  venueJsonLd?: unknown;
  organizerJsonLds: unknown[];
  image: { id: number; url: string; extension: string } | undefined;
  imported: string[];
}

/** One event's record, in the reference's key order; `json_ld` (last) only on single reads. */
export function eventRecord(row: EventRow, embedded: Embedded, deps: { urls: Urls; config: Config }, single: boolean): EventRecord {
  const { urls, config } = deps;
  const url = urls.permalink('event', row.slug);
  const cost = JSON.parse(row.cost) as string[];
  const { id, ...head } = recordHead(row, url);
  return {
    id,
    ...globalIds(urls, row.id, embedded.imported),
    ...head,
    rest_url: `${urls.collection('events')}/${row.id}`,
    title: row.title,
    description: row.description,
    excerpt: row.excerpt,
    slug: row.slug,
    image: toImage(embedded.image),
    all_day: row.all_day === 1,
    start_date: row.start_local,
    start_date_details: dateDetails(row.start_local),
    end_date: row.end_local,
    end_date_details: dateDetails(row.end_local),
    utc_start_date: row.start_utc,
    utc_start_date_details: dateDetails(row.start_utc),
    utc_end_date: row.end_utc,
    utc_end_date_details: dateDetails(row.end_utc),
    timezone: row.timezone,
    timezone_abbr: row.timezone_abbr,
    ...presentCost(cost, config.currency),
    // Never set: the permalink, as the reference shows it.
    website: row.website ?? url,
    show_map: row.show_map === 1,
    show_map_link: row.show_map_link === 1,
    hide_from_listings: row.hide_from_listings === 1,
    sticky: row.sticky === 1,
    featured: row.featured === 1,
    categories: embedded.categories,
    tags: embedded.tags,
    venue: embedded.venue,
    organizer: embedded.organizers,
    custom_fields: [],
    recurrence: row.recurrence === null ? null : JSON.parse(row.recurrence),
    series: seriesOf(row, urls),
    ...(single ? { json_ld: eventJsonLd(row, { url, venue: embedded.venueJsonLd, organizers: embedded.organizerJsonLds, config }) } : {}),
  };
}

/** The series an event is (its rules) or belongs to (an occurrence); null for a single event. */
function seriesOf(row: EventRow, urls: Urls) {
  const id = row.recurrence !== null ? row.id : isOccurrence(row) ? row.parent_id : null;
  if (id === null) return null;
  return { id, rest_url: `${urls.collection('events')}/${id}`, original_start: row.original_start ?? row.start_local, override: row.override === 1 };
}

/** A password-protected event in a list: title, slug, dates and status stay; the rest is blanked (reference §1.1). */
export function blanked(record: EventRecord): EventRecord {
  return Object.assign({ ...record }, {
    description: '', excerpt: '', website: '', cost: '', image: false,
    all_day: null, show_map: null, show_map_link: null, hide_from_listings: null, sticky: null, featured: null,
    cost_details: { ...costDetailsEmpty() },
    categories: [], tags: [], venue: [], organizer: [], custom_fields: [],
  });
}
