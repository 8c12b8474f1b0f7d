import { DateTime, Settings, type Zone } from 'luxon';
import { nowIn } from './wall-time.ts';

export const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** A stored timestamp pair: wall-clock time in a zone, and the same instant in UTC. */
export interface Stamp {
  local: string;
  utc: string;
}

export function stampOf(instant: DateTime, zone: string): Stamp {
  return { local: writeStamp(instant.setZone(zone)), utc: writeStamp(instant.toUTC()) };
}

/** Now as a stamp pair; in a zone luxon does not know, as luxon writes an invalid time. */
export function nowStamp(zone: string): Stamp {
  const now = nowIn(zone);
  return now ? { local: now.local, utc: now.utc } : stampOf(DateTime.utc(), zone);
}

const STAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * A `yyyy-MM-dd HH:mm:ss` wall-clock text as the DateTime it is in `zone` (the default zone without one): what
 * `DateTime.fromFormat(text, SQL_FORMAT, { zone })` gives, which builds a parser for the format on every call
 * (~12 µs; a series reads and writes stamps several times an occurrence, a feed twice an event). Another shape
 * is an invalid DateTime.
 */
export function readStamp(text: string, zone?: string | Zone): DateTime {
  const parts = STAMP.exec(text);
  if (parts === null) return DateTime.invalid('unparsable', `"${text}" is not ${SQL_FORMAT}`);
  const [year, month, day, hour, minute, second] = parts.slice(1).map(Number);
  return DateTime.fromObject({ year, month, day, hour, minute, second }, zone === undefined ? {} : { zone });
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `dt` as `yyyy-MM-dd HH:mm:ss` wall-clock text in its zone: `dt.toFormat(SQL_FORMAT)` without reading the format each time. */
export function writeStamp(dt: DateTime): string {
  if (!dt.isValid || dt.year < 0 || dt.year > 9999) return dt.toFormat(SQL_FORMAT);
  return `${pad(dt.year, 4)}-${pad(dt.month)}-${pad(dt.day)} ${pad(dt.hour)}:${pad(dt.minute)}:${pad(dt.second)}`;
}

// Per zone: today's date there, and the instants its day starts and ends.
const days = new Map<string, { date: string; from: number; until: number }>();

/**
 * Today's date (`yyyy-MM-dd`) in `zone` at `nowMs`, worked out again only when `nowMs` leaves the day last
 * worked out (either way: a clock set back too). Pages key their cache by it on every request, where luxon
 * took 2 µs (UTC) to 7 µs (Europe/Berlin) each time, a tenth of a kept page's CPU in a zone with rules. `nowMs`
 * defaults to luxon's own clock (`Settings.now`), what `DateTime.now()` reads.
 */
export function todayIn(zone: string, nowMs: number = Settings.now()): string {
  const known = days.get(zone);
  if (known !== undefined && nowMs >= known.from && nowMs < known.until) return known.date;
  const now = DateTime.fromMillis(nowMs, { zone });
  const date = now.toISODate() as string;
  days.set(zone, { date, from: now.startOf('day').toMillis(), until: now.plus({ days: 1 }).startOf('day').toMillis() });
  return date;
}
