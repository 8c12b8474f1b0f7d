import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { readStamp, SQL_FORMAT, todayIn, writeStamp } from '../../src/time/clock.ts';

// DST at 2:00 and at 0:00, half-hour DST, odd offsets, a skipped day (Apia, 2011-12-30), UTC, no zone.
const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/Sao_Paulo', 'Pacific/Apia', 'UTC', undefined];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Wall-clock texts every 7 minutes across the transitions of 2026 (and Apia's 2011), and every odd field value. */
function texts(): string[] {
  const out: string[] = [];
  for (const day of ['2026-03-08', '2026-03-29', '2026-04-05', '2026-10-04', '2026-11-01', '2011-12-29', '2011-12-30', '2011-12-31']) {
    for (let minute = 0; minute < 24 * 60; minute += 7) out.push(`${day} ${pad(Math.floor(minute / 60))}:${pad(minute % 60)}:${pad(minute % 60)}`);
  }
  for (const field of [0, 1, 12, 13, 23, 24, 28, 29, 30, 31, 32, 59, 60, 99]) {
    out.push(`2024-02-${pad(field)} 10:00:00`, `2025-${pad(field)}-15 10:00:00`, `2025-06-15 ${pad(field)}:00:00`, `2025-06-15 10:${pad(field)}:00`, `2025-06-15 10:00:${pad(field)}`);
  }
  return [...out, '0000-01-01 00:00:00', '9999-12-31 23:59:59', '1969-12-31 23:59:59', '2026-1-05 10:00:00', '2026-01-05T10:00:00', '2026-01-05 10:00', ' 2026-01-05 10:00:00', '2026-01-05 10:00:00 ', '', 'x'];
}

describe('wall-clock stamps (time/clock.ts)', () => {
  it('reads a yyyy-MM-dd HH:mm:ss text as luxon\'s fromFormat does, in every zone, gaps and overlaps included', () => {
    for (const zone of ZONES) {
      for (const text of texts()) {
        const expected = DateTime.fromFormat(text, SQL_FORMAT, zone === undefined ? {} : { zone });
        const read = readStamp(text, zone);
        expect([text, zone, read.isValid], `${text} in ${zone}`).toEqual([text, zone, expected.isValid]);
        if (expected.isValid) expect([text, zone, read.toMillis(), read.zoneName], `${text} in ${zone}`).toEqual([text, zone, expected.toMillis(), expected.zoneName]);
      }
    }
  });

  it('writes a DateTime as toFormat(SQL_FORMAT) does, in its zone', () => {
    const start = Date.UTC(2011, 11, 28);
    for (const zone of ZONES) {
      for (let t = start; t < start + 4 * 86_400_000; t += 23 * 60_000 + 1001) {
        const dt = DateTime.fromMillis(t, zone === undefined ? {} : { zone });
        expect(writeStamp(dt)).toBe(dt.toFormat(SQL_FORMAT));
      }
    }
    for (const dt of [DateTime.fromISO('0001-01-01T00:00:00Z', { zone: 'UTC' }), DateTime.fromISO('+012345-01-01T00:00:00Z', { zone: 'UTC' }), DateTime.invalid('no')]) {
      expect(writeStamp(dt)).toBe(dt.toFormat(SQL_FORMAT));
    }
  });

  it("gives today's date in a zone as luxon does, forward and back through the year's transitions, a zone with no midnight once a year and a skipped day included", () => {
    // Santiago's clocks went from 23:59:59 to 01:00 on 2026-09-06; Apia skipped 2011-12-30.
    const spans = [[Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)], [Date.UTC(2011, 11, 28), Date.UTC(2012, 0, 2)]];
    for (const zone of ['Europe/Berlin', 'America/Santiago', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Apia', 'UTC']) {
      for (const [first, last] of spans) {
        const instants: number[] = [];
        // Every 37 minutes and a second, and the millisecond either side of each midnight it passes.
        for (let t = first; t < last; t += 37 * 60_000 + 1000) instants.push(t);
        for (let day = DateTime.fromMillis(first, { zone }).startOf('day'); day.toMillis() < last; day = day.plus({ days: 1 }).startOf('day')) {
          instants.push(day.toMillis() - 1, day.toMillis());
        }
        const sorted = instants.sort((a, b) => a - b);
        for (const t of [...sorted, ...sorted.reverse()]) expect(todayIn(zone, t), `${zone} at ${new Date(t).toISOString()}`).toBe(DateTime.fromMillis(t, { zone }).toISODate());
      }
    }
  });
});
