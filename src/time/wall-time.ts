import { Info, Settings, type Zone } from 'luxon';

/**
 * Wall-clock times placed in a zone with luxon's own arithmetic on plain numbers, for the two places every
 * write goes through: the event's two dates and the write's `now`. Luxon makes a DateTime (an object of
 * objects, its fields worked out again) at every step: an event's two dates took ~30 µs in Europe/Berlin,
 * ~5% of an event create. Here they take the same zone offsets (zone-offsets.ts keeps them by day) and the
 * same steps, so they give the same instants; anything else goes the general way.
 */

// The form nearly every client sends: a date and a wall time (seconds optional).
const PLAIN = /^(\d{4})-(\d{2})-(\d{2})[ t](\d{2}):(\d{2})(?::(\d{2}))?$/;
/** Year, month, day, hour, minute and second of a (lower-cased) text of the plain form; null for any other. */
export const plainFields = (text: string): number[] | null => PLAIN.exec(text)?.slice(1).map((part) => Number(part ?? 0)) ?? null;

const MINUTE = 60_000;
// The years the zone offsets are kept for (zone-offsets.ts): beyond them the general path is as fast.
const FIRST_YEAR = 1970;
const LAST_YEAR = 2199;

/** A wall-clock time placed in its zone: its texts (`yyyy-MM-dd HH:mm:ss`), its instant and its offset. */
export interface PlacedTime {
  local: string;
  utc: string;
  /** Milliseconds since the epoch. */
  millis: number;
  /** Minutes east of UTC. */
  offset: number;
  /** The local year (what the zone's abbreviation is kept by, zone-abbr.ts). */
  year: number;
  zoneName: string;
}

/**
 * Luxon's `fixOffset`: the instant of a local time (`local`, its fields as if UTC) given a guessed offset.
 * In a gap the time moves forward; of a time that comes twice, the one the guess is nearer is taken.
 */
function fixOffset(local: number, guess: number, zone: Zone): [number, number] {
  let utc = local - guess * MINUTE;
  const second = zone.offset(utc);
  if (second === guess) return [utc, guess];
  utc -= (second - guess) * MINUTE;
  const third = zone.offset(utc);
  if (second === third) return [utc, second];
  return [local - Math.min(second, third) * MINUTE, Math.max(second, third)];
}

/** The UTC fields of `millis` as `yyyy-MM-dd HH:mm:ss` (years 0-9999). */
const stampText = (millis: number) => {
  const iso = new Date(millis).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
};

const placed = (millis: number, offset: number, zone: Zone): PlacedTime => {
  const local = millis + offset * MINUTE;
  return { local: stampText(local), utc: stampText(millis), millis, offset, year: new Date(local).getUTCFullYear(), zoneName: zone.name };
};

const isLeap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
/** Days in a month (1-12) of a year of the proleptic Gregorian calendar. */
export const daysIn = (year: number, month: number) => (month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/**
 * A date written the plain way (`2026-05-01 19:00`, seconds optional) placed in `zoneName` as parseDate places
 * it (time/parse-date.ts: the day's start, then the time, each step as luxon's fromObject and set take it);
 * undefined for any other text, a zone luxon does not know, a year outside 1970-2199, or a time the plain path
 * would not take (a day the month lacks, a time the clocks skip): parseDate reads those.
 */
export function placeWallTime(input: string, zoneName: string): PlacedTime | undefined {
  const plain = plainFields(input.trim().toLowerCase().replace(/\s+/g, ' '));
  if (!plain) return undefined;
  const [year, month, day, hour, minute, second] = plain;
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const zone = Info.normalizeZone(zoneName);
  if (!zone.isValid) return undefined;
  // fromObject guesses the offset of now; set, the offset of the day's start.
  const [dayStart, dayOffset] = fixOffset(Date.UTC(year, month - 1, day), zone.offset(Settings.now()), zone);
  const startFields = new Date(dayStart + dayOffset * MINUTE);
  const local = Date.UTC(startFields.getUTCFullYear(), startFields.getUTCMonth(), startFields.getUTCDate(), hour, minute, second);
  const [millis, offset] = fixOffset(local, dayOffset, zone);
  const fields = new Date(millis + offset * MINUTE);
  // What parseDate checks before it keeps the plain reading (a time moved out of a gap is not what was written).
  if (fields.getUTCDate() !== day || fields.getUTCMonth() !== month - 1 || fields.getUTCHours() !== hour || fields.getUTCMinutes() !== minute) return undefined;
  return placed(millis, offset, zone);
}

/** Now in `zoneName`, as `DateTime.utc().setZone(zoneName)` places it; undefined for a zone luxon does not know. */
export function nowIn(zoneName: string): PlacedTime | undefined {
  const zone = Info.normalizeZone(zoneName);
  if (!zone.isValid) return undefined;
  const millis = Settings.now();
  return placed(millis, zone.offset(millis), zone);
}
