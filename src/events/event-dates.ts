import { DateTime } from 'luxon';
import { isIanaZone } from '../time/iana-zone.ts';
import { invalidParam } from '../errors.ts';
import { readStamp, writeStamp } from '../time/clock.ts';
import { parseDate } from '../time/parse-date.ts';
import { zoneAbbreviation } from '../time/zone-abbr.ts';
import { placeWallTime } from '../time/wall-time.ts';
import type { EventColumns, EventRow } from './event.repository.ts';

export interface DateInput {
  start_date?: string;
  end_date?: string;
  timezone?: string;
  all_day?: boolean;
}

type DateColumns = Pick<
  EventColumns,
  'timezone' | 'timezone_abbr' | 'all_day' | 'start_local' | 'end_local' | 'start_utc' | 'end_utc'
>;

/**
 * An event's times (reference §5.2): dates are wall-clock time in the event's zone (the site's when none is
 * given); all-day events run from 00:00:00 of the first day to 23:59:59 of the last; an end before the start
 * becomes the start. On update, what was not sent keeps its stored wall-clock value, so a new time zone
 * keeps the local times and moves the instants. Returns nothing when nothing about the times was sent.
 */
export function eventDateColumns(input: DateInput, existing: EventRow | undefined, siteZone: string): DateColumns | undefined {
  const sent = input.start_date !== undefined || input.end_date !== undefined || input.timezone !== undefined || input.all_day !== undefined;
  if (existing && !sent) return undefined;

  const timezone = input.timezone === undefined ? (existing?.timezone ?? siteZone) : zoneName(input.timezone || siteZone);
  const allDay = input.all_day ?? existing?.all_day === 1;
  const placed = !allDay && input.start_date !== undefined && input.end_date !== undefined ? placedDates(input.start_date, input.end_date, timezone) : undefined;
  if (placed) return placed;
  const now = DateTime.utc();
  const read = (param: 'start_date' | 'end_date', stored: string | undefined): DateTime => {
    const value = input[param];
    if (value !== undefined) {
      const parsed = parseDate(value, { zone: timezone, now });
      if (!parsed) throw invalidParam(param);
      return parsed.value;
    }
    return readStamp(stored as string, timezone);
  };
  let start = read('start_date', existing?.start_local);
  let end = read('end_date', existing?.end_local);
  if (allDay) {
    start = start.startOf('day');
    end = end.endOf('day').set({ millisecond: 0 });
  }
  if (end < start) end = start;
  return {
    timezone,
    timezone_abbr: zoneAbbreviation(start),
    all_day: allDay ? 1 : 0,
    start_local: writeStamp(start),
    end_local: writeStamp(end),
    start_utc: writeStamp(start.toUTC()),
    end_utc: writeStamp(end.toUTC()),
  };
}

/**
 * Both dates of a timed event when both are written the plain way (nearly every write): placed without a
 * DateTime (time/wall-time.ts), as the general path would place them. Undefined when either is not.
 */
function placedDates(startDate: string, endDate: string, timezone: string): DateColumns | undefined {
  const start = placeWallTime(startDate, timezone);
  const placedEnd = start && placeWallTime(endDate, timezone);
  if (!start || !placedEnd) return undefined;
  const end = placedEnd.millis < start.millis ? start : placedEnd;
  return {
    timezone,
    timezone_abbr: zoneAbbreviation(start),
    all_day: 0,
    start_local: start.local,
    end_local: end.local,
    start_utc: start.utc,
    end_utc: end.utc,
  };
}

/**
 * Zone names match in any case (`america/new_york`), but records show the IANA spelling. Only the case is
 * fixed: a link such as `US/Eastern` stays as sent, and offsets (`UTC+5`) are not IANA names.
 */
function zoneName(zone: string): string {
  let name = zoneNames.get(zone);
  if (name === undefined) {
    const canonical = isIanaZone(zone) ? new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone : zone;
    name = canonical.toLowerCase() === zone.toLowerCase() ? canonical : zone;
    zoneNames.set(zone, name);
  }
  return name;
}
// Each Intl lookup costs tens of µs; there are a few hundred zone names at most.
const zoneNames = new Map<string, string>();

/** `{year, month, day, hour, minutes, seconds}` of a stored `YYYY-MM-DD HH:MM:SS`, as zero-padded strings. */
export function dateDetails(text: string) {
  return {
    year: text.slice(0, 4),
    month: text.slice(5, 7),
    day: text.slice(8, 10),
    hour: text.slice(11, 13),
    minutes: text.slice(14, 16),
    seconds: text.slice(17, 19),
  };
}

/** ISO 8601 with the event's offset, for json_ld: always numeric (`+00:00`, never `Z`), as PHP's `c` writes it. */
export function isoWithOffset(local: string, utc: string): string {
  // The stored pair already fixes the offset: no time-zone lookup on the read path.
  const minutes = Math.round((Date.parse(`${local.replace(' ', 'T')}Z`) - Date.parse(`${utc.replace(' ', 'T')}Z`)) / 60000);
  const sign = minutes < 0 ? '-' : '+';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${local.replace(' ', 'T')}${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}
