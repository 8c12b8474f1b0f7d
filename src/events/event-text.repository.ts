import { sql } from 'kysely';
import type { Db, Dialect } from '../db/database.ts';
import { precompiled, precompiledList } from '../db/precompiled.ts';
import { EVENT_CHECK_COLUMNS, type EventCheck } from './event.repository.ts';

/** An event's own part of its record as stored (migration 0017; events/stored-texts.ts says what it holds). */
export interface StoredText {
  event_id: number;
  revision: number;
  fingerprint: string;
  links: string;
  body: string;
  /** The body's digest (`digestTag`); null for a text stored before digests were. */
  digest: string | null;
}

/** A valid stored text with the event's checked columns, as stored beside it (migration 0019). */
export interface EventServed extends EventCheck {
  links: string;
  body: string;
  digest: string | null;
}

// Rows a statement stores at most: 6 values a row, far below either database's limit on parameters.
const MOST = 100;

export function createEventTextRepository(db: Db, dialect: Dialect) {
  const byIds = precompiledList(db, (ids) => db.selectFrom('event_text').select(STORED_COLUMNS).where('event_id', 'in', ids));
  // A single read's one statement, of one row: the text carries the event's checked columns, and is there only
  // while it is of the event's revision (migration 0019), so neither the event's row (~36 columns, ~2 kB) nor
  // its page is read. By slug, the event's id comes from the slug's index alone.
  const checked = [...SERVED_CHECKS, 'event_text.links', 'event_text.body', 'event_text.digest'] as const;
  const servedById = precompiled<EventServed>(db, () => db.selectFrom('event_text').select(checked)
    .where('event_text.event_id', '=', 0).where('event_text.fingerprint', '=', ''));
  const servedBySlug = precompiled<EventServed>(db, () => db.selectFrom('event_text').select(checked)
    .where('event_text.event_id', '=', (eb) => eb.selectFrom('event').select('event.id').where('event.slug', '=', ''))
    .where('event_text.fingerprint', '=', ''));
  // On PostgreSQL a text is stored only for an event no write holds (a write that moves its revision deletes
  // its text when it commits, and a text stored meanwhile from the revision before would outlive that), and
  // holds the event's row until it is stored (a write waits, then deletes it). Skipped, not waited for: a
  // write may hold its events in any order, and a text is only a cache.
  const locking = dialect === 'postgres' ? sql` for share of e skip locked` : sql``;
  return {
    /**
     * An event's stored text of `fingerprint`, by the event's id or (lowercase) slug, with the event's checked
     * columns, in one statement; undefined when there is none (no such event, or no valid text of it).
     */
    served: async (ref: { id: number } | { slug: string }, fingerprint: string): Promise<EventServed | undefined> =>
      ('id' in ref ? await servedById(ref.id, fingerprint) : await servedBySlug(ref.slug, fingerprint))[0],

    /** Stored texts by event id, in no particular order, whatever their revision. */
    findByIds: (ids: number[]): Promise<StoredText[]> => byIds(ids),

    /**
     * Events with ids in (afterId, throughId], and which of them have no stored text of this fingerprint: what
     * is left to store there. From indexes alone (migration 0020), not the events' rows or texts, so a walk over
     * a file whose texts are all stored reads a few bytes an event.
     */
    async unstored(fingerprint: string, afterId: number, throughId: number): Promise<number[]> {
      const rows = await db.selectFrom('event')
        .leftJoin('event_text', (join) => join.onRef('event_text.event_id', '=', 'event.id').on('event_text.fingerprint', '=', fingerprint))
        .select(['event.id', 'event_text.event_id as stored']).where('event.id', '>', afterId).where('event.id', '<=', throughId).orderBy('event.id').execute();
      return rows.filter((row) => row.stored === null).map((row) => row.id);
    },

    /** The highest event id there is (0 for none). */
    lastId: async (): Promise<number> =>
      Number((await db.selectFrom('event').select((eb) => eb.fn.max('id').as('last')).executeTakeFirst())?.last ?? 0),

    /**
     * Stores texts, each only if its revision is still the event's when the statement runs (with the event's
     * checked columns as they are at that revision): a text built from a read that a write overtook is never
     * stored over a newer one, nor for an event gone since. In id order, so two processes storing the same
     * texts take their row locks (PostgreSQL) in the same order.
     */
    async store(texts: StoredText[]): Promise<void> {
      const sorted = [...texts].sort((a, b) => a.event_id - b.event_id);
      for (let i = 0; i < sorted.length; i += MOST) {
        const rows = sorted.slice(i, i + MOST).map((t) =>
          sql`(cast(${t.event_id} as integer), cast(${t.revision} as integer), ${t.fingerprint}, ${t.links}, ${t.body}, ${t.digest})`);
        await sql`with offered(event_id, revision, fingerprint, links, body, digest) as (values ${sql.join(rows)})
          insert into event_text (event_id, revision, fingerprint, links, body, digest, slug, status, author_id, password, venue_id)
          select o.event_id, o.revision, o.fingerprint, o.links, o.body, o.digest, e.slug, e.status, e.author_id, e.password, e.venue_id
            from offered o inner join event e on e.id = o.event_id and e.revision = o.revision
            where true${locking}
          on conflict (event_id) do update set revision = excluded.revision, fingerprint = excluded.fingerprint,
            links = excluded.links, body = excluded.body, digest = excluded.digest, slug = excluded.slug,
            status = excluded.status, author_id = excluded.author_id, password = excluded.password, venue_id = excluded.venue_id`.execute(db);
      }
    },
  };
}

const STORED_COLUMNS = ['event_id', 'revision', 'fingerprint', 'links', 'body', 'digest'] as const satisfies ReadonlyArray<keyof StoredText>;
// The checked columns as the text carries them: `id` is its event's.
const SERVED_CHECKS = EVENT_CHECK_COLUMNS.map((column) => (column === 'id' ? 'event_text.event_id as id' : `event_text.${column}` as const));
