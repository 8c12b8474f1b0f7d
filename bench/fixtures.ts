import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';

/** Records the scenarios ask for, read from the seeded database so every request names something real. */
export interface Fixtures {
  /** Published, unprotected, listed events in random order: what anonymous single reads can see. */
  events: Array<{ id: number; slug: string }>;
  /** (category, venue) pairs of published events inside the default list window (today + 2 years). */
  categoryVenuePairs: Array<{ category: number; venue: number }>;
  venueIds: number[];
  organizerIds: number[];
  categoryIds: number[];
  tagIds: number[];
  /**
   * Every such event, in random order: requests spread uniformly over the whole calendar, which no cache
   * holds (at 1M, a sequence of ~900k requests, each event once before any is asked for again).
   */
  coldEvents: Array<{ id: number; slug: string }>;
  /** How many events the database holds: sizes a feed's window to about a thousand events. */
  totalEvents: number;
}

const today = () => new Date().toISOString().slice(0, 10);
const inTwoYears = () => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + 2);
  return date.toISOString().slice(0, 10);
};

export async function readFixtures(db: Db): Promise<Fixtures> {
  const visible = (limit?: number) => db
    .selectFrom('event')
    .select(['id', 'slug'])
    .where('status', '=', 'publish')
    .where('password', '=', '')
    .where('hide_from_listings', '=', 0)
    .orderBy(sql`random()`)
    .$if(limit !== undefined, (query) => query.limit(limit as number))
    .execute();
  const events = await visible(1000);
  const coldEvents = await visible();
  const pairs = await db
    .selectFrom('event')
    .innerJoin('event_term', 'event_term.event_id', 'event.id')
    .innerJoin('term', 'term.id', 'event_term.term_id')
    .select(['event_term.term_id as category', 'event.venue_id as venue'])
    .where('term.taxonomy', '=', 'tribe_events_cat')
    .where('event.status', '=', 'publish')
    .where('event.hide_from_listings', '=', 0)
    .where('event.venue_id', 'is not', null)
    .where('event.start_local', '>=', `${today()} 00:00:00`)
    .where('event.start_local', '<', `${inTwoYears()} 00:00:00`)
    .orderBy(sql`random()`)
    .limit(200)
    .execute();
  const ids = async (table: 'venue' | 'organizer') =>
    (await db.selectFrom(table).select('id').where('status', '=', 'publish').orderBy('id').execute()).map((row) => row.id);
  const terms = async (taxonomy: string) =>
    (await db.selectFrom('term').select('id').where('taxonomy', '=', taxonomy).orderBy('id').execute()).map((row) => row.id);
  return {
    events,
    coldEvents,
    categoryVenuePairs: pairs.map((pair) => ({ category: pair.category, venue: pair.venue as number })),
    venueIds: await ids('venue'),
    organizerIds: await ids('organizer'),
    categoryIds: await terms('tribe_events_cat'),
    tagIds: await terms('post_tag'),
    totalEvents: Number((await db.selectFrom('event').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n),
  };
}
