import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const EVENT = { title: 'Gig', start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' };

describeEachDialect('conditional requests: ETag, Last-Modified, 304 and If-Match', (t) => {
  const admin = async () => (await t().user('administrator')).headers;
  const get = async (url: string, headers: Record<string, string> = {}) => t().request({ url: `${API}${url}`, headers: { ...(await admin()), ...headers } });
  const send = async (method: string, url: string, payload: Record<string, unknown> | undefined, headers: Record<string, string> = {}) =>
    t().request({ method, url: `${API}${url}`, headers: { ...(await admin()), ...headers }, ...(payload ? { payload } : {}) });
  // Writes within the last few seconds keep If-Modified-Since answering in full: date the last write back.
  // (Written beside the store, as another process would: the next turn of the event loop sees it.)
  const settle = async () => {
    await t().database.db.updateTable('data_version').set({ changed_utc: '2026-01-01 00:00:00.000' }).execute();
    await new Promise((resolve) => setImmediate(resolve));
  };

  it('a record and a list carry a strong ETag and Last-Modified; a current copy gets 304 without a body', async () => {
    const event = (await send('POST', '/events', { ...EVENT, venue: { venue: 'Hall' } })).json;
    for (const url of [`/events/${event.id}`, '/events?start_date=2000-01-01', `/venues/${event.venue.id}`, '/venues', '/categories?hide_empty=false']) {
      const first = await get(url);
      expect(first.statusCode).toBe(200);
      expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
      expect(new Date(String(first.headers['last-modified'])).getTime()).not.toBeNaN();
      const again = await get(url, { 'if-none-match': String(first.headers.etag) });
      expect([url, again.statusCode, again.body]).toEqual([url, 304, '']);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect((await get(url, { 'if-none-match': `W/${first.headers.etag}, "other"` })).statusCode).toBe(304); // weak comparison
      expect((await get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    }
  });

  it('sends the bytes its Content-Length counts and its strong ETag digests, whatever the characters', async () => {
    // Texts are sent as strings, which Node encodes: the header must count, and the tag digest, the bytes that
    // went out (the JSON escapes every character beyond ASCII, as the reference's does). An event's own tag is
    // composed from its parts' digests (events/event-json.ts): the same for the same bytes, read after read.
    const title = 'Café – Zürich 東京 🎷';
    const created = await send('POST', '/events', { ...EVENT, title, description: '<p>Ünïcödé — ½ 🎉</p>', venue: { venue: 'Salle Pleyel – Paris' } });
    expect(created.statusCode).toBe(201);
    const id = created.json.id;
    const [built, kept] = [await get(`/events/${id}`), await get(`/events/${id}`)];
    for (const answer of [created, built, kept, await get('/events?start_date=2000-01-01'), await get(`/venues/${created.json.venue.id}`)]) {
      expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      if (answer !== created && answer !== built && answer !== kept) expect(answer.headers.etag).toBe(`"${createHash('sha1').update(answer.rawPayload).digest('base64url')}"`);
    }
    expect(kept.rawPayload.equals(built.rawPayload)).toBe(true);
    expect(kept.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(kept.headers.etag).toBe(built.headers.etag);
    expect((await get(`/events/${id}`)).json.title).toBe(title);
    expect((await get('/events?start_date=2000-01-01')).json.events[0].venue.venue).toBe('Salle Pleyel – Paris');
  });

  it('an event\'s tag moves when what it embeds changes, and If-Modified-Since follows the last write', async () => {
    const event = (await send('POST', '/events', { ...EVENT, venue: { venue: 'Hall' } })).json;
    const before = await get(`/events/${event.id}`);
    await send('POST', `/venues/${event.venue.id}`, { city: 'Lyon' });
    const after = await get(`/events/${event.id}`, { 'if-none-match': String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.json.venue.city).toBe('Lyon');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // A list's tag (composed from its items' tags and its envelope) moves with an item, and with the envelope.
    const list = await get('/events?start_date=2000-01-01');
    await send('POST', `/venues/${event.venue.id}`, { city: 'Lille' });
    const listAfter = await get('/events?start_date=2000-01-01', { 'if-none-match': String(list.headers.etag) });
    expect([listAfter.statusCode, listAfter.json.events[0].venue.city]).toEqual([200, 'Lille']);
    await send('POST', '/events', { ...EVENT, title: 'Second' });
    const grown = await get('/events?start_date=2000-01-01&per_page=1', { 'if-none-match': String(listAfter.headers.etag) });
    const single = await get('/events?start_date=2000-01-01&per_page=1');
    expect([grown.statusCode, grown.json.total, single.headers.etag]).toEqual([200, 2, grown.headers.etag]);
    expect(grown.headers.etag).not.toBe(listAfter.headers.etag);

    await settle();
    const dated = await get(`/events/${event.id}`);
    expect(dated.headers['last-modified']).toBe('Thu, 01 Jan 2026 00:00:00 GMT');
    expect((await get(`/events/${event.id}`, { 'if-modified-since': 'Fri, 02 Jan 2026 00:00:00 GMT' })).statusCode).toBe(304);
    expect((await get(`/events/${event.id}`, { 'if-modified-since': 'Wed, 31 Dec 2025 00:00:00 GMT' })).statusCode).toBe(200);
    // If-None-Match wins over If-Modified-Since.
    expect((await get(`/events/${event.id}`, { 'if-none-match': '"other"', 'if-modified-since': 'Fri, 02 Jan 2026 00:00:00 GMT' })).statusCode).toBe(200);
  });

  it('an event\'s tag names its bytes however it is served (built, kept, from its stored text), as its terms\' counts move', async () => {
    const headers = await admin();
    /** A read by a process holding nothing (an app of its own on the database): from the stored text once one is. */
    const elsewhere = async (id: number) => {
      const app = await buildApp({ config: t().config, database: t().database, logger: false });
      try {
        return await app.inject({ url: `${API}/events/${id}`, headers });
      } finally {
        await app.close(); // which stores the text its read built
      }
    };
    const event = (await send('POST', '/events', { ...EVENT, categories: ['Jazz'], tags: ['Late'], venue: { venue: 'Hall' }, organizer: [{ organizer: 'Ann' }, { organizer: 'Bob' }] })).json;
    const sent: Array<{ tag: string; body: string; count: number }> = [];
    // Per round: built elsewhere, then from its stored text elsewhere; here built, then kept (put together anew
    // once the counts moved, then kept so).
    for (let round = 0; round < 3; round++) {
      for (const answer of [await elsewhere(event.id), await elsewhere(event.id), await get(`/events/${event.id}`), await get(`/events/${event.id}`), await get(`/events/${event.id}`)]) {
        expect(answer.statusCode).toBe(200);
        sent.push({ tag: String(answer.headers.etag), body: answer.body, count: JSON.parse(answer.body).categories[0].count });
      }
      await send('POST', '/events', { ...EVENT, title: `Jazz ${round}`, categories: ['Jazz'] });
    }
    expect(sent.map((answer) => answer.count)).toEqual([1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3]);
    // Equal bytes have equal tags, and other bytes other tags.
    for (const a of sent) for (const b of sent) expect(a.tag === b.tag).toBe(a.body === b.body);
    expect(new Set(sent.map((answer) => answer.tag)).size).toBe(3);
    // A tag read elsewhere is the one a write here checks If-Match against.
    const current = await elsewhere(event.id);
    expect((await send('POST', `/events/${event.id}`, { title: 'Matched' }, { 'if-match': String(current.headers.etag) })).statusCode).toBe(200);
    expect((await send('POST', `/events/${event.id}`, { title: 'Stale' }, { 'if-match': String(current.headers.etag) })).statusCode).toBe(412);
  });

  it('an event\'s tag moves with each part it embeds, and only then', async () => {
    const event = (await send('POST', '/events', { ...EVENT, categories: ['Jazz'], venue: { venue: 'Hall' }, organizer: [{ organizer: 'Ann' }] })).json;
    const tag = async () => String((await get(`/events/${event.id}`)).headers.etag);
    const seen = [await tag()];
    for (const [path, payload] of [
      [`/venues/${event.venue.id}`, { city: 'Lyon' }], [`/organizers/${event.organizer[0].id}`, { phone: '123' }],
      [`/categories/${event.categories[0].id}`, { description: 'Late' }], [`/events/${event.id}`, { title: 'Renamed' }],
      [`/events/${event.id}`, { tags: ['Loud'] }],
    ] as const) {
      expect((await send('POST', path, payload)).statusCode).toBe(200);
      expect(await tag()).toBe(await tag());
      seen.push(await tag());
    }
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('If-Match: the current tag writes, a stale one is 412 with the record as it is now, and nothing is written', async () => {
    const event = (await send('POST', '/events', EVENT)).json;
    const read = await get(`/events/${event.id}`);
    const tag = String(read.headers.etag);
    const first = await send('POST', `/events/${event.id}`, { title: 'Editor A' }, { 'if-match': tag });
    expect(first.statusCode).toBe(200);
    const second = await send('POST', `/events/${event.id}`, { title: 'Editor B' }, { 'if-match': tag });
    expect([second.statusCode, second.json.code]).toEqual([412, 'rest_precondition_failed']);
    const now = await get(`/events/${event.id}`);
    expect(second.json.data.current).toEqual(now.json);
    expect(second.json.data.etag).toBe(now.headers.etag);
    expect(now.json.title).toBe('Editor A');
    const stale = await send('DELETE', `/events/${event.id}`, undefined, { 'if-match': tag });
    expect(stale.statusCode).toBe(412);
    expect((await get(`/events/${event.id}`)).json.status).toBe('publish');
    expect((await send('DELETE', `/events/${event.id}`, undefined, { 'if-match': `W/${now.headers.etag}` })).statusCode).toBe(412); // weak never matches
    expect((await send('DELETE', `/events/${event.id}`, undefined, { 'if-match': String(now.headers.etag) })).statusCode).toBe(200);
    expect((await send('POST', `/events/${event.id}`, { status: 'publish' }, { 'if-match': '*' })).statusCode).toBe(200);
  });

  it('If-Match on venues, organizers and terms too', async () => {
    for (const [path, payload, change] of [
      ['venues', { venue: 'Hall' }, { city: 'Nice' }], ['organizers', { organizer: 'Club' }, { phone: '123' }], ['categories', { name: 'Jazz' }, { description: 'Late' }],
    ] as const) {
      const made = (await send('POST', `/${path}`, payload)).json;
      const tag = String((await get(`/${path}/${made.id}`)).headers.etag);
      expect((await send('POST', `/${path}/${made.id}`, change, { 'if-match': tag })).statusCode).toBe(200);
      const stale = await send('POST', `/${path}/${made.id}`, { ...change, ...{ description: 'Other' } }, { 'if-match': tag });
      expect([path, stale.statusCode, stale.json.code]).toEqual([path, 412, 'rest_precondition_failed']);
      expect(stale.json.data.current).toEqual((await get(`/${path}/${made.id}`)).json);
      const deleted = await send('DELETE', `/${path}/${made.id}${path === 'categories' ? '' : '?force=true'}`, undefined, { 'if-match': tag });
      expect(deleted.statusCode).toBe(412);
      expect((await get(`/${path}/${made.id}`)).statusCode).toBe(200);
    }
  });

  it('parallel writers sending the same If-Match: exactly one wins, the others get 412', async () => {
    const event = (await send('POST', '/events', EVENT)).json;
    const tag = String((await get(`/events/${event.id}`)).headers.etag);
    const answers = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((who) => send('POST', `/events/${event.id}`, { title: `By ${who}` }, { 'if-match': tag })));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412]);
    const winner = answers.find((a) => a.statusCode === 200);
    expect((await get(`/events/${event.id}`)).json.title).toBe(winner?.json.title);
  });
});
