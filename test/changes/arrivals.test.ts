import { expect, it } from 'vitest';
import { mayMatch } from '../../src/events/event-arrivals.ts';
import { createEventRepository, type EventListFilter, type EventWindow } from '../../src/events/event.repository.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

// A new event the kept pages and totals judge `false` is never read again for them (event-pages.ts,
// event-totals.ts): a `false` the database would answer `true` to leaves a list stale. So `mayMatch` is held to
// the repository's own filter, on every bound at and either side of an event's dates, in both columns.
describeEachDialect('a new event judged by its own columns never excludes what the database matches', (t) => {
  it('agrees with the repository on status, visibility, venue, ids and every window bound', async () => {
    const admin = (await t().user('administrator')).headers;
    const create = async (payload: Record<string, unknown>) => {
      const res = await t().request({ method: 'POST', url: `${API}/events`, headers: admin, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json as { id: number; venue: { id: number } | [] };
    };
    const timed = { start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00', timezone: 'Europe/Berlin' };
    const made = [
      await create({ ...timed, title: 'Plain' }),
      await create({ ...timed, title: 'At a venue', venue: { venue: 'Blue Room' } }),
      await create({ ...timed, title: 'Draft', status: 'draft' }),
      await create({ ...timed, title: 'Hidden', hide_from_listings: true }),
      await create({ title: 'All day', start_date: '2027-03-06', end_date: '2027-03-07', all_day: true }),
      await create({ title: 'In New York', start_date: '2027-03-05 23:30:00', end_date: '2027-03-06 01:00:00', timezone: 'America/New_York' }),
    ];
    const ids = made.map((event) => event.id);
    const venueId = (made[1].venue as { id: number }).id;
    const events = createEventRepository(t().database.db, t().dialect);
    const rows = await events.arrivalsOf(ids);
    expect(rows).toHaveLength(ids.length);

    // Every bound of both columns at each stamp the events have, and a second either side of it.
    const stamps = [...new Set(rows.flatMap((row) => [row.start_local, row.end_local, row.start_utc, row.end_utc]))];
    const shift = (stamp: string, seconds: number) =>
      new Date(Date.parse(`${stamp.replace(' ', 'T')}Z`) + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
    const bounds = stamps.flatMap((stamp) => [shift(stamp, -1), stamp, shift(stamp, 1)]);
    const windows: EventWindow[] = [];
    for (const column of ['local', 'utc'] as const) {
      for (const at of bounds) {
        for (const bound of ['startFrom', 'endTo', 'startsBefore', 'startsAfter', 'endsBefore', 'endsAfter'] as const) {
          windows.push({ column, [bound]: at });
        }
      }
    }
    const filters: EventListFilter[] = [
      { statuses: ['publish'] }, { statuses: ['draft', 'pending'] }, { statuses: 'any' },
      { statuses: ['publish'], venueIds: [venueId] }, { statuses: 'any', ids: [ids[0], ids[2]] },
      ...windows.map((window) => ({ statuses: 'any' as const, window })),
    ];
    let excluded = 0;
    for (const filter of filters) {
      const matched = new Set((await events.listIds({ ...filter, ids: filter.ids ?? ids }, { column: 'id', direction: 'asc' }, 100, 0)));
      for (const row of rows) {
        const judged = mayMatch(row, filter);
        if (matched.has(row.id)) expect(judged, `${row.id} ${JSON.stringify(filter)}`).toBe(true);
        else if (!judged) excluded++;
      }
    }
    // Not a judge that says yes to everything: most pairs the database excludes are excluded here too.
    expect(excluded).toBeGreaterThan(filters.length * 2);
  });
});
