import { getHeapStatistics } from 'node:v8';

/**
 * How much the caches of this process may hold, as shares of its heap. `npm start` runs with a 128 MB heap;
 * caches bounded only by count outgrew it (100k events, cold reads of pages after cold reads of records: the
 * process died out of memory with 113 MB live). All caches of text together get under a third of the heap, the
 * rest is for requests in flight; on a larger heap they keep more, up to their own count limits. At 0.35 two
 * of four full `npm run bench` runs died in the feed scenario (122 MB live: every cache full after the pages, a
 * thousand-event feed being built).
 */
const CACHES_SHARE_OF_HEAP = 0.3;
const heapBytes = getHeapStatistics().heap_size_limit;

/**
 * The bytes a cache may hold: `share` of what all caches together may. Given now: event records 0.3, the
 * venues and the organizers (as text, for the events that embed them and for lists) 0.1 each (all of them at
 * 100k events with 3000 of these: every cold read embeds some), event rows 0.1, rendered pages 0.25 (as UTF-8
 * bytes, off the heap: ~1500 event pages), iCalendar VEVENT texts 0.1, the pages of venue, organizer, category
 * and tag lists 0.01 each (db/read-cache.ts); the rest is the small caches' margin.
 */
export const cacheBytes = (share: number): number => Math.floor(heapBytes * CACHES_SHARE_OF_HEAP * share);

// V8 keeps a string one byte a character when every character is Latin-1, else two.
const WIDE = /[^\u0000-\u00ff]/;

/** The bytes a string takes in the heap (its characters; object headers are left to the shares' margin). */
export const textBytes = (text: string | null | undefined): number => (text ? (WIDE.test(text) ? 2 : 1) * text.length : 0);
