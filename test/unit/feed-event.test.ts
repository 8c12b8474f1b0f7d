import ical from 'ical-generator';
import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { feedZone, toVEvent, uidOf } from '../../src/feeds/feed-event.ts';
import { transitions } from '../../src/feeds/vtimezone.ts';

const record = (venue: Record<string, unknown>) => ({
  global_id: 'cal.test?id=12', title: 'Gig', description: '', url: 'http://cal.test/event/gig/', status: 'publish', all_day: false,
  date_utc: '2026-01-01 10:00:00', modified_utc: '2026-01-02 10:00:00', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00',
  utc_start_date: '2027-01-10 19:00:00', utc_end_date: '2027-01-10 22:00:00', timezone: 'Europe/Berlin',
  venue: { venue: 'Blue Room', address: '', city: 'Berlin', country: '', ...venue }, organizer: [], categories: [], image: false,
});
const vevent = (venue: Record<string, unknown>) => ical({ events: [toVEvent({ record: record(venue), sequence: 0 })] }).toString();

describe('record to VEVENT', () => {
  it('writes GEO once the venue record carries coordinates, and none before', () => {
    expect(vevent({})).not.toContain('GEO:');
    expect(vevent({ geo_lat: 52.52, geo_lng: 13.405 })).toContain('GEO:52.52;13.405');
    expect(vevent({ geo_lat: '48.85', geo_lng: '2.35' })).toContain('GEO:48.85;2.35');
    expect(vevent({ geo_lat: null, geo_lng: null })).not.toContain('GEO:');
  });

  it('makes UIDs from global ids, and writes fixed offsets and UTC without a zone', () => {
    expect(uidOf('cal.test?id=12')).toBe('12@cal.test');
    expect(uidOf('example.org/sub dir?id=7')).toBe('7@example.org-sub-dir');
    expect(['Europe/Berlin', 'America/New_York', 'UTC', 'UTC+5', 'UTC-03:30', 'Etc/GMT+5'].map(feedZone))
      .toEqual(['Europe/Berlin', 'America/New_York', null, null, null, 'Etc/GMT+5']);
  });
});

describe('zone transitions', () => {
  it('finds each offset change to the second, from Intl data', () => {
    const berlin = IANAZone.create('Europe/Berlin');
    const found = transitions(berlin, Date.UTC(2027, 0, 1), Date.UTC(2028, 0, 1));
    expect(found.map((t) => [new Date(t.at).toISOString(), t.from, t.to])).toEqual([
      ['2027-03-28T01:00:00.000Z', 60, 120],
      ['2027-10-31T01:00:00.000Z', 120, 60],
    ]);
    expect(transitions(IANAZone.create('Asia/Tokyo'), Date.UTC(2020, 0, 1), Date.UTC(2030, 0, 1))).toEqual([]);
  });
});
