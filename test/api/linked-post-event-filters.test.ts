import { DateTime } from 'luxon';
import { expect, it } from 'vitest';
import { API, describeEachDialect } from '../helpers/test-app.ts';

// The event filters of the venue and organizer lists: `event`, `has_events`, `only_with_upcoming`.
for (const { plural, name } of [
  { plural: 'venues', name: 'venue' },
  { plural: 'organizers', name: 'organizer' },
]) {
  describeEachDialect(`GET /${plural} event filters`, (t) => {
    const as = async (role: 'administrator' | 'contributor' = 'administrator') => (await t().user(role)).headers;
    const record = async (label: string) =>
      (await t().request({ method: 'POST', url: `${API}/${plural}`, headers: await as(), payload: { [name]: label } })).json.id as number;
    const event = async (linkedId: number, start: DateTime, status = 'publish') => {
      const res = await t().request({
        method: 'POST', url: `${API}/events`, headers: await as(),
        payload: {
          title: `Event at ${start.toISODate()}`, status, [name]: name === 'venue' ? linkedId : [linkedId],
          start_date: start.toFormat('yyyy-MM-dd HH:mm:ss'), end_date: start.plus({ hours: 2 }).toFormat('yyyy-MM-dd HH:mm:ss'),
        },
      });
      expect(res.statusCode).toBe(201);
      return res.json.id as number;
    };
    const names = async (query: string, headers = {}) =>
      (await t().request({ url: `${API}/${plural}?${query}`, headers })).json[plural].map((r: Record<string, string>) => r[name]).sort();

    it('event=<id> lists the records linked to that event; an unknown event is 400', async () => {
      const a = await record('Alpha');
      await record('Beta');
      const id = await event(a, DateTime.utc().plus({ days: 3 }));
      expect(await names(`event=${id}`)).toEqual(['Alpha']);
      const unknown = await t().request({ url: `${API}/${plural}?event=999999` });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json.data.params).toHaveProperty('event');
      expect((await t().request({ url: `${API}/${plural}?event=abc` })).statusCode).toBe(400);
    });

    it('has_events=true keeps records linked from a live event; false keeps the rest', async () => {
      const withPublished = await record('Published link');
      const withDraft = await record('Draft link');
      await record('No link');
      await event(withPublished, DateTime.utc().minus({ days: 30 }));
      await event(withDraft, DateTime.utc().plus({ days: 30 }), 'draft');
      expect(await names('has_events=true')).toEqual(['Published link']);
      expect(await names('has_events=false')).toEqual(['Draft link', 'No link']);
      expect(await names('has_events=no')).toEqual(['Draft link', 'No link']);
      expect((await t().request({ url: `${API}/${plural}?has_events=maybe` })).statusCode).toBe(400);
      // Echoed as WordPress writes booleans into a URL.
      expect((await t().request({ url: `${API}/${plural}?has_events=no` })).json.rest_url).toContain('has_events=0');
      expect((await t().request({ url: `${API}/${plural}?has_events=yes` })).json.rest_url).toContain('has_events=1');
    });

    it('only_with_upcoming=true keeps records with an event not started yet, visible to the caller', async () => {
      const past = await record('Past only');
      const future = await record('Future');
      const draftFuture = await record('Draft future');
      await event(past, DateTime.utc().minus({ days: 2 }));
      await event(future, DateTime.utc().plus({ days: 2 }));
      await event(draftFuture, DateTime.utc().plus({ days: 2 }), 'draft');
      expect(await names('only_with_upcoming=true')).toEqual(['Future']);
      expect(await names('only_with_upcoming=true', await as())).toEqual(['Draft future', 'Future']);
      expect(await names('only_with_upcoming=false')).toEqual(['Draft future', 'Future', 'Past only']);
      const linked = await t().request({ url: `${API}/${plural}?only_with_upcoming=1&per_page=1` });
      expect(linked.json.rest_url).toContain('only_with_upcoming=1');
    });

    it('trashing the record unlinks it from its events, and only it', async () => {
      const kept = await record('Kept');
      const gone = await record('Gone');
      const payload = name === 'venue' ? { venue: gone } : { organizer: [kept, gone] };
      const start = DateTime.utc().plus({ days: 5 }).toFormat('yyyy-MM-dd HH:mm:ss');
      const created = await t().request({ method: 'POST', url: `${API}/events`, headers: await as(), payload: { title: 'E', start_date: start, end_date: start, ...payload } });
      await t().request({ method: 'DELETE', url: `${API}/${plural}/${gone}`, headers: await as() });
      const after = await t().request({ url: `${API}/events/${created.json.id}` });
      if (name === 'venue') expect(after.json.venue).toEqual([]);
      else expect(after.json.organizer.map((o: { id: number }) => o.id)).toEqual([kept]);
    });
  });
}

describeEachDialect('list totals after writes', (t) => {
  it('are never stale: every write moves the data version the cached totals are checked against', async () => {
    const admin = (await t().user('administrator')).headers;
    const start = DateTime.utc().plus({ days: 1 }).toFormat('yyyy-MM-dd HH:mm:ss');
    const total = async () => (await t().request({ url: `${API}/events` })).json.total;
    const created = await t().request({ method: 'POST', url: `${API}/events`, headers: admin, payload: { title: 'A', start_date: start, end_date: start } });
    expect(await total()).toBe(1);
    await t().request({ method: 'POST', url: `${API}/events`, headers: admin, payload: { title: 'B', start_date: start, end_date: start } });
    expect(await total()).toBe(2);
    await t().request({ method: 'PATCH', url: `${API}/events/${created.json.id}`, headers: admin, payload: { hide_from_listings: true } });
    expect(await total()).toBe(1);
    await t().request({ method: 'PATCH', url: `${API}/events/${created.json.id}`, headers: admin, payload: { hide_from_listings: false } });
    expect(await total()).toBe(2);
    await t().request({ method: 'DELETE', url: `${API}/events/${created.json.id}`, headers: admin });
    expect(await total()).toBe(1);
    const venue = await t().request({ method: 'POST', url: `${API}/venues`, headers: admin, payload: { venue: 'V' } });
    expect((await t().request({ url: `${API}/venues` })).json.total).toBe(1);
    await t().request({ method: 'DELETE', url: `${API}/venues/${venue.json.id}`, headers: admin });
    expect((await t().request({ url: `${API}/venues` })).json.total).toBe(0);
  });
});
