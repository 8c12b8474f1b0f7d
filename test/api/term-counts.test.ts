import { DateTime } from 'luxon';
import { expect, it } from 'vitest';
import { API, describeEachDialect } from '../helpers/test-app.ts';

describeEachDialect('term counts follow event writes', (t) => {
  it('count published events only, through create, status changes, term changes, trash and delete', async () => {
    const admin = (await t().user('administrator')).headers;
    const start = DateTime.utc().plus({ days: 3 }).toFormat('yyyy-MM-dd HH:mm:ss');
    const counts = async () => {
      const res = await t().request({ url: `${API}/categories?hide_empty=false&orderby=name` });
      return Object.fromEntries(res.json.categories.map((c: { name: string; count: number }) => [c.name, c.count]));
    };
    const write = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      t().request({ method, url: `${API}${url}`, headers: admin, ...(payload ? { payload } : {}) });

    const a = (await write('POST', '/events', { title: 'A', start_date: start, end_date: start, categories: 'Music,Art' })).json;
    const b = (await write('POST', '/events', { title: 'B', start_date: start, end_date: start, categories: 'Music', status: 'draft' })).json;
    expect(await counts()).toEqual({ Art: 1, Music: 1 });
    await write('PATCH', `/events/${b.id}`, { status: 'publish' });
    expect(await counts()).toEqual({ Art: 1, Music: 2 });
    await write('PATCH', `/events/${a.id}`, { categories: ['Art'] });
    expect(await counts()).toEqual({ Art: 1, Music: 1 });
    expect((await t().request({ url: `${API}/events/${b.id}` })).json.categories[0].count).toBe(1);
    await write('DELETE', `/events/${b.id}`);
    expect(await counts()).toEqual({ Art: 1, Music: 0 });
    expect((await t().request({ url: `${API}/categories` })).json.categories.map((c: { name: string }) => c.name)).toEqual(['Art']);
    await write('DELETE', `/events/${a.id}?force=true`);
    expect(await counts()).toEqual({ Art: 0, Music: 0 });
  });
});

describeEachDialect('event records after writes to what they embed', (t) => {
  it('are never stale: a changed venue, organizer, term or event shows on the next read, single and listed', async () => {
    const admin = (await t().user('administrator')).headers;
    const start = DateTime.utc().plus({ days: 3 }).toFormat('yyyy-MM-dd HH:mm:ss');
    const created = (await t().request({
      method: 'POST', url: `${API}/events`, headers: admin,
      payload: { title: 'E', start_date: start, end_date: start, venue: { venue: 'Old hall' }, organizer: [{ organizer: 'Old org' }], tags: 'old' },
    })).json;
    const read = async () => {
      const single = (await t().request({ url: `${API}/events/${created.id}` })).json;
      const listed = (await t().request({ url: `${API}/events` })).json.events[0];
      return [single, listed].map((e) => [e.title, e.venue.venue, e.organizer[0].organizer, e.tags[0].name].join('|'));
    };
    expect(await read()).toEqual(['E|Old hall|Old org|old', 'E|Old hall|Old org|old']);
    await t().request({ method: 'PATCH', url: `${API}/venues/${created.venue.id}`, headers: admin, payload: { venue: 'New hall' } });
    await t().request({ method: 'PATCH', url: `${API}/organizers/${created.organizer[0].id}`, headers: admin, payload: { organizer: 'New org' } });
    await t().request({ method: 'PATCH', url: `${API}/tags/${created.tags[0].id}`, headers: admin, payload: { name: 'new' } });
    await t().request({ method: 'PATCH', url: `${API}/events/${created.id}`, headers: admin, payload: { title: 'F' } });
    expect(await read()).toEqual(['F|New hall|New org|new', 'F|New hall|New org|new']);
  });
});

describeEachDialect('a kept event text while its terms are counted anew again and again', (t) => {
  it('shows the current counts on every read, single and listed, whether its new version was kept or not', async () => {
    const admin = (await t().user('administrator')).headers;
    const start = DateTime.utc().plus({ days: 3 }).toFormat('yyyy-MM-dd HH:mm:ss');
    const create = async (title: string) => {
      const res = await t().request({ method: 'POST', url: `${API}/events`, headers: admin, payload: { title, start_date: start, end_date: start, categories: 'Jazz,Blues', tags: 'live' } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json;
    };
    const first = await create('First');
    // Built from the database, the bytes every read of the record must equal (rebuilt: no kept text in it).
    const fresh = async () => (await t().request({ method: 'PATCH', url: `${API}/events/${first.id}`, headers: admin, payload: {} })).json;
    // Counts from 8 to 11: the term lists change length at 10, so the places the text keeps them at move.
    for (let i = 2; i <= 8; i++) await create(`Before ${i}`);
    // A text is kept from its second read, and a new version of it from its second read with the same counts:
    // three reads between counts reach both, and each read is checked.
    for (let events = 8; events <= 11; events++) {
      for (let read = 0; read < 3; read++) {
        const single = await t().request({ url: `${API}/events/${first.id}` });
        const listed = await t().request({ url: `${API}/events?per_page=50` });
        expect(single.statusCode).toBe(200);
        const { json_ld: _ld, ...record } = single.json;
        expect(record).toEqual(await fresh());
        expect(single.json.categories.map((c: { count: number }) => c.count)).toEqual([events, events]);
        expect(single.json.tags.map((c: { count: number }) => c.count)).toEqual([events]);
        expect(listed.json.events.find((e: { id: number }) => e.id === first.id)).toEqual(record);
      }
      await create(`Next ${events}`);
    }
  });
});
