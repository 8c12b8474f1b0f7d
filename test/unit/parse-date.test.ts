import { describe, it, expect } from 'vitest';
import { DateTime } from 'luxon';
import { parseDate, formatSql, readsAsDate, type ParsedDate } from '../../src/time/parse-date.ts';

// A Wednesday. Local equivalents: New York 10:20 Wed (EST), Berlin 16:20 Wed (CET),
// Kolkata 20:50 Wed, Darwin 00:50 *Thursday* 2026-03-05.
const NOW = DateTime.fromISO('2026-03-04T15:20:00Z');

function parse(input: string, zone = 'UTC', now: DateTime = NOW): ParsedDate | null {
  return parseDate(input, { zone, now });
}

/** Asserts SQL wall time, exact ISO instant, the zone of the result, and both flags. */
function expectParsed(
  input: string, zone: string, sql: string, iso: string,
  flags: { hasTime: boolean; explicitOffset?: boolean }, now: DateTime = NOW,
): void {
  const r = parse(input, zone, now);
  expect(r, input).not.toBeNull();
  expect(formatSql(r!.value), input).toBe(sql);
  expect(r!.value.toISO(), input).toBe(iso);
  expect(r!.value.zoneName, input).toBe(zone);
  expect(r!.hasTime, `${input} hasTime`).toBe(flags.hasTime);
  expect(r!.explicitOffset, `${input} explicitOffset`).toBe(flags.explicitOffset ?? false);
}

const DATE = { hasTime: false };
const TIME = { hasTime: true };
const FIXED = { hasTime: true, explicitOffset: true };

describe('formatSql', () => {
  it('formats in the DateTime own zone', () => {
    expect(formatSql(DateTime.fromISO('2018-01-05T10:04:05.678Z', { zone: 'Asia/Kolkata' }))).toBe('2018-01-05 15:34:05');
    expect(formatSql(DateTime.fromISO('2018-01-05T10:04:05Z', { zone: 'UTC' }))).toBe('2018-01-05 10:04:05');
  });
});

describe('parseDate: ISO-ish absolute dates', () => {
  it.each([
    ['2018-01-05', '2018-01-05 00:00:00', '2018-01-05T00:00:00.000Z', DATE],
    ['2018/01/05', '2018-01-05 00:00:00', '2018-01-05T00:00:00.000Z', DATE],
    ['2018-1-5', '2018-01-05 00:00:00', '2018-01-05T00:00:00.000Z', DATE],
    ['2018-01-05 16:30', '2018-01-05 16:30:00', '2018-01-05T16:30:00.000Z', TIME],
    ['2018-01-05 16:30:15', '2018-01-05 16:30:15', '2018-01-05T16:30:15.000Z', TIME],
    ['2018/01/05 16:30:15', '2018-01-05 16:30:15', '2018-01-05T16:30:15.000Z', TIME],
    ['2018-01-05T16:30:15', '2018-01-05 16:30:15', '2018-01-05T16:30:15.000Z', TIME],
    ['2018-01-05T16:30:15.25', '2018-01-05 16:30:15', '2018-01-05T16:30:15.250Z', TIME],
    ['2018-01-05 16:30:15,5', '2018-01-05 16:30:15', '2018-01-05T16:30:15.500Z', TIME],
    ['2018-01-05T16:30:15.123456', '2018-01-05 16:30:15', '2018-01-05T16:30:15.123Z', TIME],
    ['2018-01-05 4pm', '2018-01-05 16:00:00', '2018-01-05T16:00:00.000Z', TIME],
    ['2018-01-05 4 pm', '2018-01-05 16:00:00', '2018-01-05T16:00:00.000Z', TIME],
    ['2018-01-01 4:30 pm', '2018-01-01 16:30:00', '2018-01-01T16:30:00.000Z', TIME],
    ['2018-01-01 4:30pm', '2018-01-01 16:30:00', '2018-01-01T16:30:00.000Z', TIME],
    ['2018-01-01 12am', '2018-01-01 00:00:00', '2018-01-01T00:00:00.000Z', TIME],
    ['2018-01-01 12pm', '2018-01-01 12:00:00', '2018-01-01T12:00:00.000Z', TIME],
    ['2018-01-01 12:30 am', '2018-01-01 00:30:00', '2018-01-01T00:30:00.000Z', TIME],
    ['2018-01-01 noon', '2018-01-01 12:00:00', '2018-01-01T12:00:00.000Z', TIME],
    ['2018-01-01 midnight', '2018-01-01 00:00:00', '2018-01-01T00:00:00.000Z', TIME],
    ['2016-02-29', '2016-02-29 00:00:00', '2016-02-29T00:00:00.000Z', DATE],
    ['  2018-01-05    16:30  ', '2018-01-05 16:30:00', '2018-01-05T16:30:00.000Z', TIME],
  ])('%s (UTC)', (input, sql, iso, flags) => expectParsed(input, 'UTC', sql, iso, flags));

  it('reads wall-clock dates in the requested zone', () => {
    expectParsed('2018-01-05 16:30', 'America/New_York', '2018-01-05 16:30:00', '2018-01-05T16:30:00.000-05:00', TIME);
    expectParsed('2018-07-05 16:30', 'America/New_York', '2018-07-05 16:30:00', '2018-07-05T16:30:00.000-04:00', TIME);
    expectParsed('2018-01-05', 'Europe/Berlin', '2018-01-05 00:00:00', '2018-01-05T00:00:00.000+01:00', DATE);
    expectParsed('2018-01-05 9am', 'Asia/Kolkata', '2018-01-05 09:00:00', '2018-01-05T09:00:00.000+05:30', TIME);
    expectParsed('2018-01-05', 'Australia/Darwin', '2018-01-05 00:00:00', '2018-01-05T00:00:00.000+09:30', DATE);
    expectParsed('2018-01-05 10:00', 'UTC+5', '2018-01-05 10:00:00', '2018-01-05T10:00:00.000+05:00', TIME);
  });
});

describe('parseDate: explicit offsets', () => {
  it.each([
    ['2018-01-05T10:00:00Z', 'UTC', '2018-01-05 10:00:00', '2018-01-05T10:00:00.000Z'],
    ['2018-01-05T10:00:00.5Z', 'UTC', '2018-01-05 10:00:00', '2018-01-05T10:00:00.500Z'],
    ['2018-01-05T10:00:00z', 'America/New_York', '2018-01-05 05:00:00', '2018-01-05T05:00:00.000-05:00'],
    ['2018-01-05 10:00Z', 'Europe/Berlin', '2018-01-05 11:00:00', '2018-01-05T11:00:00.000+01:00'],
    ['2018-01-05T10:00:00+05:30', 'UTC', '2018-01-05 04:30:00', '2018-01-05T04:30:00.000Z'],
    ['2018-01-05T10:00:00+0530', 'Asia/Kolkata', '2018-01-05 10:00:00', '2018-01-05T10:00:00.000+05:30'],
    ['2018-01-05T10:00:00+02', 'UTC', '2018-01-05 08:00:00', '2018-01-05T08:00:00.000Z'],
    ['2018-01-05T10:00:00-05:00', 'Europe/Berlin', '2018-01-05 16:00:00', '2018-01-05T16:00:00.000+01:00'],
    ['2018-01-05 10:00:00 +0000', 'Australia/Darwin', '2018-01-05 19:30:00', '2018-01-05T19:30:00.000+09:30'],
    ['2018-01-05 10:00:00 -03:00', 'UTC', '2018-01-05 13:00:00', '2018-01-05T13:00:00.000Z'],
  ])('%s in %s', (input, zone, sql, iso) => expectParsed(input, zone, sql, iso, FIXED));

  it('applies relative amounts after an offset, then converts', () => {
    expectParsed('2018-01-05T23:00:00+02:00 +1 day', 'UTC', '2018-01-06 21:00:00', '2018-01-06T21:00:00.000Z', FIXED);
    expectParsed('2018-01-05T10:00:00Z -90 minutes', 'UTC', '2018-01-05 08:30:00', '2018-01-05T08:30:00.000Z', FIXED);
  });
});

describe('parseDate: Unix timestamps', () => {
  it.each([
    ['1514764800', 'UTC', '2018-01-01 00:00:00', '2018-01-01T00:00:00.000Z'],
    ['@1514764800', 'UTC', '2018-01-01 00:00:00', '2018-01-01T00:00:00.000Z'],
    ['1514764800', 'America/New_York', '2017-12-31 19:00:00', '2017-12-31T19:00:00.000-05:00'],
    ['1514764800', 'Europe/Berlin', '2018-01-01 01:00:00', '2018-01-01T01:00:00.000+01:00'],
    [' 0 ', 'UTC', '1970-01-01 00:00:00', '1970-01-01T00:00:00.000Z'],
  ])('%s in %s', (input, zone, sql, iso) => expectParsed(input, zone, sql, iso, FIXED));
});

describe('parseDate: day words and times of day', () => {
  it.each([
    ['now', '2026-03-04 15:20:00', '2026-03-04T15:20:00.000Z', TIME],
    ['today', '2026-03-04 00:00:00', '2026-03-04T00:00:00.000Z', DATE],
    ['midnight', '2026-03-04 00:00:00', '2026-03-04T00:00:00.000Z', TIME],
    ['noon', '2026-03-04 12:00:00', '2026-03-04T12:00:00.000Z', TIME],
    ['tomorrow', '2026-03-05 00:00:00', '2026-03-05T00:00:00.000Z', DATE],
    ['yesterday', '2026-03-03 00:00:00', '2026-03-03T00:00:00.000Z', DATE],
    ['tomorrow 9am', '2026-03-05 09:00:00', '2026-03-05T09:00:00.000Z', TIME],
    ['TOMORROW   9AM', '2026-03-05 09:00:00', '2026-03-05T09:00:00.000Z', TIME],
    ['today 14:30', '2026-03-04 14:30:00', '2026-03-04T14:30:00.000Z', TIME],
    ['yesterday 23:59', '2026-03-03 23:59:00', '2026-03-03T23:59:00.000Z', TIME],
    ['yesterday 23:59:59', '2026-03-03 23:59:59', '2026-03-03T23:59:59.000Z', TIME],
    ['tomorrow noon', '2026-03-05 12:00:00', '2026-03-05T12:00:00.000Z', TIME],
    ['today midnight', '2026-03-04 00:00:00', '2026-03-04T00:00:00.000Z', TIME],
    ['4pm', '2026-03-04 16:00:00', '2026-03-04T16:00:00.000Z', TIME],
    ['12am', '2026-03-04 00:00:00', '2026-03-04T00:00:00.000Z', TIME],
    ['12pm', '2026-03-04 12:00:00', '2026-03-04T12:00:00.000Z', TIME],
    ['16:00', '2026-03-04 16:00:00', '2026-03-04T16:00:00.000Z', TIME],
    ['now 10:00', '2026-03-04 10:00:00', '2026-03-04T10:00:00.000Z', TIME],
  ])('%s (UTC)', (input, sql, iso, flags) => expectParsed(input, 'UTC', sql, iso, flags));

  it('uses the local calendar day of the zone', () => {
    expectParsed('today', 'America/New_York', '2026-03-04 00:00:00', '2026-03-04T00:00:00.000-05:00', DATE);
    expectParsed('now', 'America/New_York', '2026-03-04 10:20:00', '2026-03-04T10:20:00.000-05:00', TIME);
    expectParsed('tomorrow 9am', 'Europe/Berlin', '2026-03-05 09:00:00', '2026-03-05T09:00:00.000+01:00', TIME);
    expectParsed('tomorrow 9am', 'Asia/Kolkata', '2026-03-05 09:00:00', '2026-03-05T09:00:00.000+05:30', TIME);
    expectParsed('noon', 'Asia/Kolkata', '2026-03-04 12:00:00', '2026-03-04T12:00:00.000+05:30', TIME);
    // Darwin is already on Thursday.
    expectParsed('today', 'Australia/Darwin', '2026-03-05 00:00:00', '2026-03-05T00:00:00.000+09:30', DATE);
    expectParsed('yesterday', 'Australia/Darwin', '2026-03-04 00:00:00', '2026-03-04T00:00:00.000+09:30', DATE);
    expectParsed('now', 'Australia/Darwin', '2026-03-05 00:50:00', '2026-03-05T00:50:00.000+09:30', TIME);
    expectParsed('today', 'UTC+5', '2026-03-04 00:00:00', '2026-03-04T00:00:00.000+05:00', DATE);
  });
});

describe('parseDate: weekdays (PHP semantics)', () => {
  it.each([
    ['wednesday', '2026-03-04'], // today is Wednesday: today
    ['wed', '2026-03-04'],
    ['thursday', '2026-03-05'],
    ['friday', '2026-03-06'],
    ['sun', '2026-03-08'],
    ['monday', '2026-03-09'],
    ['tuesday', '2026-03-10'],
    ['next wednesday', '2026-03-11'],
    ['next friday', '2026-03-06'],
    ['next mon', '2026-03-09'],
    ['last wednesday', '2026-02-25'],
    ['last friday', '2026-02-27'],
    ['previous friday', '2026-02-27'],
    ['last tuesday', '2026-03-03'],
    ['Next   Wednesday', '2026-03-11'],
  ])('%s (UTC)', (input, day) => expectParsed(input, 'UTC', `${day} 00:00:00`, `${day}T00:00:00.000Z`, DATE));

  it('takes an optional time', () => {
    expectParsed('next wednesday 4pm', 'UTC', '2026-03-11 16:00:00', '2026-03-11T16:00:00.000Z', TIME);
    expectParsed('friday 09:15', 'UTC', '2026-03-06 09:15:00', '2026-03-06T09:15:00.000Z', TIME);
    expectParsed('last friday noon', 'UTC', '2026-02-27 12:00:00', '2026-02-27T12:00:00.000Z', TIME);
  });

  it('counts from the local weekday of the zone', () => {
    // In Darwin it is Thursday 2026-03-05.
    expectParsed('wednesday', 'Australia/Darwin', '2026-03-11 00:00:00', '2026-03-11T00:00:00.000+09:30', DATE);
    expectParsed('thursday', 'Australia/Darwin', '2026-03-05 00:00:00', '2026-03-05T00:00:00.000+09:30', DATE);
    expectParsed('last wednesday', 'Australia/Darwin', '2026-03-04 00:00:00', '2026-03-04T00:00:00.000+09:30', DATE);
    expectParsed('next thursday', 'Australia/Darwin', '2026-03-12 00:00:00', '2026-03-12T00:00:00.000+09:30', DATE);
    // New York crosses into daylight time on 2026-03-08.
    expectParsed('next wednesday', 'America/New_York', '2026-03-11 00:00:00', '2026-03-11T00:00:00.000-04:00', DATE);
  });
});

describe('parseDate: relative amounts', () => {
  it.each([
    ['+1 week', '2026-03-11 15:20:00', TIME],
    ['-2 days', '2026-03-02 15:20:00', TIME],
    ['1 day', '2026-03-05 15:20:00', TIME],
    ['+3 hours', '2026-03-04 18:20:00', TIME],
    ['+1 hour', '2026-03-04 16:20:00', TIME],
    ['+30 minutes', '2026-03-04 15:50:00', TIME],
    ['+1 min', '2026-03-04 15:21:00', TIME],
    ['+5 mins', '2026-03-04 15:25:00', TIME],
    ['+10 sec', '2026-03-04 15:20:10', TIME],
    ['+1 second', '2026-03-04 15:20:01', TIME],
    ['-5 secs', '2026-03-04 15:19:55', TIME],
    ['+1 fortnight', '2026-03-18 15:20:00', TIME],
    ['+2 fortnights', '2026-04-01 15:20:00', TIME],
    ['+1 month', '2026-04-04 15:20:00', TIME],
    ['+1 year', '2027-03-04 15:20:00', TIME],
    ['+2 years', '2028-03-04 15:20:00', TIME],
    ['+1week', '2026-03-11 15:20:00', TIME],
    ['+1 week 2 days', '2026-03-13 15:20:00', TIME],
    ['+1 week -1 day', '2026-03-10 15:20:00', TIME],
    ['2 days ago', '2026-03-02 15:20:00', TIME],
    ['3 hours ago', '2026-03-04 12:20:00', TIME],
    ['+1 week 2 days ago', '2026-02-23 15:20:00', TIME], // ago negates all amounts before it
    ['+1 fortnights ago', '2026-02-18 15:20:00', TIME],
    ['2 days ago +3 hours', '2026-03-02 18:20:00', TIME],
    ['+2 days 10:00', '2026-03-06 10:00:00', TIME],
    ['+1 day 4pm', '2026-03-05 16:00:00', TIME],
    // PHP applies relative amounts after the absolute time, whatever the order.
    ['+3 hours 10:00', '2026-03-04 13:00:00', TIME],
    ['10:00 +15 minutes', '2026-03-04 10:15:00', TIME],
    ['tomorrow +1 hour', '2026-03-05 01:00:00', TIME],
    ['tomorrow 9am +90 minutes', '2026-03-05 10:30:00', TIME],
    ['yesterday -1 day', '2026-03-02 00:00:00', DATE],
    ['now +1 day', '2026-03-05 15:20:00', TIME],
    ['next friday +1 week', '2026-03-13 00:00:00', DATE],
    ['2018-01-01 +1 day', '2018-01-02 00:00:00', DATE],
    ['2018-01-01 +1 hour', '2018-01-01 01:00:00', TIME],
    ['2018-01-01 10:00 -1 day', '2017-12-31 10:00:00', TIME],
    ['January 5, 2018 +2 weeks', '2018-01-19 00:00:00', DATE],
  ])('%s (UTC)', (input, sql, flags) => {
    expectParsed(input, 'UTC', sql, `${sql.replace(' ', 'T')}.000Z`, flags);
  });

  it('overflows month ends like PHP instead of clamping', () => {
    expectParsed('2018-01-31 +1 month', 'UTC', '2018-03-03 00:00:00', '2018-03-03T00:00:00.000Z', DATE);
    expectParsed('2018-03-31 -1 month', 'UTC', '2018-03-03 00:00:00', '2018-03-03T00:00:00.000Z', DATE);
    expectParsed('2020-02-29 +1 year', 'UTC', '2021-03-01 00:00:00', '2021-03-01T00:00:00.000Z', DATE);
    expectParsed('2018-01-15 +1 month', 'UTC', '2018-02-15 00:00:00', '2018-02-15T00:00:00.000Z', DATE);
    expectParsed('2018-01-31 +1 month +1 day', 'UTC', '2018-03-04 00:00:00', '2018-03-04T00:00:00.000Z', DATE);
  });

  it('works in other zones', () => {
    expectParsed('+3 hours', 'America/New_York', '2026-03-04 13:20:00', '2026-03-04T13:20:00.000-05:00', TIME);
    expectParsed('+30 minutes', 'Asia/Kolkata', '2026-03-04 21:20:00', '2026-03-04T21:20:00.000+05:30', TIME);
    expectParsed('-1 hour', 'Australia/Darwin', '2026-03-04 23:50:00', '2026-03-04T23:50:00.000+09:30', TIME);
    expectParsed('+1 week', 'Europe/Berlin', '2026-03-11 16:20:00', '2026-03-11T16:20:00.000+01:00', TIME);
  });
});

describe('parseDate: month names', () => {
  it.each([
    ['January 5, 2018', '2018-01-05 00:00:00', DATE],
    ['January 5 2018', '2018-01-05 00:00:00', DATE],
    ['5 January 2018', '2018-01-05 00:00:00', DATE],
    ['Jan 5 2018', '2018-01-05 00:00:00', DATE],
    ['jan 05, 2018', '2018-01-05 00:00:00', DATE],
    ['Sept 30 2018', '2018-09-30 00:00:00', DATE],
    ['29 feb 2016', '2016-02-29 00:00:00', DATE],
    ['December 31, 2018', '2018-12-31 00:00:00', DATE],
    ['January 5 2018 4pm', '2018-01-05 16:00:00', TIME],
    ['January 5, 2018 16:45', '2018-01-05 16:45:00', TIME],
    ['5 May 2018 noon', '2018-05-05 12:00:00', TIME],
  ])('%s (UTC)', (input, sql, flags) => {
    expectParsed(input, 'UTC', sql, `${sql.replace(' ', 'T')}.000Z`, flags);
  });

  it('reads them in the zone', () => {
    expectParsed('Jan 5 2018 4pm', 'America/New_York', '2018-01-05 16:00:00', '2018-01-05T16:00:00.000-05:00', TIME);
  });
});

describe('parseDate: DST edges (America/New_York)', () => {
  const NY = 'America/New_York';
  it('keeps local midnight when day arithmetic crosses spring-forward', () => {
    expectParsed('2026-03-07 +1 day', NY, '2026-03-08 00:00:00', '2026-03-08T00:00:00.000-05:00', DATE);
    expectParsed('2026-03-08 +1 day', NY, '2026-03-09 00:00:00', '2026-03-09T00:00:00.000-04:00', DATE);
    expectParsed('2026-03-07 12:00 +1 day', NY, '2026-03-08 12:00:00', '2026-03-08T12:00:00.000-04:00', TIME);
  });

  it('adds hours to the instant across spring-forward', () => {
    // 2026-03-08 has only 23 hours.
    expectParsed('2026-03-08 +24 hours', NY, '2026-03-09 01:00:00', '2026-03-09T01:00:00.000-04:00', TIME);
    expectParsed('2026-03-08 01:30 +1 hour', NY, '2026-03-08 03:30:00', '2026-03-08T03:30:00.000-04:00', TIME);
  });

  it('shifts non-existent wall times forward', () => {
    expectParsed('2026-03-08 02:30', NY, '2026-03-08 03:30:00', '2026-03-08T03:30:00.000-04:00', TIME);
    expectParsed('2026-03-08 2:30am', NY, '2026-03-08 03:30:00', '2026-03-08T03:30:00.000-04:00', TIME);
    expectParsed('2026-03-07 02:30 +1 day', NY, '2026-03-08 03:30:00', '2026-03-08T03:30:00.000-04:00', TIME);
  });

  it('handles relative words around spring-forward', () => {
    const sat = DateTime.fromISO('2026-03-07T20:00:00Z'); // Saturday 15:00 EST
    expectParsed('tomorrow', NY, '2026-03-08 00:00:00', '2026-03-08T00:00:00.000-05:00', DATE, sat);
    expectParsed('tomorrow 9am', NY, '2026-03-08 09:00:00', '2026-03-08T09:00:00.000-04:00', TIME, sat);
    expectParsed('+1 day', NY, '2026-03-08 15:00:00', '2026-03-08T15:00:00.000-04:00', TIME, sat);
    expectParsed('+24 hours', NY, '2026-03-08 16:00:00', '2026-03-08T16:00:00.000-04:00', TIME, sat);
    expectParsed('sunday', NY, '2026-03-08 00:00:00', '2026-03-08T00:00:00.000-05:00', DATE, sat);
  });

  it('keeps local midnight when day arithmetic crosses fall-back', () => {
    expectParsed('2026-10-31 +1 day', NY, '2026-11-01 00:00:00', '2026-11-01T00:00:00.000-04:00', DATE);
    expectParsed('2026-11-01 +1 day', NY, '2026-11-02 00:00:00', '2026-11-02T00:00:00.000-05:00', DATE);
    expectParsed('2026-11-01 12:00', NY, '2026-11-01 12:00:00', '2026-11-01T12:00:00.000-05:00', TIME);
    // 01:30 happens twice; the first (daylight) occurrence is used, as PHP does.
    expectParsed('2026-11-01 01:30', NY, '2026-11-01 01:30:00', '2026-11-01T01:30:00.000-04:00', TIME);
  });

  it('adds hours to the instant across fall-back', () => {
    // 00:00 EDT + 3h is 02:00 EST (01:00 happens twice).
    expectParsed('2026-11-01 00:00 +3 hours', NY, '2026-11-01 02:00:00', '2026-11-01T02:00:00.000-05:00', TIME);
    expectParsed('2026-11-01 +25 hours', NY, '2026-11-02 00:00:00', '2026-11-02T00:00:00.000-05:00', TIME);
  });

  it('shifts non-existent times in Europe/Berlin too', () => {
    expectParsed('2026-03-29 02:30', 'Europe/Berlin', '2026-03-29 03:30:00', '2026-03-29T03:30:00.000+02:00', TIME);
    expectParsed('2026-03-28 +1 day', 'Europe/Berlin', '2026-03-29 00:00:00', '2026-03-29T00:00:00.000+01:00', DATE);
  });
});

describe('parseDate: rejects', () => {
  it.each([
    '', '   ', 'foo', 'not a strtotime parsable string', 'before my birthday',
    '2018-13-01', '2018-02-30', '2019-02-29', '2018-00-10', '2018-01-00', '2018-01-32',
    '2018-01-01 25:00', '2018-01-01 24:00', '2018-01-01 10:60', '2018-01-01 10:00:60',
    '2018-01/01', '2018-01-01t', '2018-01-01t4pm', '2018-01-01T10:00+19:00', '2018-01-01T10:00+05:60',
    '2018-01-01 10:00 foo', '2018-01-01 10:00 10:00', '2018-01-01T10:00Z 4pm', '2018-01-01 10:00 +0100 days',
    'tomorrow tomorrow', 'today tomorrow', 'tomorrow 2018-01-01', '2018-01-01 tomorrow',
    '11:00 tomorrow', 'noon tomorrow', '4pm 5pm', 'noon midnight',
    '+1 fortnights ago ago', '2 days ago ago', 'ago', '2 days 10:00 ago', 'tomorrow ago',
    'next', 'last', 'next week', 'next month', 'this friday', 'next tomorrow', 'next 4pm',
    '+ week', '+1', '-1514764800', '1 parsec', '1 days hours', '+1e5 days', '+99999999999999999999 days',
    '13pm', '0am', '4 p.m.', '16:00pm', '10:00+05:00', '10:00z',
    '10:00 foo', 'abc123def456ghi789jkl012mno345pq', '12345678901234567890123456789012',
    'January 5', 'January 2018', 'January 32 2018', 'February 29 2019', 'Jan 5 18', '5 Jan', 'Janu 5 2018',
    'January, 5 2018', '2018 January 5', '@', '@-1', '1.5 days', 'tomorrow,', '#1',
  ])('%j', (input) => {
    expect(parse(input)).toBeNull();
  });

  it('rejects an unknown zone', () => {
    expect(parseDate('today', { zone: 'Mars/Olympus', now: NOW })).toBeNull();
  });
});

describe('parseDate: the YYYY-MM-DD HH:MM:SS shortcut', () => {
  it('reads every such text as the general path reads the same date with slashes, DST changes and bad days included', () => {
    // Seeded: every minute of the hours around each zone's 2027 changes, plus random times and days the month lacks.
    const zones = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Kolkata', 'UTC', 'UTC+5'];
    const texts: string[] = [];
    for (const day of ['2027-03-14', '2027-11-07', '2027-03-28', '2027-10-31', '2027-04-04', '2027-10-03', '2027-02-29', '2027-04-31', '2028-02-29']) {
      for (let minute = 0; minute < 4 * 60; minute += 7) texts.push(`${day} ${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`);
    }
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let i = 0; i < 300; i++) texts.push(`20${10 + next(30)}-${String(1 + next(12)).padStart(2, '0')}-${String(1 + next(31)).padStart(2, '0')} ${String(next(24)).padStart(2, '0')}:${String(next(60)).padStart(2, '0')}`);
    for (const zone of zones) {
      for (const text of texts) {
        const fast = parseDate(text, { zone, now: NOW });
        const general = parseDate(text.replace(/-/g, '/'), { zone, now: NOW });
        expect([fast?.value.toISO(), fast?.hasTime, fast?.explicitOffset], `${zone} ${text}`).toEqual([general?.value.toISO(), general?.hasTime, general?.explicitOffset]);
      }
    }
  });
});

describe('readsAsDate (the schema\'s check of a date parameter)', () => {
  it('says what parseDate says in UTC, for every date and time the plain form can spell, and for others', () => {
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    const inputs: string[] = [];
    // Every month of a leap and a common year, of a century that is not leap and one that is, and year 1 and 9999,
    // with the days either side of each month's end; hours, minutes and seconds at and past their bounds.
    for (const year of [1, 1900, 2000, 2024, 2026, 9999]) {
      for (let month = 0; month <= 13; month++) {
        for (const day of [0, 1, 28, 29, 30, 31, 32]) {
          for (const [hour, minute, second] of [[0, 0, 0], [23, 59, 59], [24, 0, 0], [12, 60, 0], [12, 0, 60]]) {
            inputs.push(`${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`);
            inputs.push(`${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}`);
          }
        }
      }
    }
    inputs.push('0000-01-01 00:00:00', ' 2026-03-04 10:00:00', '2026-03-04  10:00', '2026-03-04', 'tomorrow 10am', '2026-3-4 10:00', 'soon', '', '99999-01-01 00:00');
    let accepted = 0;
    for (const input of inputs) {
      const expected = parseDate(input, { zone: 'UTC', now: DateTime.utc() }) !== null;
      if (expected) accepted++;
      expect(readsAsDate(input), input).toBe(expected);
    }
    // Both answers are there in numbers: the comparison is not of all-true or all-false.
    expect(accepted).toBeGreaterThan(1000);
    expect(inputs.length - accepted).toBeGreaterThan(1000);
  });
});
