import { expect, it } from 'vitest';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const EVENT = { start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' };

describeEachDialect('lists for incremental readers: modified_after/modified_before, orderby and order', (t) => {
  const admin = async () => (await t().user('administrator')).headers;
  const make = async (path: string, payload: Record<string, unknown>, modifiedUtc: string) => {
    const res = await t().request({ method: 'POST', url: `${API}/${path}`, headers: await admin(), payload });
    expect(res.statusCode).toBe(201);
    const table = path === 'events' ? 'event' : path === 'venues' ? 'venue' : 'organizer';
    await t().database.db.updateTable(table).set({ modified_utc: modifiedUtc }).where('id', '=', res.json.id).execute();
    return res.json.id as number;
  };
  const list = async (path: string, query: string) => {
    const res = await t().request({ url: `${API}/${path}?${query}`, headers: await admin() });
    expect(res.statusCode, JSON.stringify(res.json)).toBe(200);
    return res.json;
  };

  it('events: a modification window, and any order of date, modified, title or id; without orderby the order of today', async () => {
    const b = await make('events', { ...EVENT, title: 'B', start_date: '2027-03-01 10:00:00' }, '2026-01-02 00:00:00');
    const a = await make('events', { ...EVENT, title: 'A', start_date: '2027-03-03 10:00:00' }, '2026-01-03 00:00:00');
    const c = await make('events', { ...EVENT, title: 'C', start_date: '2027-03-02 10:00:00' }, '2026-01-01 00:00:00');
    const ids = async (query: string) => (await list('events', `start_date=2000-01-01&${query}`)).events.map((e: { id: number }) => e.id);
    expect(await ids('')).toEqual([b, c, a]); // by start, as before
    expect(await ids('modified_after=2026-01-01 12:00:00')).toEqual([b, a]);
    expect(await ids('modified_before=2026-01-02T12:00:00Z')).toEqual([b, c]);
    expect(await ids('modified_after=2026-01-01T23:00:00-02:00')).toEqual([a]); // 01:00 UTC on the 2nd: an offset is honoured
    expect(await ids('orderby=modified&order=asc')).toEqual([c, b, a]);
    expect(await ids('orderby=modified')).toEqual([a, b, c]); // desc by default, as WordPress
    expect(await ids('orderby=title&order=asc')).toEqual([a, b, c]);
    expect(await ids('orderby=id&order=desc')).toEqual([c, a, b]);
    const page = await list('events', 'start_date=2000-01-01&orderby=modified&order=asc&modified_after=2025-12-31&per_page=1');
    const next = new URL(page.next_rest_url).searchParams; // the next page keeps the window and the order
    expect([next.get('modified_after'), next.get('orderby'), next.get('order'), next.get('page')]).toEqual(['2025-12-31', 'modified', 'asc', '2']);
  });

  it('venues and organizers take the same window and order', async () => {
    const older = await make('venues', { venue: 'Older' }, '2026-02-01 00:00:00');
    const newer = await make('venues', { venue: 'Newer' }, '2026-02-03 00:00:00');
    const venueIds = async (query: string) => (await list('venues', query)).venues.map((v: { id: number }) => v.id);
    expect(await venueIds('modified_after=2026-02-02')).toEqual([newer]);
    expect(await venueIds('orderby=modified&order=asc')).toEqual([older, newer]);
    expect(await venueIds('orderby=title&order=asc')).toEqual([newer, older]);
    const first = await make('organizers', { organizer: 'First' }, '2026-03-01 00:00:00');
    const second = await make('organizers', { organizer: 'Second' }, '2026-03-02 00:00:00');
    expect((await list('organizers', 'modified_before=2026-03-01 12:00:00')).organizers.map((o: { id: number }) => o.id)).toEqual([first]);
    expect((await list('organizers', 'orderby=modified&order=desc')).organizers.map((o: { id: number }) => o.id)).toEqual([second, first]);
  });

  it('refuses a bad window or order with 400 naming the parameter', async () => {
    for (const [path, query, param] of [
      ['events', 'modified_after=someday', 'modified_after'], ['events', 'orderby=start', 'orderby'], ['events', 'order=up', 'order'],
      ['venues', 'modified_before=2026-13-45', 'modified_before'], ['organizers', 'orderby=distance', 'orderby'],
    ]) {
      const res = await t().request({ url: `${API}/${path}?${query}` });
      expect([query, res.statusCode, res.json.code, Object.keys(res.json.data.params)]).toEqual([query, 400, 'rest_invalid_param', [param]]);
    }
  });
});
