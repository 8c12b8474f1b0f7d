import { DateTime } from 'luxon';
import { afterEach, expect, it, vi } from 'vitest';
import { createChangeWatch } from '../../src/changes/change-watch.ts';
import { createStore } from '../../src/store.ts';
import type { ApiError } from '../../src/errors.ts';
import { createEventService } from '../../src/events/event.service.ts';
import { createFeedService } from '../../src/feeds/feed.service.ts';
import { createUrls } from '../../src/http/urls.ts';
import { createLinkedPostService } from '../../src/linked-posts/linked-post.service.ts';
import { organizerKind } from '../../src/organizers/organizer.kind.ts';
import type { Role } from '../../src/users/roles.ts';
import { venueKind } from '../../src/venues/venue.kind.ts';
import { parseFeed, unfolded, unixOf, xText } from '../helpers/ical.ts';
import { API, describeEachDialect, type TestContext } from '../helpers/test-app.ts';

const EVENTS = `${API}/events`;
const CALENDAR = { accept: 'text/calendar' };
// Fixed dates stay in the feed whatever day the suite runs.
const WIDE = 'start_date=2020-01-01&end_date=2035-12-31';

type Json = Record<string, any>;

function helpers(t: () => TestContext) {
  const as = async (role?: Role) => (role ? (await t().user(role)).headers : {});
  const h = {
    make: async (payload: Json, role: Role = 'administrator'): Promise<Json> => {
      const res = await t().request({ method: 'POST', url: EVENTS, headers: await as(role), payload });
      expect(res.statusCode, JSON.stringify(res.json)).toBe(201);
      return res.json;
    },
    update: async (id: number, payload: Json) => {
      const res = await t().request({ method: 'POST', url: `${EVENTS}/${id}`, headers: await as('administrator'), payload });
      expect(res.statusCode, JSON.stringify(res.json)).toBe(200);
      return res.json;
    },
    feed: async (query = WIDE, role?: Role, headers: Json = {}) =>
      t().request({ url: `${EVENTS}?${query}`, headers: { ...CALENDAR, ...(await as(role)), ...headers } }),
    parsed: async (query = WIDE, role?: Role) => {
      const res = await h.feed(query, role);
      expect(res.statusCode, res.body).toBe(200);
      return parseFeed(res.body);
    },
  };
  return h;
}

const uid = (event: Json) => `${event.id}@cal.test`;

describeEachDialect('GET /events as iCalendar', (t) => {
  const h = helpers(t);

  it('answers text/calendar with the calendar properties and the download headers', async () => {
    await h.make({ title: 'Gig', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' });
    const res = await h.feed();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="cal-events.ics"');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(Date.parse(String(res.headers['last-modified']))).not.toBeNaN();
    expect(res.headers.vary).toBe('Accept-Language, Accept, Authorization');
    const lines = unfolded(res.body);
    expect(lines.slice(0, 2)).toEqual(['BEGIN:VCALENDAR', 'VERSION:2.0']);
    for (const line of ['PRODID:-//cal-events//iCalendar feed//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH', 'NAME:cal-events',
      'X-WR-CALNAME:cal-events', 'REFRESH-INTERVAL;VALUE=DURATION:PT1H', 'X-PUBLISHED-TTL:PT1H']) {
      expect(lines).toContain(line);
    }
    const { events } = parseFeed(res.body);
    expect(events.map((e) => e.summary)).toEqual(['Gig']);
  });

  it('answers JSON unless Accept prefers text/calendar', async () => {
    await h.make({ title: 'Gig', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' });
    for (const accept of [undefined, 'application/json', '*/*', 'application/json, text/calendar;q=0.5', 'text/calendar;q=0']) {
      const res = await t().request({ url: `${EVENTS}?${WIDE}`, headers: accept ? { accept } : {} });
      expect(res.headers['content-type'], accept).toContain('application/json');
      expect(res.json.events).toHaveLength(1);
      expect(res.headers.vary).toBe('Accept-Language, Accept');
    }
    for (const accept of ['text/calendar', 'text/calendar, application/json;q=0.9', 'TEXT/CALENDAR; charset=utf-8']) {
      const res = await t().request({ url: `${EVENTS}?${WIDE}`, headers: { accept } });
      expect(res.headers['content-type'], accept).toBe('text/calendar; charset=utf-8');
    }
  });

  it('gives each timed event the instants of the API across DST changes in Berlin, New York and Sydney', async () => {
    const times = [
      ['Europe/Berlin', '2027-03-20 10:00:00', '2027-03-20 11:00:00'], // CET
      ['Europe/Berlin', '2027-03-27 20:00:00', '2027-03-28 10:00:00'], // spans the change to CEST
      ['Europe/Berlin', '2027-07-01 10:00:00', '2027-07-01 11:00:00'], // CEST
      ['Europe/Berlin', '2027-10-31 01:30:00', '2027-10-31 04:00:00'], // spans the change back
      ['America/New_York', '2027-03-10 09:00:00', '2027-03-10 10:00:00'], // EST
      ['America/New_York', '2027-03-13 22:00:00', '2027-03-14 12:00:00'], // spans the change to EDT
      ['America/New_York', '2027-07-15 18:30:00', '2027-07-15 21:00:00'], // EDT
      ['Australia/Sydney', '2027-03-01 19:00:00', '2027-03-01 21:00:00'], // AEDT
      ['Australia/Sydney', '2027-04-03 20:00:00', '2027-04-04 10:00:00'], // spans the end of DST
      ['Australia/Sydney', '2027-07-15 19:00:00', '2027-07-15 21:00:00'], // AEST
      ['Asia/Kolkata', '2027-05-01 08:00:00', '2027-05-01 09:30:00'], // no DST, half-hour offset
      ['UTC', '2027-05-02 08:00:00', '2027-05-02 09:00:00'],
      ['UTC+5', '2027-05-03 08:00:00', '2027-05-03 09:00:00'], // a fixed offset as the API stores it
      ['UTC-03:30', '2027-05-04 08:00:00', '2027-05-04 09:00:00'],
    ];
    const made = [];
    for (const [timezone, start, end] of times) made.push(await h.make({ title: `${timezone} ${start}`, start_date: start, end_date: end, timezone }));
    const { byUid, zones, events } = await h.parsed();
    expect(events).toHaveLength(times.length);
    expect([...zones.keys()].sort()).toEqual(['America/New_York', 'Asia/Kolkata', 'Australia/Sydney', 'Europe/Berlin']);
    for (const event of made) {
      const parsed = byUid.get(uid(event));
      expect(parsed, event.title).toBeDefined();
      expect(parsed!.startDate.toUnixTime(), event.title).toBe(unixOf(event.utc_start_date));
      expect(parsed!.endDate.toUnixTime(), event.title).toBe(unixOf(event.utc_end_date));
      expect(parsed!.startDate.toJSDate().getTime(), event.title).toBe(unixOf(event.utc_start_date) * 1000);
      // IANA zones keep their wall-clock times and TZID; UTC and fixed offsets are written in UTC.
      const zone = zones.has(event.timezone) ? event.timezone : 'UTC';
      expect(parsed!.startDate.zone.tzid, event.title).toBe(zone);
      if (zone !== 'UTC') expect(parsed!.startDate.toString(), event.title).toBe(event.start_date.replace(' ', 'T'));
    }
  });

  it('writes each zone with its real transitions, dated in local time, from the year before to the year after', async () => {
    await h.make({ title: 'B', start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 11:00:00', timezone: 'Europe/Berlin' });
    await h.make({ title: 'N', start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 11:00:00', timezone: 'America/New_York' });
    await h.make({ title: 'S', start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 11:00:00', timezone: 'Australia/Sydney' });
    await h.make({ title: 'T', start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 11:00:00', timezone: 'Asia/Tokyo' });
    const { zones } = await h.parsed();
    const observances = (tzid: string) =>
      zones.get(tzid)!.getAllSubcomponents().map((c) =>
        [c.name, c.getFirstPropertyValue('dtstart')!.toString(), c.getFirstPropertyValue('tzoffsetfrom')!.toString(),
          c.getFirstPropertyValue('tzoffsetto')!.toString(), c.getFirstPropertyValue('tzname')].join(' '));
    expect(observances('Europe/Berlin')).toEqual([
      'standard 2026-01-01T00:00:00 +01:00 +01:00 CET',
      'daylight 2026-03-29T02:00:00 +01:00 +02:00 CEST', 'standard 2026-10-25T03:00:00 +02:00 +01:00 CET',
      'daylight 2027-03-28T02:00:00 +01:00 +02:00 CEST', 'standard 2027-10-31T03:00:00 +02:00 +01:00 CET',
      'daylight 2028-03-26T02:00:00 +01:00 +02:00 CEST', 'standard 2028-10-29T03:00:00 +02:00 +01:00 CET',
    ]);
    expect(observances('America/New_York')).toEqual([
      'standard 2026-01-01T00:00:00 -05:00 -05:00 EST',
      'daylight 2026-03-08T02:00:00 -05:00 -04:00 EDT', 'standard 2026-11-01T02:00:00 -04:00 -05:00 EST',
      'daylight 2027-03-14T02:00:00 -05:00 -04:00 EDT', 'standard 2027-11-07T02:00:00 -04:00 -05:00 EST',
      'daylight 2028-03-12T02:00:00 -05:00 -04:00 EDT', 'standard 2028-11-05T02:00:00 -04:00 -05:00 EST',
    ]);
    expect(observances('Australia/Sydney')).toEqual([
      'daylight 2026-01-01T00:00:00 +11:00 +11:00 AEDT',
      'standard 2026-04-05T03:00:00 +11:00 +10:00 AEST', 'daylight 2026-10-04T02:00:00 +10:00 +11:00 AEDT',
      'standard 2027-04-04T03:00:00 +11:00 +10:00 AEST', 'daylight 2027-10-03T02:00:00 +10:00 +11:00 AEDT',
      'standard 2028-04-02T03:00:00 +11:00 +10:00 AEST', 'daylight 2028-10-01T02:00:00 +10:00 +11:00 AEDT',
    ]);
    expect(observances('Asia/Tokyo')).toEqual(['standard 2026-01-01T00:00:00 +09:00 +09:00 JST']);
  });

  it('writes all-day events as dates, DTEND the day after the last day', async () => {
    const one = await h.make({ title: 'Holiday', start_date: '2027-01-01', end_date: '2027-01-01', all_day: true, timezone: 'Europe/Berlin' });
    const three = await h.make({ title: 'Festival', start_date: '2027-12-30', end_date: '2028-01-01', all_day: true, timezone: 'America/New_York' });
    const res = await h.feed();
    const { byUid, zones } = parseFeed(res.body);
    expect(zones.size).toBe(0);
    for (const [event, start, end] of [[one, '2027-01-01', '2027-01-02'], [three, '2027-12-30', '2028-01-02']] as const) {
      const parsed = byUid.get(uid(event))!;
      expect(parsed.startDate.isDate).toBe(true);
      expect(parsed.startDate.toString()).toBe(start);
      expect(parsed.endDate.toString()).toBe(end);
    }
    expect(unfolded(res.body)).toContain('DTSTART;VALUE=DATE:20271230');
    expect(unfolded(res.body)).toContain('DTEND;VALUE=DATE:20280102');
  });

  it('escapes and folds text so that a parser reads back exactly what the API holds', async () => {
    const title = 'Rock, Pop; Jazz \\ Blues — 🎷🎺 Ünïcödé Straße: Konzert im Großen Saal des Gewandhauses zu Leipzig 🎶';
    expect(Buffer.byteLength(title)).toBeGreaterThan(75);
    const event = await h.make({
      title, start_date: '2027-02-01 19:00:00', end_date: '2027-02-01 22:00:00', timezone: 'Europe/Berlin',
      description: 'Line one, with a comma; and a semicolon\nLine two \\ <b>bold</b> & more\n\nA new paragraph 😀',
      venue: { venue: 'Bar; Grill, Inc.', address: 'Hauptstr. 1', city: 'Leipzig', country: 'Germany' },
      organizer: [{ organizer: 'No Mail' }, { organizer: 'The "Jazz" Club', email: 'club@example.test' }],
      categories: ['Rock, Pop', 'Jazz'],
      image: 'https://images.test/w_100,h_100;v=1/photo.jpg',
    });
    const res = await h.feed();
    const { byUid } = parseFeed(res.body);
    const parsed = byUid.get(uid(event))!;
    expect(parsed.summary).toBe(title);
    expect(parsed.description).toBe('Line one, with a comma; and a semicolon\nLine two \\ bold & more\nA new paragraph 😀');
    // ical.js leaves an X- property's value as written; X-ALT-DESC is TEXT (RFC 5545 §3.8.8.2).
    expect(xText(parsed.component.getFirstPropertyValue('x-alt-desc'))).toBe(event.description);
    expect(parsed.component.getFirstProperty('x-alt-desc')!.getParameter('fmttype')).toBe('text/html');
    expect(parsed.location).toBe('Bar; Grill, Inc., Hauptstr. 1, Leipzig, Germany');
    expect(parsed.component.getFirstProperty('categories')!.getValues()).toEqual(['Jazz', 'Rock, Pop']);
    // The first organizer has no email, so no calendar address: the first one with an email is the ORGANIZER.
    const organizer = parsed.component.getFirstProperty('organizer')!;
    expect(organizer.getParameter('cn')).toBe('The "Jazz" Club');
    expect(organizer.getFirstValue()).toBe('mailto:club@example.test');
    expect(parsed.component.getFirstPropertyValue('url')).toBe(event.url);
    expect(parsed.component.getFirstPropertyValue('attach')).toBe('https://images.test/w_100%2Ch_100%3Bv=1/photo.jpg');
    expect(parsed.component.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(parsed.component.getFirstPropertyValue('geo')).toBeNull();
    expect(parsed.component.getFirstPropertyValue('created')!.toString()).toBe(event.date_utc.replace(' ', 'T') + 'Z');
    expect(parsed.component.getFirstPropertyValue('last-modified')!.toString()).toBe(event.modified_utc.replace(' ', 'T') + 'Z');
    expect(parsed.component.getFirstPropertyValue('dtstamp')!.toString()).toBe(event.modified_utc.replace(' ', 'T') + 'Z');
    expect(res.body.split('\r\n').some((line) => line.startsWith(' '))).toBe(true);
  });

  it('keeps the UID when the event moves, and counts real updates in SEQUENCE (trash too)', async () => {
    const event = await h.make({ title: 'Gig', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' });
    const sequenceOf = async (query = WIDE, role?: Role) => (await h.parsed(query, role)).byUid.get(uid(event))?.sequence;
    expect(await sequenceOf()).toBe(0);
    const moved = await h.update(event.id, { start_date: '2027-02-10 20:00:00', end_date: '2027-02-10 23:00:00' });
    const { byUid } = await h.parsed();
    expect([...byUid.keys()]).toEqual([uid(event)]);
    expect(byUid.get(uid(event))!.sequence).toBe(1);
    expect(byUid.get(uid(event))!.startDate.toUnixTime()).toBe(unixOf(moved.utc_start_date));
    await h.update(event.id, moved); // its own GET body sent back: no change, no new revision
    expect(await sequenceOf()).toBe(1);
    await h.update(event.id, { categories: ['Music'] }); // links alone are a change
    expect(await sequenceOf()).toBe(2);
    await h.update(event.id, { title: 'Gig!' });
    expect(await sequenceOf()).toBe(3);
    const trashed = await t().request({ method: 'DELETE', url: `${EVENTS}/${event.id}`, headers: (await t().user('administrator')).headers });
    expect(trashed.statusCode).toBe(200);
    expect(await sequenceOf()).toBeUndefined();
    const asEditor = await h.parsed(`${WIDE}&status=trash`, 'editor');
    expect(asEditor.byUid.get(uid(event))!.sequence).toBe(4);
    expect(asEditor.byUid.get(uid(event))!.component.getFirstPropertyValue('status')).toBe('CANCELLED');
  });

  it('shows what the JSON list shows: drafts to editors only, protected events only with their password', async () => {
    const open = await h.make({ title: 'Open', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' });
    const draft = await h.make({ title: 'Draft', status: 'draft', start_date: '2027-01-11 20:00:00', end_date: '2027-01-11 23:00:00' });
    const locked = await h.make({
      title: 'Locked', password: 'secret', description: 'Hidden', start_date: '2027-01-12 20:00:00', end_date: '2027-01-12 23:00:00',
    });
    expect([...(await h.parsed()).byUid.keys()]).toEqual([uid(open)]);
    const editor = await h.parsed(`${WIDE}&status=draft`, 'editor');
    expect([...editor.byUid.keys()]).toEqual([uid(draft)]);
    expect(editor.byUid.get(uid(draft))!.component.getFirstPropertyValue('status')).toBe('TENTATIVE');
    expect((await h.feed(`${WIDE}&status=draft`, 'editor')).headers['cache-control']).toBe('private, no-cache');
    const unlocked = await h.parsed(`${WIDE}&password=secret`);
    expect([...unlocked.byUid.keys()]).toEqual([uid(open), uid(locked)]);
    expect(unlocked.byUid.get(uid(locked))!.description).toBe('Hidden');
    expect([...(await h.parsed(`${WIDE}&password=wrong`)).byUid.keys()]).toEqual([uid(open)]);

    const anonymousDraft = await h.feed(`${WIDE}&status=draft`);
    expect(anonymousDraft.statusCode).toBe(400);
    expect(anonymousDraft.headers['content-type']).toContain('application/json');
    expect(anonymousDraft.json.code).toBe('rest_invalid_param');
  });

  it('applies the list filters, and a bad filter is the JSON 400 of the API', async () => {
    const music = await h.make({ title: 'Music', categories: ['Music'], start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' });
    await h.make({ title: 'Talk', categories: ['Talks'], start_date: '2027-01-11 20:00:00', end_date: '2027-01-11 23:00:00' });
    expect([...(await h.parsed(`${WIDE}&categories=music`)).byUid.keys()]).toEqual([uid(music)]);
    expect((await h.parsed(`${WIDE}&search=Talk`)).events.map((e) => e.summary)).toEqual(['Talk']);
    const bad = await h.feed(`${WIDE}&categories=nope`);
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/json');
    expect(bad.json).toEqual({
      code: 'rest_invalid_param', message: 'Invalid parameter(s): categories',
      data: { status: 400, params: { categories: 'No categories term matches "nope".' }, details: [] },
    });
  });

  it('is not paged: every event of the window, page and per_page ignored', async () => {
    for (let i = 1; i <= 12; i++) await h.make({ title: `E${i}`, start_date: `2027-01-${String(i).padStart(2, '0')} 10:00:00`, end_date: `2027-01-${String(i).padStart(2, '0')} 11:00:00` });
    expect((await h.parsed()).events).toHaveLength(12);
    expect((await h.parsed(`${WIDE}&per_page=2&page=3`)).events).toHaveLength(12);
  });

  it('covers 30 days back to two years ahead when no date is given', async () => {
    const today = DateTime.utc().startOf('day');
    const at = (days: number) => today.plus({ days }).toFormat('yyyy-MM-dd 10:00:00');
    const made: Record<string, Json> = {};
    for (const [name, days] of [['-40', -40], ['-20', -20], ['+1', 1], ['+700', 700], ['+740', 740]] as const) {
      made[name] = await h.make({ title: name, start_date: at(days), end_date: at(days).replace('10:00', '11:00') });
    }
    const { events } = await h.parsed('');
    expect(events.map((e) => e.summary)).toEqual(['-20', '+1', '+700']);
    // The JSON list keeps its own default window: from today.
    expect((await t().request({ url: EVENTS })).json.events.map((e: Json) => e.title)).toEqual(['+1', '+700']);
    // A date given is the caller's window.
    expect((await h.parsed(`start_date=${at(-50).slice(0, 10)}&end_date=${at(-30).slice(0, 10)}`)).events.map((e) => e.summary)).toEqual(['-40']);
  });

  it('answers 304 to If-None-Match with the current ETag, and 200 with a new body after a change', async () => {
    const event = await h.make({ title: 'Gig', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' });
    const first = await h.feed();
    const etag = String(first.headers.etag);
    expect((await h.feed()).headers.etag).toBe(etag); // the same data, the same body
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await h.feed(WIDE, undefined, { 'if-none-match': inm });
      expect(res.statusCode, inm).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
    }
    // If-None-Match wins over a date that alone would give 304.
    const mismatch = await h.feed(WIDE, undefined, { 'if-none-match': '"other"', 'if-modified-since': 'Fri, 01 Jan 2100 00:00:00 GMT' });
    expect(mismatch.statusCode).toBe(200);
    await h.update(event.id, { title: 'Gig 2' });
    const changed = await h.feed(WIDE, undefined, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(parseFeed(changed.body).events[0].summary).toBe('Gig 2');
  });

  afterEach(() => vi.useRealTimers());

  it('answers 304 to If-Modified-Since, and never hides a trash behind it', async () => {
    const event = await h.make({ title: 'Gig', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' });
    await h.make({ title: 'Other', start_date: '2027-01-11 20:00:00', end_date: '2027-01-11 23:00:00' });
    // Right after a write its second may still see another write: no 304 by date, and a date a second earlier.
    const fresh = await h.feed();
    const freshDate = String(fresh.headers['last-modified']);
    expect((await h.feed(WIDE, undefined, { 'if-modified-since': freshDate })).statusCode).toBe(200);

    // Some seconds later (the clock moved on), the date is settled and a copy of that date is current.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10_000);
    const settled = await h.feed();
    const since = String(settled.headers['last-modified']);
    expect(Date.parse(since)).toBeGreaterThan(Date.parse(freshDate));
    const notModified = await h.feed(WIDE, undefined, { 'if-modified-since': since });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect((await h.feed(WIDE, undefined, { 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' })).statusCode).toBe(200);
    vi.useRealTimers();

    // The trashed event has no row in the feed any more; the date of the last write still moves.
    await t().request({ method: 'DELETE', url: `${EVENTS}/${event.id}`, headers: (await t().user('administrator')).headers });
    const after = await h.feed(WIDE, undefined, { 'if-modified-since': since });
    expect(after.statusCode).toBe(200);
    expect(parseFeed(after.body).events.map((e) => e.summary)).toEqual(['Other']);
    const deleted = await t().request({ method: 'DELETE', url: `${EVENTS}/${event.id}?force=true`, headers: (await t().user('administrator')).headers });
    expect(deleted.statusCode).toBe(200);
    expect((await h.feed(WIDE, undefined, { 'if-modified-since': String(after.headers['last-modified']) })).statusCode).toBe(200);
  });

  it('is documented: text/calendar beside the JSON of GET /events, and 304', async () => {
    const doc = (await t().request({ url: `${API}/doc` })).json;
    const list = doc.paths['/events'].get;
    expect(Object.keys(list.responses['200'].content)).toEqual(['application/json', 'text/calendar']);
    expect(list.responses['200'].content['text/calendar'].schema.type).toBe('string');
    expect(list.responses['304'].description).toMatch(/If-None-Match/);
    expect(doc.paths['/events'].post.responses['304']).toBeUndefined();
  });
});

describeEachDialect('GET /events as iCalendar, capped', (t) => {
  const h = helpers(t);

  it('holds at most CAL_FEED_MAX_EVENTS events, the first in list order', async () => {
    for (let i = 5; i >= 1; i--) await h.make({ title: `E${i}`, start_date: `2027-01-0${i} 10:00:00`, end_date: `2027-01-0${i} 11:00:00` });
    expect((await h.parsed()).events.map((e) => e.summary)).toEqual(['E1', 'E2', 'E3']);
    expect((await t().request({ url: `${EVENTS}?${WIDE}` })).json.total).toBe(5);
  });
}, { CAL_FEED_MAX_EVENTS: '3' });

/** The services as app.ts wires them, on the test's database: what the site's pages call. */
function feedService(t: () => TestContext) {
  const { database, config } = t();
  const store = createStore(database.db, database.dialect);
  const urls = createUrls(config);
  const deps = { store, urls, config, watch: createChangeWatch(store) };
  const events = createEventService({ ...deps, venues: createLinkedPostService(venueKind, deps), organizers: createLinkedPostService(organizerKind, deps) });
  return createFeedService({ events, urls, config, store });
}

describeEachDialect('FeedService.calendar', (t) => {
  const h = helpers(t);
  const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: ApiError) => error.toBody());

  it('gives one event by id or slug, whatever the window, with its own file name and the given title', async () => {
    const past = await h.make({ title: 'Old Gig', start_date: '2020-01-10 20:00:00', end_date: '2020-01-10 23:00:00', timezone: 'Europe/Berlin' });
    await h.make({ title: 'Other', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' });
    const feeds = feedService(t);
    for (const event of [{ id: past.id }, { slug: 'old-gig' }]) {
      const feed = await feeds.calendar({ query: {}, caller: null, event, title: 'Music, Jazz – My calendar' });
      expect(feed.filename).toBe('old-gig.ics');
      const parsed = parseFeed(feed.body.toString());
      expect([...parsed.byUid.keys()]).toEqual([uid(past)]);
      expect(xText(parsed.calendar.getFirstPropertyValue('name'))).toBe('Music, Jazz – My calendar');
      expect(xText(parsed.calendar.getFirstPropertyValue('x-wr-calname'))).toBe('Music, Jazz – My calendar');
      expect(parsed.events[0].startDate.toUnixTime()).toBe(unixOf(past.utc_start_date));
      expect(feed.etag).toMatch(/^"[\w-]+"$/);
    }
  });

  it('throws the errors of a single read: 404, 403 for drafts, trash and a missing password', async () => {
    const feeds = feedService(t);
    const draft = await h.make({ title: 'Draft', status: 'draft', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' });
    const locked = await h.make({ title: 'Locked', password: 'secret', start_date: '2027-01-11 20:00:00', end_date: '2027-01-11 23:00:00' });
    expect(await rejection(feeds.calendar({ query: {}, caller: null, event: { slug: 'nope' } }))).toMatchObject({ code: 'rest-event-not-found', data: { status: 404 } });
    expect(await rejection(feeds.calendar({ query: {}, caller: null, event: { id: draft.id } }))).toMatchObject({ code: 'event-not-accessible', data: { status: 403 } });
    for (const password of [undefined, 'wrong']) {
      expect(await rejection(feeds.calendar({ query: {}, caller: null, event: { id: locked.id }, password }))).toEqual({
        code: 'event-password-protected', message: 'The requested event is not accessible without a password', data: { status: 403 },
      });
    }
    const unlocked = await feeds.calendar({ query: {}, caller: null, event: { id: locked.id }, password: 'secret' });
    expect(parseFeed(unlocked.body.toString()).events.map((e) => e.summary)).toEqual(['Locked']);
    await t().request({ method: 'DELETE', url: `${EVENTS}/${locked.id}`, headers: (await t().user('administrator')).headers });
    expect(await rejection(feeds.calendar({ query: {}, caller: null, event: { id: locked.id }, password: 'secret' }))).toMatchObject({ code: 'event-no-longer-available' });
    expect(await rejection(feeds.calendar({ query: { categories: ['nope'] }, caller: null }))).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
  });

  it('names a list feed after its title, in ASCII', async () => {
    const feeds = feedService(t);
    expect((await feeds.calendar({ query: {}, caller: null, title: 'Musique – Mon calendrier' })).filename).toBe('musique-mon-calendrier.ics');
    expect((await feeds.calendar({ query: {}, caller: null, title: '音楽' })).filename).toBe('events.ics');
    expect((await feeds.calendar({ query: {}, caller: null })).filename).toBe('cal-events.ics');
  });
});
