import { DateTime, Settings } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { eventDateColumns } from '../../src/events/event-dates.ts';
import { stampOf, nowStamp, writeStamp } from '../../src/time/clock.ts';
import { parseDate } from '../../src/time/parse-date.ts';
import { placeWallTime } from '../../src/time/wall-time.ts';
import { zoneAbbreviation } from '../../src/time/zone-abbr.ts';
import { rememberZoneOffsets } from '../../src/time/zone-offsets.ts';

// DST at 2:00 and at 0:00 (Santiago: no midnight once a year; Havana: midnight twice), half-hour DST, odd offsets, a skipped day
// (Apia, 2011-12-30), no DST, UTC, a fixed offset, a link, and names luxon does not know.
const ZONES = ['America/New_York', 'Europe/Berlin', 'America/Santiago', 'America/Havana', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Apia', 'Asia/Tokyo', 'UTC', 'UTC+5', 'US/Eastern', 'Mars/Olympus', 'utc'];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
// Transition days of 2026 (and of 2011 in Apia, and Santiago's of 2026-09-06), and days far from any.
const TRANSITION_DAYS = ['2026-03-08', '2026-03-29', '2026-04-05', '2026-09-06', '2026-10-04', '2026-11-01', '2011-12-29', '2011-12-30', '2011-12-31'];
const QUIET_DAYS = ['2026-01-15', '2026-06-15', '2030-07-04', '1999-12-31'];
// "Now" in winter and in summer on either side of the equator: luxon's first guess of an offset is now's.
const NOWS = [Date.UTC(2026, 0, 10, 12), Date.UTC(2026, 6, 10, 12), Date.UTC(2026, 2, 29, 1, 30)];

/** Wall times every 7 minutes across each day, odd field values, the other spellings and the years out of range. */
function texts(days: string[]): string[] {
  const out: string[] = [];
  for (const day of days) for (let minute = 0; minute < 24 * 60; minute += 7) out.push(`${day} ${pad(Math.floor(minute / 60))}:${pad(minute % 60)}:${pad(minute % 60)}`);
  for (const field of [0, 1, 12, 13, 23, 24, 28, 29, 30, 31, 32, 59, 60, 99]) {
    out.push(`2024-02-${pad(field)} 10:00:00`, `2025-${pad(field)}-15 10:00:00`, `2025-06-15 ${pad(field)}:00:00`, `2025-06-15 10:${pad(field)}:00`, `2025-06-15 10:00:${pad(field)}`);
  }
  return [...out, '1969-12-31 23:59:59', '1970-01-01 00:00:00', '2199-12-31 23:59:59', '2200-01-01 00:00:00', '2026-01-05T10:00', ' 2026-01-05  10:00 ', '2026-1-05 10:00:00', 'tomorrow 10:00', ''];
}

afterEach(() => {
  Settings.now = () => Date.now();
});

describe('wall times placed without a DateTime (time/wall-time.ts)', () => {
  rememberZoneOffsets();

  // Every plain time of many days in many zones, each compared with parseDate: 10-11 s in CI on a quick machine,
  // 22 s with its cores shared, past the suite's 20 s (it failed so). Its own bound, as the process suites have.
  it('places every plain date where parseDate does, gaps, overlaps and skipped days included, or leaves it to parseDate', { timeout: 120_000 }, () => {
    let placed = 0;
    for (const now of NOWS) {
      Settings.now = () => now;
      for (const zone of ZONES) {
        for (const text of texts([...TRANSITION_DAYS, ...QUIET_DAYS])) {
          const fast = placeWallTime(text, zone);
          if (fast === undefined) continue;
          placed++;
          const parsed = parseDate(text, { zone, now: DateTime.fromMillis(now, { zone: 'UTC' }) });
          const value = parsed?.value;
          expect(value?.isValid, `${text} in ${zone}`).toBe(true);
          expect([text, zone, fast.millis, fast.offset, fast.local, fast.utc, fast.year, fast.zoneName]).toEqual(
            [text, zone, value?.toMillis(), value?.offset, value && writeStamp(value), value && writeStamp(value.toUTC()), value?.year, value?.zoneName],
          );
        }
      }
    }
    // Not a path taken by chance: most of these texts are plain times in zones luxon knows.
    expect(placed).toBeGreaterThan(NOWS.length * 9 * 13 * 200);
  });

  it('takes every plain time of a day without a transition, and nothing luxon could not place', () => {
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'UTC', 'UTC+5']) {
      for (const text of texts(QUIET_DAYS).slice(0, QUIET_DAYS.length * 206)) expect(placeWallTime(text, zone), `${text} in ${zone}`).toBeDefined();
    }
    for (const [text, zone] of [['2026-02-30 10:00', 'UTC'], ['2026-06-15 24:00', 'UTC'], ['2026-06-15 10:00', 'Mars/Olympus'], ['2200-01-01 00:00', 'UTC'], ['next monday', 'UTC']]) {
      expect(placeWallTime(text, zone), `${text} in ${zone}`).toBeUndefined();
    }
    // New York's clocks skip 02:00-02:59 on 2026-03-08: the general path moves such a time, so it reads it.
    expect(placeWallTime('2026-03-08 02:30', 'America/New_York')).toBeUndefined();
  });

  it("writes now's stamp pair as luxon does, in every zone", () => {
    for (const now of [...NOWS, Date.UTC(2026, 10, 1, 5, 59, 59, 999), Date.UTC(2011, 11, 30, 10, 0, 0, 1)]) {
      Settings.now = () => now;
      for (const zone of ZONES) expect(nowStamp(zone), `${zone} at ${now}`).toEqual(stampOf(DateTime.utc(), zone));
    }
  });
});

describe("an event's dates (events/event-dates.ts)", () => {
  /** What the general path makes of two dates: each parsed in the zone, an end before the start moved to it. */
  function expected(start: string, end: string, zone: string) {
    const now = DateTime.utc();
    const from = parseDate(start, { zone, now })?.value as DateTime;
    let to = parseDate(end, { zone, now })?.value as DateTime;
    if (to < from) to = from;
    return { timezone: zone, timezone_abbr: zoneAbbreviation(from), all_day: 0, start_local: writeStamp(from), end_local: writeStamp(to), start_utc: writeStamp(from.toUTC()), end_utc: writeStamp(to.toUTC()) };
  }

  it('are the general path\'s, placed the quick way or not: across transitions, ends before starts, other spellings', () => {
    const pairs: Array<[string, string]> = [
      ['2026-06-15 19:00:00', '2026-06-15 21:30:00'], ['2026-06-15 19:00', '2026-06-15 18:00'], ['2026-03-08 01:30:00', '2026-03-08 03:30:00'],
      ['2026-03-08 02:30:00', '2026-03-08 04:00:00'], ['2026-11-01 01:30:00', '2026-11-01 01:45:00'], ['2026-03-29 02:15', '2026-10-25 02:15'],
      ['2011-12-29 23:00', '2011-12-31 01:00'], ['2026-06-15T19:00', 'tomorrow 10:00'], ['2026-01-01 00:00:00', '2026-12-31 23:59:59'],
    ];
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Pacific/Apia', 'Australia/Lord_Howe', 'UTC', 'UTC+5']) {
      for (const [start, end] of pairs) {
        expect([start, end, zone, eventDateColumns({ start_date: start, end_date: end, timezone: zone }, undefined, 'UTC')]).toEqual([start, end, zone, expected(start, end, zone)]);
      }
    }
  });

  it('refuse what the general path refuses', () => {
    expect(() => eventDateColumns({ start_date: '2026-02-30 10:00', end_date: '2026-03-01 10:00', timezone: 'UTC' }, undefined, 'UTC')).toThrow(/start_date/);
    expect(() => eventDateColumns({ start_date: '2026-06-15 10:00', end_date: 'soon', timezone: 'Europe/Berlin' }, undefined, 'UTC')).toThrow(/end_date/);
  });
});
