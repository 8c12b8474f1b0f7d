import { createHash } from 'node:crypto';
import ical, { escape, ICalCalendarMethod, ICalEvent } from 'ical-generator';
import { cacheBytes, textBytes } from '../db/cache-budget.ts';
import { foldLines } from './fold.ts';
import type { FeedEntry } from '../events/event-feed.ts';
import { feedZone, toVEvent } from './feed-event.ts';
import { vtimezone } from './vtimezone.ts';

// Each VEVENT is written by the library once per content and kept: after a write, only the events it
// changed are written again (and folded by fold.ts: the library's own fold is slow).
// Bounded by size (the service runs with a small heap, see db/cache-budget.ts), the oldest going first.
const CACHE_BYTES = cacheBytes(0.1);
const vevents = new Map<string, string>();
let cachedBytes = 0;
// ICalEvent reads only the calendar's time zone (none here) from its calendar.
const bare = ical();
// Writing is synchronous: the event loop gets a turn after each batch of newly written events.
const BATCH = 100;

async function veventTexts(entries: FeedEntry[]): Promise<string[]> {
  const texts: string[] = [];
  let written = 0;
  for (const entry of entries) {
    const key = createHash('sha1').update(JSON.stringify(entry)).digest('base64');
    let text = vevents.get(key);
    if (text === undefined) {
      text = foldLines(new ICalEvent(toVEvent(entry), bare).toString());
      vevents.set(key, text);
      cachedBytes += textBytes(text);
      for (const [oldKey, oldText] of vevents) {
        if (cachedBytes <= CACHE_BYTES) break;
        vevents.delete(oldKey);
        cachedBytes -= textBytes(oldText);
      }
      if (++written % BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    texts.push(text);
  }
  return texts;
}

/** Each zone's VTIMEZONE covers the year before its first event to the year after its last. */
function zoneBlocks(entries: FeedEntry[]): string[] {
  const years = new Map<string, [number, number]>();
  for (const { record } of entries) {
    const zone = record.all_day ? null : feedZone(String(record.timezone));
    if (zone === null) continue;
    const first = Number(String(record.start_date).slice(0, 4)) - 1;
    const last = Number(String(record.end_date).slice(0, 4)) + 1;
    const known = years.get(zone);
    years.set(zone, known ? [Math.min(known[0], first), Math.max(known[1], last)] : [first, last]);
  }
  return [...years].map(([zone, [first, last]]) => vtimezone(zone, first, last));
}

/**
 * The calendar: its properties as the library writes them, then one VTIMEZONE per zone the timed events
 * use, then the events. Components come after every calendar property (RFC 5545 §3.6); the library's own
 * zone hook would write them before REFRESH-INTERVAL and X-PUBLISHED-TTL.
 */
export async function renderCalendar(entries: FeedEntry[], title: string): Promise<string> {
  const properties = ical({
    prodId: { company: 'cal-events', product: 'iCalendar feed', language: 'EN' },
    // The library writes NAME and X-WR-CALNAME as given: a title's commas and semicolons need its TEXT escape.
    name: escape(title, false),
    method: ICalCalendarMethod.PUBLISH,
    scale: 'GREGORIAN',
    ttl: 3600,
  }).toString();
  const components = [...zoneBlocks(entries), ...(await veventTexts(entries))].join('');
  // Every content line ends with CRLF, the last one too (the library leaves it off).
  return properties.replace(/END:VCALENDAR$/, `${components}END:VCALENDAR\r\n`);
}
