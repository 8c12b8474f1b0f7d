import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { rememberZoneOffsets } from '../../src/time/zone-offsets.ts';

// Zones with every kind of transition: DST at 2:00 and at 0:00, half-hour DST (Lord Howe), odd offsets
// (Kathmandu, St John's), a zone that skipped a day (Apia, end of 2011), one without DST, LMT-era dates.
const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns', 'Pacific/Apia', 'Asia/Tokyo', 'America/Sao_Paulo'];
const HOUR = 3_600_000;

/** Every 37 minutes over a stretch around each of these instants, and some far ones. */
function instants(): number[] {
  const around = [Date.UTC(2011, 11, 29), Date.UTC(2026, 2, 8), Date.UTC(2026, 2, 29), Date.UTC(2026, 3, 5), Date.UTC(2026, 9, 4), Date.UTC(2026, 10, 1), Date.UTC(1970, 0, 1)];
  const out = [Date.UTC(1890, 5, 1, 12), Date.UTC(1969, 11, 31, 23, 59), Date.UTC(2199, 11, 31, 23), Date.UTC(2300, 0, 1), -1, 0];
  for (const at of around) for (let t = at - 72 * HOUR; t < at + 72 * HOUR; t += 37 * 60_000 + 1) out.push(t);
  return out;
}

describe('zone offsets remembered by day (time/zone-offsets.ts)', () => {
  it('answers what Intl answers, across every kind of transition, before and after a day is kept', () => {
    const ts = instants();
    const expected = ZONES.map((name) => ts.map((t) => IANAZone.create(name).offset(t)));
    rememberZoneOffsets();
    rememberZoneOffsets();
    for (let round = 0; round < 2; round++) {
      ZONES.forEach((name, z) => {
        const zone = IANAZone.create(name);
        ts.forEach((t, i) => expect(zone.offset(t), `${name} at ${new Date(t).toISOString()} (round ${round})`).toBe(expected[z][i]));
      });
    }
    // Luxon's own arithmetic goes through the same offsets: a wall-clock time in a DST gap moves forward.
    expect(IANAZone.create('America/New_York').offset(Date.UTC(2026, 2, 8, 7))).toBe(-240);
    expect(IANAZone.create('America/New_York').offset(Date.UTC(2026, 2, 8, 6, 59))).toBe(-300);
  });
});
