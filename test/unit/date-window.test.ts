import { describe, it, expect } from 'vitest';
import { DateTime } from 'luxon';
import { formatSql } from '../../src/time/parse-date.ts';
import {
  boundText, DateWindowError, resolveDateWindow, type DateWindow, type WindowQuery,
} from '../../src/time/date-window.ts';

// A Wednesday. Local: New York 10:20 (EST), Berlin 16:20 (CET), Tokyo 00:20 *Thursday* 2026-03-05.
const NOW = DateTime.fromISO('2026-03-04T15:20:00Z');
const BOUNDS = ['startFrom', 'endTo', 'startsBefore', 'startsAfter', 'endsBefore', 'endsAfter'] as const;

function resolve(query: WindowQuery, siteZone = 'UTC'): DateWindow {
  return resolveDateWindow(query, { siteZone, now: NOW });
}

/** The applied bounds as site-time strings; also checks every bound is expressed in the site zone. */
function bounds(query: WindowQuery, siteZone = 'UTC'): Record<string, string> {
  const w = resolve(query, siteZone);
  const out: Record<string, string> = {};
  for (const key of BOUNDS) {
    const b = w[key];
    if (!b) continue;
    expect(b.zoneName, key).toBe(siteZone);
    out[key] = formatSql(b);
  }
  return out;
}

describe('resolveDateWindow: the reference examples (site UTC)', () => {
  const day = { start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00' };

  it('widens start_date/end_date to the whole day', () => {
    expect(bounds(day)).toEqual({ startFrom: '2018-01-01 00:00:00', endTo: '2018-01-01 23:59:59' });
    expect(resolve(day).echo).toEqual({ start_date: '2018-01-01 00:00:00', end_date: '2018-01-01 23:59:59' });
  });

  it('keeps the given times with strict_dates', () => {
    const q = { ...day, strict_dates: true };
    expect(bounds(q)).toEqual({ startFrom: '2018-01-01 15:00:00', endTo: '2018-01-01 18:00:00' });
    expect(resolve(q).echo).toEqual({ start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00' });
  });

  it('widens every relative parameter to 23:59:59 and drops the defaults', () => {
    const q = { ends_after: '2017-12-31', starts_before: '2018-01-02' };
    expect(bounds(q)).toEqual({ endsAfter: '2017-12-31 23:59:59', startsBefore: '2018-01-02 23:59:59' });
    expect(resolve(q).echo).toEqual({ ends_after: '2017-12-31 23:59:59', starts_before: '2018-01-02 23:59:59' });
    expect(bounds({ starts_after: '2018-01-01', ends_before: '2018-01-03' }))
      .toEqual({ startsAfter: '2018-01-01 23:59:59', endsBefore: '2018-01-03 23:59:59' });
  });

  it('still applies explicit start_date/end_date next to relative parameters', () => {
    const q = { ends_after: '2017-12-31', starts_before: '2018-01-02', start_date: '2017-12-30', end_date: '2018-01-02' };
    const expected = {
      start_date: '2017-12-30 00:00:00', end_date: '2018-01-02 23:59:59',
      ends_after: '2017-12-31 23:59:59', starts_before: '2018-01-02 23:59:59',
    };
    expect(resolve(q).echo).toEqual(expected);
    expect(bounds(q)).toEqual({
      startFrom: expected.start_date, endTo: expected.end_date,
      endsAfter: expected.ends_after, startsBefore: expected.starts_before,
    });
    expect(bounds({ starts_after: '2018-01-01', start_date: '2017-12-30' }))
      .toEqual({ startsAfter: '2018-01-01 23:59:59', startFrom: '2017-12-30 00:00:00' });
  });
});

describe('resolveDateWindow: defaults', () => {
  it.each([
    ['UTC', '2026-03-04 00:00:00', '2028-03-04 23:59:59', '2026-03-04 15:20:00', '2028-03-04 15:20:00'],
    ['America/New_York', '2026-03-04 00:00:00', '2028-03-04 23:59:59', '2026-03-04 10:20:00', '2028-03-04 10:20:00'],
    ['Europe/Berlin', '2026-03-04 00:00:00', '2028-03-04 23:59:59', '2026-03-04 16:20:00', '2028-03-04 16:20:00'],
    // Already Thursday in Tokyo: today is the site's today, not UTC's.
    ['Asia/Tokyo', '2026-03-05 00:00:00', '2028-03-05 23:59:59', '2026-03-05 00:20:00', '2028-03-05 00:20:00'],
  ])('%s: today 00:00 to two years later 23:59:59, or now to now + 2 years when strict', (zone, s, e, ss, se) => {
    expect(bounds({}, zone)).toEqual({ startFrom: s, endTo: e });
    expect(resolve({}, zone).echo).toEqual({ start_date: s, end_date: e });
    expect(bounds({ strict_dates: true }, zone)).toEqual({ startFrom: ss, endTo: se });
    expect(resolve({ strict_dates: true }, zone).echo).toEqual({ start_date: ss, end_date: se });
  });

  it('defaults only the missing side', () => {
    expect(resolve({ start_date: '2018-01-01' }).echo)
      .toEqual({ start_date: '2018-01-01 00:00:00', end_date: '2028-03-04 23:59:59' });
    expect(resolve({ end_date: '2026-05-01' }).echo)
      .toEqual({ start_date: '2026-03-04 00:00:00', end_date: '2026-05-01 23:59:59' });
  });

  it('has no defaults next to a strict relative parameter', () => {
    expect(resolve({ strict_dates: true, ends_before: '2026-04-01 12:30' }).echo)
      .toEqual({ ends_before: '2026-04-01 12:30:00' });
  });
});

describe('resolveDateWindow: include', () => {
  it('drops every date filter, defaults included', () => {
    expect(resolve({ include: [3, 4] })).toEqual({ echo: {} });
    expect(resolve({ include: [3], start_date: '2018-01-01', ends_after: '2018-01-01', strict_dates: true }))
      .toEqual({ echo: {} });
  });

  it('treats an empty list as absent', () => {
    expect(bounds({ include: [] })).toEqual({ startFrom: '2026-03-04 00:00:00', endTo: '2028-03-04 23:59:59' });
  });

  it('still rejects an unparsable value', () => {
    expect(() => resolve({ include: [3], end_date: 'soonish' })).toThrow(DateWindowError);
  });
});

describe('resolveDateWindow: natural language, read in the site zone', () => {
  const q = { starts_after: 'tomorrow', starts_before: 'next monday 4pm', ends_after: '+1 week' };
  it.each([
    ['UTC', '2026-03-05', '2026-03-09 16:00:00', '2026-03-11 15:20:00'],
    ['America/New_York', '2026-03-05', '2026-03-09 16:00:00', '2026-03-11 10:20:00'],
    ['Europe/Berlin', '2026-03-05', '2026-03-09 16:00:00', '2026-03-11 16:20:00'],
    ['Asia/Tokyo', '2026-03-06', '2026-03-09 16:00:00', '2026-03-12 00:20:00'],
  ])('%s', (zone, tomorrow, monday, week) => {
    expect(bounds({ ...q, strict_dates: true }, zone))
      .toEqual({ startsAfter: `${tomorrow} 00:00:00`, startsBefore: monday, endsAfter: week });
    expect(bounds(q, zone)).toEqual({
      startsAfter: `${tomorrow} 23:59:59`, startsBefore: `${monday.slice(0, 10)} 23:59:59`,
      endsAfter: `${week.slice(0, 10)} 23:59:59`,
    });
  });
});

describe('resolveDateWindow: offsets and zones', () => {
  const late = '2018-01-01T23:00:00-05:00';

  it('keeps the instant of an explicit offset and takes its day in the site zone', () => {
    expect(bounds({ start_date: late, end_date: late })).toEqual({ startFrom: '2018-01-02 00:00:00', endTo: '2018-01-02 23:59:59' });
    expect(bounds({ start_date: late, strict_dates: true, end_date: late }))
      .toEqual({ startFrom: '2018-01-02 04:00:00', endTo: '2018-01-02 04:00:00' });
    expect(bounds({ starts_after: late }, 'Asia/Tokyo')).toEqual({ startsAfter: '2018-01-02 23:59:59' });
    expect(bounds({ starts_after: late }, 'America/New_York')).toEqual({ startsAfter: '2018-01-01 23:59:59' });
  });

  it('reads a strict value without offset in the site zone (not UTC, unlike the reference)', () => {
    const w = resolve({ start_date: '2017-12-21', end_date: '2017-12-22', strict_dates: true }, 'America/New_York');
    expect(w.echo.start_date).toBe('2017-12-21 00:00:00');
    expect(boundText(w.startFrom!, 'site')).toBe('2017-12-21 05:00:00');
  });

  it.each([
    ['2026-03-08', '2026-03-08T00:00:00.000-05:00', '2026-03-08T23:59:59.000-04:00', '2026-03-08 05:00:00', '2026-03-09 03:59:59'],
    ['2026-11-01', '2026-11-01T00:00:00.000-04:00', '2026-11-01T23:59:59.000-05:00', '2026-11-01 04:00:00', '2026-11-02 04:59:59'],
  ])('widens a DST day (%s, New York) on the local wall clock', (day, startIso, endIso, startUtc, endUtc) => {
    const w = resolve({ start_date: `${day} 12:00`, end_date: day }, 'America/New_York');
    expect(w.startFrom!.toISO()).toBe(startIso);
    expect(w.endTo!.toISO()).toBe(endIso);
    expect(w.echo).toEqual({ start_date: `${day} 00:00:00`, end_date: `${day} 23:59:59` });
    expect([boundText(w.startFrom!, 'event'), boundText(w.endTo!, 'event')]).toEqual([`${day} 00:00:00`, `${day} 23:59:59`]);
    expect([boundText(w.startFrom!, 'site'), boundText(w.endTo!, 'site')]).toEqual([startUtc, endUtc]);
  });
});

describe('resolveDateWindow: unparsable values', () => {
  it.each(['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'] as const)(
    'names %s', (param) => {
      for (const value of ['before my birthday', 'not a strtotime parsable string', '', '2018-13-45']) {
        let error: unknown;
        try { resolve({ [param]: value }); } catch (e) { error = e; }
        expect(error, value).toBeInstanceOf(DateWindowError);
        expect((error as DateWindowError).param).toBe(param);
      }
    },
  );
});

describe('boundText', () => {
  it('is the site wall clock in event mode and UTC in site mode', () => {
    const w = resolve({ start_date: '2018-06-01 09:30', strict_dates: true, end_date: '2018-06-01' }, 'Asia/Tokyo');
    expect(boundText(w.startFrom!, 'event')).toBe('2018-06-01 09:30:00');
    expect(boundText(w.startFrom!, 'site')).toBe('2018-06-01 00:30:00');
    expect(boundText(w.endTo!, 'site')).toBe('2018-05-31 15:00:00');
  });
});
