import { sql } from 'kysely';
import { DateTime } from 'luxon';
import type { DbHandle } from '../src/db/create-db.ts';
import type { OrganizerTable, PostColumns, VenueTable } from '../src/db/database.ts';
import { createStore, type Repositories, type Store } from '../src/store.ts';
import { organizerKind } from '../src/organizers/organizer.kind.ts';
import { renderHtml } from '../src/posts/html.ts';
import { slugify } from '../src/posts/slug.ts';
import { nowStamp } from '../src/time/clock.ts';
import { createUserRepository } from '../src/users/user.repository.ts';
import { createUserService } from '../src/users/user.service.ts';
import { venueKind } from '../src/venues/venue.kind.ts';
import { checkDateColumns } from './event-times.ts';
import { asSeriesHead, createSlugCounter, generateEvent, occurrencesOf, SERIES_SHARE, insertEvents, recountAllTerms, type SeedRefs } from './seed-events.ts';
import {
  CATEGORY_TREE, CITIES, createRandom, FIRST_NAMES, LAST_NAMES, PLACES, type Random, rawDescriptions, SEASONS, STREETS, TAGS,
} from './vocabulary.ts';

export const VENUES = 2000;
export const ORGANIZERS = 1000;
const EVENTS_PER_TRANSACTION = 10_000;
const ORGANIZER_KINDS = ['Productions', 'Collective', 'Society', 'Events', 'Club', 'Foundation', 'Agency', 'Trust', 'Guild', 'Crew'];

export interface SeedResult {
  user: { id: number; login: string; password: string };
  events: number;
  seconds: number;
  /** CPU seconds of this process while seeding: wall time alone says little on a busy machine. */
  cpuSeconds: number;
}

type PostCommon = Omit<PostColumns, 'id'>;

/** The columns every post-like record gets on create (post-input.ts commonColumns), published now. */
function common(authorId: number, title: string, slug: string, description: string): PostCommon {
  const now = nowStamp('UTC');
  return {
    author_id: authorId, status: 'publish', slug, title, description, excerpt: '', image_id: null,
    date_local: now.local, date_utc: now.utc, modified_local: now.local, modified_utc: now.utc,
  };
}

/** Categories (a two-level tree), tags, venues and organizers, through the repositories, one by one. */
async function seedLinked(repos: Repositories, random: Random, authorId: number, descriptions: string[]) {
  const categoryIds: number[] = [];
  for (const [parent, children] of Object.entries(CATEGORY_TREE)) {
    const parentId = await repos.terms.insert({ taxonomy: 'tribe_events_cat', name: parent, slug: slugify(parent), description: '', parent_id: 0 });
    categoryIds.push(parentId);
    for (const name of children) {
      categoryIds.push(await repos.terms.insert({ taxonomy: 'tribe_events_cat', name, slug: slugify(name), description: '', parent_id: parentId }));
    }
  }
  const tagIds: number[] = [];
  for (const name of TAGS) tagIds.push(await repos.terms.insert({ taxonomy: 'post_tag', name, slug: slugify(name), description: '', parent_id: 0 }));

  const venueIds: number[] = [];
  for (let i = 0; i < VENUES; i++) {
    // Index-based names: 20 x 10 x 10 combinations, so the 2000 venues are distinct as the duplicate check wants.
    const place = CITIES[Math.floor(i / 200) % CITIES.length];
    const title = `${SEASONS[i % SEASONS.length]} ${PLACES[Math.floor(i / 20) % PLACES.length]} ${place.city}`;
    const own = venueKind.ownColumns({
      address: `${random.int(1, 200)} ${random.pick(STREETS)}`, city: place.city, country: place.country, zip: place.zip,
      state: place.province, phone: `+1 555 ${random.int(1000, 9999)}`, website: random.chance(0.5) ? `https://example.org/v/${i}` : '',
      // Nine venues in ten have coordinates, scattered up to ~20 km around their city.
      ...(random.chance(0.9) ? { geo_lat: place.lat + (random.int(-180, 180) / 1000), geo_lng: place.lng + (random.int(-250, 250) / 1000) } : {}),
    });
    venueIds.push(await repos.venues.insert({ ...common(authorId, title, slugify(title), random.pick(descriptions)), ...own } as Omit<VenueTable, 'id'>));
  }
  const organizerIds: number[] = [];
  for (let i = 0; i < ORGANIZERS; i++) {
    const first = FIRST_NAMES[i % FIRST_NAMES.length];
    const title = `${first} ${LAST_NAMES[Math.floor(i / 12) % LAST_NAMES.length]} ${ORGANIZER_KINDS[Math.floor(i / 120) % ORGANIZER_KINDS.length]}`;
    const own = organizerKind.ownColumns({ phone: `+49 30 ${random.int(100000, 999999)}`, email: `org${i}@example.org`, website: `https://example.org/o/${i}` });
    organizerIds.push(await repos.organizers.insert({ ...common(authorId, title, slugify(title), random.pick(descriptions)), ...own } as Omit<OrganizerTable, 'id'>));
  }
  return { categoryIds, tagIds, venueIds, organizerIds };
}

async function checkTermCount(store: Store, termId: number): Promise<void> {
  const before = (await store.repos.terms.findById('tribe_events_cat', termId))?.count;
  await store.transaction((repos) => repos.terms.recount([termId]));
  const after = (await store.repos.terms.findById('tribe_events_cat', termId))?.count;
  if (before !== after) throw new Error(`seed term count ${before} differs from terms.recount's ${after} (term ${termId})`);
}

/**
 * A realistic calendar: the benchmark administrator (through the user service), terms, venues and organizers
 * (through the repositories) and `count` events (batched, see insertEvents), in transactions.
 */
export async function seedCalendar(database: DbHandle, count: number, log: (line: string) => void): Promise<SeedResult> {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  // This connection only: a page cache that holds the event indexes, which random start dates hit all over.
  if (database.dialect === 'sqlite') await sql`pragma cache_size = -262144`.execute(database.db);
  const random = createRandom();
  const store = createStore(database.db, database.dialect);
  const user = await createUserService(createUserRepository(database.db)).add('bench', 'administrator', 'bench@example.org');

  const descriptions = rawDescriptions(random, 64).map(renderHtml);
  const excerpts = rawDescriptions(random, 16).map((text) => renderHtml(text.split('\n\n')[0]));
  const linked = await store.transaction((repos) => seedLinked(repos, random, user.id, descriptions));
  const now = DateTime.utc();
  const refs: SeedRefs = { authorId: user.id, ...linked, descriptions, excerpts, nowMs: now.toMillis(), todayMs: now.startOf('day').toMillis() };

  const slug = createSlugCounter();
  for (let done = 0; done < count; ) {
    const batch = Array.from({ length: Math.min(EVENTS_PER_TRANSACTION, count - done) }, () => {
      const event = generateEvent(random, refs, slug);
      return !event.times.allDay && random.chance(SERIES_SHARE) ? asSeriesHead(event) : event;
    });
    if (done === 0) checkDateColumns(batch.slice(0, 300).map((event) => event.times), 'UTC');
    // A plain transaction: store.transaction hands out repositories only, and the batches need the transaction.
    done += await database.db.transaction().execute(async (trx) => {
      const ids = await insertEvents(trx, batch);
      const occurrences = batch.flatMap((event, i) => (event.columns.recurrence ? occurrencesOf(event, ids[i]) : []));
      await insertEvents(trx, occurrences);
      return batch.length + occurrences.length;
    });
    if (count >= 200_000 && done % 100_000 === 0) log(`  seeded ${done} events (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
  // The event service recounts the terms of every event it writes (WordPress's term count); the batches do
  // not, so every term is recounted after them, then one through the repository, in a store transaction
  // (which moves the data version as every write does): its count must not change.
  await database.db.transaction().execute((trx) => recountAllTerms(trx));
  await checkTermCount(store, linked.categoryIds[0]);
  // Autovacuum would analyze the fresh tables within a minute or so; doing it now makes runs comparable.
  if (database.dialect === 'postgres') await sql`analyze`.execute(database.db);
  const cpu = process.cpuUsage(cpuStart);
  return {
    user: { id: user.id, login: user.login, password: user.password },
    events: count,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

/**
 * A database seeded by an earlier run, measured again (`--reuse`): the bench user gets a new password (the
 * old one was printed nowhere), and every event row is counted: the creates of earlier runs and the seed's
 * series occurrences among them (a seed's own count is of the events it was asked for).
 */
export async function reuseCalendar(database: DbHandle): Promise<SeedResult> {
  const user = await createUserService(createUserRepository(database.db)).resetPassword('bench');
  const { count } = await database.db.selectFrom('event').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return { user: { id: user.id, login: user.login, password: user.password }, events: Number(count), seconds: 0, cpuSeconds: 0 };
}
