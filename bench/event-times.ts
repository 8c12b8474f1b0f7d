import { DateTime } from 'luxon';
import type { EventColumns } from '../src/events/event.repository.ts';
import { eventDateColumns } from '../src/events/event-dates.ts';
import { zoneAbbreviation } from '../src/time/zone-abbr.ts';

export type DateColumns = Pick<EventColumns, 'timezone' | 'timezone_abbr' | 'all_day' | 'start_local' | 'end_local' | 'start_utc' | 'end_utc'>;

/** Wall-clock time in the event's zone, as an editor enters it. */
export interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

export interface EventTimes {
  zone: string;
  start: Wall;
  end: Wall;
  allDay: boolean;
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
/** `YYYY-MM-DD HH:MM:SS` without Luxon's toFormat, which costs about 40 µs a call. */
export const sqlText = (dt: DateTime) =>
  `${dt.year}-${pad(dt.month)}-${pad(dt.day)} ${pad(dt.hour)}:${pad(dt.minute)}:${pad(dt.second)}`;
export const wallText = (w: Wall) => `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:00`;

const abbreviations = new Map<string, string>();
/** Offsets (minutes) at 00:00:00 and 23:59:59 local of a zone's day: equal unless DST changes that day. */
const dayOffsets = new Map<string, [number, number]>();

function offsetsOf(zone: string, w: Wall): [number, number] {
  const key = `${zone} ${w.year} ${w.month} ${w.day}`;
  let offsets = dayOffsets.get(key);
  if (!offsets) {
    const day = DateTime.fromObject({ year: w.year, month: w.month, day: w.day }, { zone });
    dayOffsets.set(key, (offsets = [day.offset, day.endOf('day').offset]));
  }
  return offsets;
}

const wallMs = (w: Wall, second = 0) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, second);
const msText = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/**
 * The date columns `eventDateColumns` (src/events/event-dates.ts) computes for a create with these times,
 * computed its way: wall-clock time in the event's zone, all-day from 00:00:00 to 23:59:59, an end before
 * the start becomes the start, the abbreviation at the start. A mirror for speed only: `eventDateColumns`
 * costs about 1 ms an event (strtotime-like parsing, Intl formatters made per call), 100 s for 100k
 * events, and Luxon's zone offsets alone 80 µs; this caches one offset per zone and day (Luxon's, on the
 * few days DST changes), about 5 µs. `checkDateColumns` compares both on a sample of every seed.
 */
export function dateColumns(times: EventTimes): DateColumns {
  const { zone, allDay } = times;
  const startWall = allDay ? { ...times.start, hour: 0, minute: 0 } : times.start;
  const endWall = allDay ? { ...times.end, hour: 23, minute: 59 } : times.end;
  const endSecond = allDay ? 59 : 0;
  const [startOffset, startDayEnd] = offsetsOf(zone, startWall);
  const [endDayStart, endOffset] = offsetsOf(zone, endWall);
  if (startOffset !== startDayEnd || endDayStart !== endOffset) return luxonDateColumns(times);
  let startLocal = wallMs(startWall);
  let endLocal = wallMs(endWall, endSecond);
  let endUtc = endLocal - endOffset * 60_000;
  const startUtc = startLocal - startOffset * 60_000;
  if (endUtc < startUtc) [endLocal, endUtc] = [startLocal, startUtc];
  return {
    timezone: zone,
    timezone_abbr: abbreviation(zone, startOffset, () => DateTime.fromMillis(startUtc, { zone })),
    all_day: allDay ? 1 : 0,
    start_local: msText(startLocal),
    end_local: msText(endLocal),
    start_utc: msText(startUtc),
    end_utc: msText(endUtc),
  };
}

// An abbreviation depends on the zone and its offset at that instant (CET or CEST): a handful per seed.
function abbreviation(zone: string, offset: number, instant: () => DateTime): string {
  const key = `${zone} ${offset}`;
  let abbr = abbreviations.get(key);
  if (abbr === undefined) abbreviations.set(key, (abbr = zoneAbbreviation(instant())));
  return abbr;
}

/** The same, all through Luxon: for days on which the offset changes. */
function luxonDateColumns({ zone, start: startWall, end: endWall, allDay }: EventTimes): DateColumns {
  let start = DateTime.fromObject(startWall, { zone });
  let end = DateTime.fromObject(endWall, { zone });
  if (allDay) {
    start = start.startOf('day');
    end = end.endOf('day').set({ millisecond: 0 });
  }
  if (end < start) end = start;
  return {
    timezone: zone,
    timezone_abbr: abbreviation(zone, start.offset, () => start),
    all_day: allDay ? 1 : 0,
    start_local: sqlText(start),
    end_local: sqlText(end),
    start_utc: sqlText(start.toUTC()),
    end_utc: sqlText(end.toUTC()),
  };
}

// Days on which the offset changes (2026), where dateColumns takes the Luxon path: always checked.
const DST_DAYS: Array<[string, number, number]> = [
  ['Europe/Berlin', 3, 29], ['Europe/Berlin', 10, 25], ['America/New_York', 3, 8], ['America/New_York', 11, 1],
  ['Australia/Sydney', 4, 5], ['Australia/Sydney', 10, 4],
];
const wallOf = (ms: number, hour: number, minute: number): Wall => {
  const date = new Date(ms);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour, minute };
};
/** Timed from the day before to the day, and all-day from the day before to the day after. */
const dstSamples = (): EventTimes[] =>
  DST_DAYS.flatMap(([zone, month, day]) => [true, false].map((allDay) => ({
    zone,
    allDay,
    start: wallOf(Date.UTC(2026, month - 1, day - 1), 10, 0),
    end: wallOf(Date.UTC(2026, month - 1, day + (allDay ? 1 : 0)), 11, 30),
  })));

/** Throws unless `dateColumns` gives exactly what the service's own `eventDateColumns` gives. */
export function checkDateColumns(samples: EventTimes[], siteZone: string): void {
  for (const times of [...samples, ...dstSamples()]) {
    const input = { start_date: wallText(times.start), end_date: wallText(times.end), timezone: times.zone, all_day: times.allDay };
    const expected = JSON.stringify(eventDateColumns(input, undefined, siteZone));
    const actual = JSON.stringify(dateColumns(times));
    if (expected !== actual) {
      throw new Error(`seed date columns differ from eventDateColumns for ${JSON.stringify(input)}:\n  service ${expected}\n  seed    ${actual}`);
    }
  }
}
