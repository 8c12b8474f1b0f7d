import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { precompiled, precompiledList } from '../db/precompiled.ts';
import { EVENT_CHECK_COLUMNS, type EventCheck, type EventRow } from './event.repository.ts';

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

/** An event's checked columns with its stored text, if it has a valid one (of its revision and the fingerprint asked). */
export interface EventServed extends EventCheck {
  links: string | null;
  body: string | null;
  digest: string | null;
}

// Rows a statement stores at most: 6 values a row, far below either database's limit on parameters.
const MOST = 100;

export function createEventTextRepository(db: Db) {
  const byIds = precompiledList(db, (ids) => db.selectFrom('event_text').selectAll().where('event_id', 'in', ids));
  // A single read's one statement: the row's few checked columns, not its ~36 (which cost twice as much to read
  // as these with the text), and the text beside them rather than in a statement of its own; only a text of
  // the event's revision and the fingerprint asked for joins, so no column is read to check it (each column a
  // row returns is set on it one by one through V8's API, ~1 us apiece).
  const servedBy = (key: 'id' | 'slug') => precompiled<EventServed>(db, () => db.selectFrom('event')
    .leftJoin('event_text', (join) => join.onRef('event_text.event_id', '=', 'event.id')
      .onRef('event_text.revision', '=', 'event.revision').on('event_text.fingerprint', '=', ''))
    .select([...EVENT_CHECK_COLUMNS.map((column) => `event.${column}` as const), 'event_text.links', 'event_text.body', 'event_text.digest'])
    .where(key === 'id' ? 'event.id' : 'event.slug', '=', key === 'id' ? 0 : ''));
  const servedById = servedBy('id');
  const servedBySlug = servedBy('slug');
  return {
    /**
     * An event by id or (lowercase) slug with its stored text if one of its revision and `fingerprint` is
     * there, in one statement; undefined when there is no such event.
     */
    served: async (ref: { id: number } | { slug: string }, fingerprint: string): Promise<EventServed | undefined> =>
      ('id' in ref ? await servedById(fingerprint, ref.id) : await servedBySlug(fingerprint, ref.slug))[0],

    /** Stored texts by event id, in no particular order, whatever their revision. */
    findByIds: (ids: number[]): Promise<StoredText[]> => byIds(ids),

    /**
     * Events with ids in (afterId, throughId] with no stored text of their revision and this fingerprint, but
     * those in the trash (never served): what is left to store there. A range of ids, so one statement reads
     * no more than it holds (on SQLite a statement holds the process until it is done).
     */
    missing: (fingerprint: string, afterId: number, throughId: number): Promise<EventRow[]> =>
      db.selectFrom('event')
        .leftJoin('event_text', (join) => join.onRef('event_text.event_id', '=', 'event.id')
          .onRef('event_text.revision', '=', 'event.revision').on('event_text.fingerprint', '=', fingerprint))
        .selectAll('event').where('event_text.event_id', 'is', null).where('event.id', '>', afterId).where('event.id', '<=', throughId)
        .where('event.status', '!=', 'trash').orderBy('event.id').execute(),

    /** The highest event id there is (0 for none). */
    lastId: async (): Promise<number> =>
      Number((await db.selectFrom('event').select((eb) => eb.fn.max('id').as('last')).executeTakeFirst())?.last ?? 0),

    /**
     * Stores texts, each only if its revision is still the event's when the statement runs: a text built
     * from a read that a write overtook is never stored over a newer one, nor for an event gone since. In
     * id order, so two processes storing the same texts take their row locks (PostgreSQL) in the same order.
     */
    async store(texts: StoredText[]): Promise<void> {
      const sorted = [...texts].sort((a, b) => a.event_id - b.event_id);
      for (let i = 0; i < sorted.length; i += MOST) {
        const rows = sorted.slice(i, i + MOST).map((t) =>
          sql`(cast(${t.event_id} as integer), cast(${t.revision} as integer), ${t.fingerprint}, ${t.links}, ${t.body}, ${t.digest})`);
        await sql`with offered(event_id, revision, fingerprint, links, body, digest) as (values ${sql.join(rows)})
          insert into event_text (event_id, revision, fingerprint, links, body, digest)
          select o.event_id, o.revision, o.fingerprint, o.links, o.body, o.digest
            from offered o inner join event e on e.id = o.event_id and e.revision = o.revision
            where true
          on conflict (event_id) do update set revision = excluded.revision, fingerprint = excluded.fingerprint,
            links = excluded.links, body = excluded.body, digest = excluded.digest`.execute(db);
      }
    },
  };
}
