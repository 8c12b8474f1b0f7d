import { expect, it } from 'vitest';
import { API, API_URL, describeEachDialect, PUBLIC_URL } from '../helpers/test-app.ts';

const WP = '/wp-json/tribe/events/v1';
const WP_URL = `${PUBLIC_URL}${WP}`;
const PREFIXES = [
  { name: 'canonical path', path: API, url: API_URL, other: WP_URL },
  { name: 'WordPress path', path: WP, url: WP_URL, other: API_URL },
];
const EVENT = { title: 'Gig', start_date: '2030-05-01 20:00:00', end_date: '2030-05-01 23:00:00' };

/** Every API link in a body, at any depth: each must be on the path the request came in on. */
function apiLinks(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string' && /\/events\/v1(\/|\?|$)/.test(value)) found.push(value);
  else if (Array.isArray(value)) value.forEach((item) => apiLinks(item, found));
  else if (value && typeof value === 'object') Object.values(value).forEach((item) => apiLinks(item, found));
  return found;
}
function expectLinksOn(body: unknown, url: string, other: string, some = true) {
  const links = apiLinks(body);
  if (some) expect(links.length).toBeGreaterThan(0);
  for (const link of links) {
    expect(link.startsWith(url), link).toBe(true);
    expect(link.includes(other), link).toBe(false);
  }
}

for (const prefix of PREFIXES) {
  describeEachDialect(`The API on the ${prefix.name}`, (t) => {
    const json = { 'content-type': 'application/json' };

    it('creates, reads, updates, lists and deletes events, with every link on the path used', async () => {
      const admin = await t().user('administrator');
      const headers = { ...admin.headers, ...json };
      const created = await t().request({ method: 'POST', url: `${prefix.path}/events`, headers, payload: { ...EVENT, venue: { venue: 'Hall' }, organizer: [{ organizer: 'Ann' }], categories: ['Music'], tags: ['live'] } });
      expect(created.statusCode).toBe(201);
      expect(created.json.rest_url).toBe(`${prefix.url}/events/${created.json.id}`);
      expectLinksOn(created.json, prefix.url, prefix.other);
      const id = created.json.id;

      const read = await t().request({ url: `${prefix.path}/events/${id}` });
      expect(read.statusCode).toBe(200);
      expect(read.headers.allow).toBe('GET, POST, PUT, PATCH, DELETE');
      expectLinksOn(read.json, prefix.url, prefix.other);
      const bySlug = await t().request({ url: `${prefix.path}/events/by-slug/${read.json.slug}` });
      expect(bySlug.json.id).toBe(id);

      const updated = await t().request({ method: 'PATCH', url: `${prefix.path}/events/${id}`, headers, payload: { title: 'Gig 2' } });
      expect(updated.statusCode).toBe(200);
      expect(updated.json.title).toBe('Gig 2');
      expectLinksOn(updated.json, prefix.url, prefix.other);

      await t().request({ method: 'POST', url: `${prefix.path}/events`, headers, payload: { ...EVENT, title: 'Second' } });
      const page1 = await t().request({ url: `${prefix.path}/events?per_page=1&start_date=2030-01-01&end_date=2030-12-31` });
      expect(page1.statusCode).toBe(200);
      expect(page1.headers.allow).toBe('GET, POST');
      expect(page1.json.total).toBe(2);
      expect(page1.json.next_rest_url.startsWith(`${prefix.url}/events/?`)).toBe(true);
      expectLinksOn(page1.json, prefix.url, prefix.other);
      const page2 = await t().request({ url: page1.json.next_rest_url.slice(PUBLIC_URL.length) });
      expect(page2.statusCode).toBe(200);
      expect(page2.json.previous_rest_url.startsWith(`${prefix.url}/events/`)).toBe(true);
      expectLinksOn(page2.json, prefix.url, prefix.other);

      const trashed = await t().request({ method: 'DELETE', url: `${prefix.path}/events/${id}`, headers: admin.headers });
      expect(trashed.statusCode).toBe(200);
      expect(trashed.json.status).toBe('trash');
      const deleted = await t().request({ method: 'DELETE', url: `${prefix.path}/events/${id}?force=true`, headers: admin.headers });
      expect(deleted.statusCode).toBe(200);
      expect((await t().request({ url: `${API}/events/${id}`, headers: admin.headers })).statusCode).toBe(404);
    });

    it('creates, reads, updates, lists and deletes venues, organizers, categories and tags', async () => {
      const admin = await t().user('administrator');
      const headers = { ...admin.headers, ...json };
      for (const [plural, field] of [['venues', 'venue'], ['organizers', 'organizer'], ['categories', 'name'], ['tags', 'name']] as const) {
        const created = await t().request({ method: 'POST', url: `${prefix.path}/${plural}`, headers, payload: { [field]: `A ${plural}` } });
        expect(created.statusCode, plural).toBe(201);
        // Terms link to themselves; venue and organizer records carry no API link (as the reference's).
        const terms = field === 'name';
        expectLinksOn(created.json, prefix.url, prefix.other, terms);
        if (terms) expect(created.headers.location).toBe(`${prefix.url}/${plural}/${created.json.id}`);
        const url = `${prefix.path}/${plural}/${created.json.id}`;
        const read = await t().request({ url });
        expect(read.statusCode, plural).toBe(200);
        expectLinksOn(read.json, prefix.url, prefix.other, terms);
        const updated = await t().request({ method: 'PUT', url, headers, payload: { [field]: `B ${plural}` } });
        expect(updated.statusCode, plural).toBe(200);
        expect(updated.json[field]).toBe(`B ${plural}`);
        const list = await t().request({ url: `${prefix.path}/${plural}${terms ? '?hide_empty=false' : ''}` });
        expect(list.statusCode, plural).toBe(200);
        expect(list.json.total, plural).toBe(1);
        expectLinksOn(list.json, prefix.url, prefix.other);
        const deleted = await t().request({ method: 'DELETE', url: `${url}?force=true`, headers: admin.headers });
        expect(deleted.statusCode, plural).toBe(200);
      }
    });

    it('answers errors in the contract shape, with Allow', async () => {
      const missing = await t().request({ url: `${prefix.path}/events/999` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json.code).toBe('rest-event-not-found');
      expect(missing.headers.allow).toBe('GET, POST, PUT, PATCH, DELETE');
      const anonymous = await t().request({ method: 'POST', url: `${prefix.path}/events`, headers: json, payload: EVENT });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.headers.allow).toBe('GET, POST');
      const admin = await t().user('administrator');
      const bad = await t().request({ method: 'POST', url: `${prefix.path}/events`, headers: { ...admin.headers, ...json }, payload: { ...EVENT, start_date: 'never' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json.code).toBe('rest_invalid_param');
      expect(bad.headers.allow).toBe('GET, POST');
      expect((await t().request({ url: `${API}/events` })).json.total).toBe(0);
      const noRoute = await t().request({ url: `${prefix.path}/nothing` });
      expect(noRoute.statusCode).toBe(404);
      expect(noRoute.json.code).toBe('rest_no_route');
    });

    it('serves the iCalendar feed of the list', async () => {
      const admin = await t().user('administrator');
      await t().request({ method: 'POST', url: `${prefix.path}/events`, headers: { ...admin.headers, ...json }, payload: EVENT });
      const feed = await t().request({ url: `${prefix.path}/events?start_date=2030-01-01&end_date=2030-12-31`, headers: { accept: 'text/calendar' } });
      expect(feed.statusCode).toBe(200);
      expect(feed.headers['content-type']).toContain('text/calendar');
      expect(feed.body).toContain('SUMMARY:Gig');
      expect(feed.headers.allow).toBe('GET, POST');
    });

    it('serves a language segment in front of the path', async () => {
      const res = await t().request({ url: `/fr${prefix.path}/events/999` });
      expect(res.statusCode).toBe(404);
      expect(res.json.message).toBe("L'événement d'ID 99 n'existe pas.".replace('99', '999'));
      const list = await t().request({ url: `/de${prefix.path}/events` });
      expect(list.statusCode).toBe(200);
      expectLinksOn(list.json, prefix.url, prefix.other);
    });

    it('describes the namespace and the API under the path used', async () => {
      const namespace = prefix.path === WP ? 'tribe/events/v1' : 'cal/events/v1';
      const description = await t().request({ url: prefix.path });
      expect(description.statusCode).toBe(200);
      expect(description.headers.allow).toBe('GET');
      expect(description.json.namespace).toBe(namespace);
      expect(description.json.routes[`/${namespace}/events`]).toMatchObject({ namespace, methods: ['GET', 'POST'], _links: { self: [{ href: `${prefix.url}/events` }] } });
      expect(description.json.routes[`/${namespace}/events/(?P<id>\\d+)`].methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      expect(Object.keys(description.json.routes).every((route) => route.startsWith(`/${namespace}`))).toBe(true);
      expect(description.json.routes[`/${namespace}`].endpoints[0].args.namespace.default).toBe(namespace);
      expect(description.json._links.up[0].href).toBe(prefix.path === WP ? `${PUBLIC_URL}/wp-json/` : `${PUBLIC_URL}/`);
      const named = await t().request({ url: `${prefix.path}?namespace=${namespace}` });
      expect(named.statusCode).toBe(200);
      const doc = await t().request({ url: `${prefix.path}/doc` });
      expect(doc.json.servers).toEqual([{ url: prefix.url }]);
    });
  });
}

describeEachDialect('The REST index', (t) => {
  it('lists every route of the namespace with methods and arguments, on both paths', async () => {
    for (const [url, namespace, api] of [['/', 'cal/events/v1', API_URL], ['/wp-json/', 'tribe/events/v1', WP_URL], ['/wp-json', 'tribe/events/v1', WP_URL]]) {
      const res = await t().request({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json.namespaces).toEqual([namespace]);
      const description = (await t().request({ url: namespace === 'cal/events/v1' ? API : WP })).json;
      expect(res.json.routes).toEqual(description.routes);
      const events = res.json.routes[`/${namespace}/events`];
      expect(events.methods).toEqual(['GET', 'POST']);
      expect(events.endpoints[1].args.title).toMatchObject({ required: true, type: 'string' });
      expect(res.json._links.help[0].href).toBe(`${api}/explorer`);
    }
  });

  it('gives arguments the formats the reference names', async () => {
    const routes = (await t().request({ url: '/' })).json.routes;
    const [list, create] = routes[`/${'cal/events/v1'}/events`].endpoints;
    expect(list.args.start_date.format).toBe('date-time');
    expect(list.args.geoloc_lat.format).toBe('double');
    expect(create.args.end_date.format).toBe('date-time');
    expect(create.args.website.format).toBe('uri');
    expect(create.args.title.format).toBeUndefined();
    const organizer = routes['/cal/events/v1/organizers'].endpoints[1].args;
    expect(organizer.email).toMatchObject({ type: 'string', format: 'email' });
    expect(organizer.website.format).toBe('uri');
  });
});

describeEachDialect('CAL_WP_JSON_PATH=off', (t) => {
  it('answers the WordPress path with 404 rest_no_route', async () => {
    for (const url of [`${WP}/events`, WP, '/wp-json/', `/fr${WP}/events`]) {
      const res = await t().request({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json.code).toBe('rest_no_route');
    }
    const index = await t().request({ url: '/' });
    expect(index.json.namespaces).toEqual(['cal/events/v1']);
  });
}, { CAL_WP_JSON_PATH: 'off' });

describeEachDialect('An empty body with a JSON or form content type', (t) => {
  for (const type of ['application/json', 'application/x-www-form-urlencoded', 'application/json; charset=utf-8']) {
    it(`is no body on DELETE, POST, PUT and PATCH (${type})`, async () => {
      const admin = await t().user('administrator');
      const headers = { ...admin.headers, 'content-type': type };
      const id = (await t().request({ method: 'POST', url: `${API}/events`, headers: { ...admin.headers, 'content-type': 'application/json' }, payload: EVENT })).json.id;
      for (const method of ['PUT', 'PATCH', 'POST'] as const) {
        const res = await t().request({ method, url: `${WP}/events/${id}`, headers, payload: '' });
        expect(res.statusCode, method).toBe(200);
        expect(res.json.title).toBe('Gig');
      }
      const missing = await t().request({ method: 'POST', url: `${API}/events`, headers, payload: '' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json.code).toBe('rest_missing_callback_param');
      const trashed = await t().request({ method: 'DELETE', url: `${WP}/events/${id}`, headers, payload: '' });
      expect(trashed.statusCode).toBe(200);
      expect(trashed.json.status).toBe('trash');
      const deleted = await t().request({ method: 'DELETE', url: `${API}/events/${id}?force=true`, headers, payload: '' });
      expect(deleted.statusCode).toBe(200);
      expect((await t().request({ url: `${API}/events/${id}`, headers: admin.headers })).statusCode).toBe(404);
    });
  }

  it('still answers a malformed JSON body with 400 rest_invalid_json', async () => {
    const admin = await t().user('administrator');
    const res = await t().request({ method: 'POST', url: `${API}/events`, headers: { ...admin.headers, 'content-type': 'application/json' }, payload: '{' });
    expect(res.statusCode).toBe(400);
    expect(res.json.code).toBe('rest_invalid_json');
  });
});

describeEachDialect('organizers, an alias of organizer on event writes', (t) => {
  const write = async (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) => {
    const admin = await t().user('administrator');
    return t().request({ method, url, headers: { ...admin.headers, 'content-type': 'application/json' }, payload });
  };

  it('links the organizers on create and update; organizer wins when both are sent', async () => {
    const ann = (await write('POST', `${API}/organizers`, { organizer: 'Ann' })).json.id;
    const bob = (await write('POST', `${API}/organizers`, { organizer: 'Bob' })).json.id;
    const created = await write('POST', `${WP}/events`, { ...EVENT, organizers: [ann, bob] });
    expect(created.statusCode).toBe(201);
    expect(created.json.organizer.map((o: { id: number }) => o.id)).toEqual([ann, bob]);
    const updated = await write('PATCH', `${API}/events/${created.json.id}`, { organizers: `${bob}` });
    expect(updated.json.organizer.map((o: { id: number }) => o.id)).toEqual([bob]);
    const both = await write('PATCH', `${API}/events/${created.json.id}`, { organizer: [ann], organizers: [bob] });
    expect(both.json.organizer.map((o: { id: number }) => o.id)).toEqual([ann]);
    const read = await t().request({ url: `${API}/events/${created.json.id}` });
    expect(read.json.organizer.map((o: { id: number }) => o.id)).toEqual([ann]);
  });

  it('answers a bad organizers value with 400 and stores nothing', async () => {
    const unknown = await write('POST', `${API}/events`, { ...EVENT, organizers: [999] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json.code).toBe('rest_invalid_param');
    expect(unknown.json.data.params).toHaveProperty('organizers');
    const noName = await write('POST', `${API}/events`, { ...EVENT, organizers: [{ phone: '123' }] });
    expect(noName.statusCode).toBe(400);
    expect(noName.json.data.params).toHaveProperty('organizers');
    const badField = await write('POST', `${API}/events`, { ...EVENT, organizers: [{ organizer: 'Ann', website: 'nowhere' }] });
    expect(badField.statusCode).toBe(400);
    expect(badField.json.data.params).toEqual({ organizers: 'Invalid organizer data: website.' });
    expect((await t().request({ url: `${API}/organizers` })).json.total).toBe(0);
    expect((await t().request({ url: `${API}/events` })).json.total).toBe(0);
  });

  it('is listed in the namespace description and the OpenAPI document', async () => {
    const routes = (await t().request({ url: API })).json.routes;
    expect(routes[`${API}/events`].endpoints[1].args.organizers).toMatchObject({ required: false, description: expect.any(String) });
    expect(routes[`${API}/events/(?P<id>\\d+)`].endpoints[1].args).toHaveProperty('organizers');
    const doc = (await t().request({ url: `${API}/doc` })).json;
    expect(doc.paths['/events'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('organizers');
  });
});
