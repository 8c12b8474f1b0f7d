import { createHash } from 'node:crypto';
import type { Config } from '../config.ts';
import { digestTag } from '../http/conditional.ts';
import type { Urls } from '../http/urls.ts';
import type { Repositories } from '../store.ts';
import type { EventServed, StoredText } from './event-text.repository.ts';
import { ownText } from './event-text.ts';
import type { EventCheck, EventLinks, EventRow } from './event.repository.ts';

/**
 * Moves when this code comes to shape a record differently in a way the fingerprint's samples (below) would
 * not show: every text stored before is then built again when next read.
 */
const FORMAT = 1;

/** The own text of an event (event-text.ts), with the links it is filled from. */
export interface Own {
  own: string;
  links: Pick<EventLinks, 'categories' | 'tags' | 'organizers'>;
  /** The own text's digest, once taken (`ownDigest`): stored with the text, so a read serving it takes none. */
  digest?: string;
}

/** The digest of an own text (in the single form): what an event's entity tag is composed from. */
export const ownDigest = (own: Own): string => (own.digest ??= digestTag(own.own));

// Texts offered and not written yet at most: past this, offers are let go (a text is offered again when read).
const MOST_WAITING = 500;
// A write of the texts offered waits this long for more to join it.
const GATHER_MS = 20;

const listOf = (ids: number[]) => ids.join(',');
/** The stored form of an own text's three id lists (`1,2|3|4`: categories, tags, organizers); `linksOf` reads it. */
export const linksText = (links: Own['links']): string => `${listOf(links.categories)}|${listOf(links.tags)}|${listOf(links.organizers)}`;
const COMMA = 44;
const BAR = 124;
/**
 * The three id lists of a stored `links` (`1,2|3|4`), read digit by digit: split into strings and each made a
 * number, the short strings were looked up in V8's string table one by one (~1.5% of a cold single read).
 */
export function linksOf(text: string): Own['links'] {
  const lists: number[][] = [[], [], []];
  let list = 0;
  let id = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === COMMA || code === BAR) {
      if (id >= 0) lists[list].push(id);
      id = -1;
      if (code === BAR) list++;
    } else id = (id < 0 ? 0 : id * 10) + code - 48;
  }
  if (id >= 0) lists[list].push(id);
  return { categories: lists[0], tags: lists[1], organizers: lists[2] };
}
const parsedOwn = (body: string, links: string, digest: string | null): Own => ({ own: body, links: linksOf(links), digest: digest ?? undefined });

/**
 * Event records stored ready to serve (migration 0017): a read of an event not kept in this process's memory
 * (event-json.ts) takes its own text from the database in one statement, instead of reading its links and
 * building ~4 kB of JSON again. What the record embeds from other records (venue, organizers, terms) is not in
 * it: it is put in from memory when served, so a change to a venue leaves the texts of its events valid.
 *
 * A stored text is served only while its revision is the event's (the database moves the revision with every
 * change that can change the text, and deletes the text when it does: migration 0019) and its fingerprint is
 * this process's: what its settings (site address, currency) and code make of two sample events. It carries
 * the event's checked columns (status, password, ...), so a single read takes that one row. A text is stored
 * when it was built for a read, a few at a time after the answers (one statement for all), never in the way
 * of one.
 */
export function createStoredTexts(deps: { repos: Repositories; urls: Urls; config: Config; failed?: (error: unknown) => void }) {
  const fingerprint = fingerprintOf(deps);
  let waiting = new Map<number, StoredText>();
  let gathering: NodeJS.Timeout | undefined;
  // One write at a time, in the order asked.
  let writes: Promise<void> = Promise.resolve();
  const write = (): Promise<void> => {
    clearTimeout(gathering);
    gathering = undefined;
    writes = writes.then(async () => {
      if (waiting.size === 0) return;
      const texts = [...waiting.values()];
      waiting = new Map();
      // Only a cache: a text not stored is built again when next read.
      await deps.repos.eventTexts.store(texts).catch((error: unknown) => deps.failed?.(error));
    });
    return writes;
  };

  return {
    fingerprint,
    /** The stored own texts of these rows still valid, by event id; one statement for all. */
    async read(rows: EventCheck[]): Promise<Map<number, Own>> {
      const found = new Map<number, Own>();
      if (rows.length === 0) return found;
      const revisions = new Map(rows.map((row) => [row.id, row.revision]));
      for (const text of await deps.repos.eventTexts.findByIds([...revisions.keys()])) {
        if (text.revision !== revisions.get(text.event_id) || text.fingerprint !== fingerprint) continue;
        found.set(text.event_id, parsedOwn(text.body, text.links, text.digest));
      }
      return found;
    },
    /** The own text an event was read with (event-text.repository.ts `served`, given `fingerprint`). */
    validOwn: (served: EventServed): Own => parsedOwn(served.body, served.links, served.digest),
    /** Stores an own text built from `row` (after the answers that wait for it, with the others offered meanwhile). */
    offer(row: EventRow, built: Own): void {
      if (waiting.size >= MOST_WAITING && !waiting.has(row.id)) return;
      const { own, links } = built;
      waiting.set(row.id, {
        event_id: row.id, revision: row.revision, fingerprint, body: own, digest: ownDigest(built),
        links: linksText(links),
      });
      gathering ??= setTimeout(() => void write(), GATHER_MS).unref();
    },
    /** Writes what was offered and waits for it (and for the writes before). */
    flush: write,
  };
}

export type StoredTexts = ReturnType<typeof createStoredTexts>;

/**
 * What this process's settings and code make of two sample events (one plain, one an occurrence of a series
 * with a cost, an image and a lineage), with FORMAT: a text stored under another fingerprint is not served.
 */
function fingerprintOf(deps: { urls: Urls; config: Config }): string {
  const plain: EventRow = {
    id: 1, author_id: 1, status: 'publish', slug: 'sample', title: 'Sample', description: '<p>Sample</p>', excerpt: '',
    image_id: null, date_local: '2026-01-01 10:00:00', date_utc: '2026-01-01 10:00:00', modified_local: '2026-01-01 10:00:00',
    modified_utc: '2026-01-01 10:00:00', password: '', parent_id: 0, timezone: 'UTC', timezone_abbr: 'UTC', all_day: 0,
    start_local: '2026-02-01 18:00:00', end_local: '2026-02-01 20:00:00', start_utc: '2026-02-01 18:00:00', end_utc: '2026-02-01 20:00:00',
    cost: '[]', website: null, show_map: 1, show_map_link: 1, hide_from_listings: 0, sticky: 0, featured: 0, venue_id: null,
    search_text: 'Sample', recurrence: null, original_start: null, override: 0, recurrence_next: null, sequence: 0, revision: 0,
  };
  const occurrence: EventRow = Object.assign({}, plain, {
    id: 3, parent_id: 2, all_day: 1, cost: '["15","25"]', website: 'https://example.com/', featured: 1, image_id: 4,
    original_start: '2026-02-01 00:00:00', override: 1, timezone: 'Europe/Berlin', timezone_abbr: 'CET',
  });
  const texts = [
    ownText(plain, { links: { categories: [], tags: [], organizers: [], imported: [] }, venue: false, organizers: 0, image: undefined }, deps),
    ownText(occurrence, {
      links: { categories: [5], tags: [6], organizers: [7], imported: ['https://example.com/?id=3'] }, venue: true, organizers: 1,
      image: { id: 4, url: 'https://example.com/a.jpg', extension: 'jpg' },
    }, deps),
  ];
  return createHash('sha256').update(`${FORMAT}\0${texts.join('\0')}`).digest('base64url').slice(0, 22);
}
