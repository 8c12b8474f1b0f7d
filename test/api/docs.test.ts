import { Validator } from '@seriousme/openapi-schema-validator';
import { expect, it } from 'vitest';
import { API, API_URL, describeEachDialect, PUBLIC_URL } from '../helpers/test-app.ts';

const ROUTES = [
  '', '/doc', '/events', '/events/(?P<id>\\d+)', '/events/by-slug/(?P<slug>[^/]+)', '/venues', '/venues/(?P<id>\\d+)',
  '/venues/by-slug/(?P<slug>[^/]+)', '/organizers', '/organizers/(?P<id>\\d+)', '/organizers/by-slug/(?P<slug>[^/]+)',
  '/categories', '/categories/(?P<id>\\d+)', '/tags', '/tags/(?P<id>\\d+)', '/changes', '/recurrence/preview',
  '/webhooks', '/webhooks/(?P<id>\\d+)', '/webhooks/(?P<id>\\d+)/deliveries', '/webhooks/(?P<id>\\d+)/deliveries/(?P<delivery>\\d+)/redeliver',
].map((route) => `${API}${route}`);

describeEachDialect('GET / and the namespace description', (t) => {
  it('GET / lists the namespaces served', async () => {
    const res = await t().request({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.json).toMatchObject({ name: 'cal-events', url: PUBLIC_URL, namespaces: ['cal/events/v1'] });
  });

  it('GET /cal/events/v1 describes every route, method and argument', async () => {
    const res = await t().request({ url: API });
    expect(res.statusCode).toBe(200);
    expect(res.json.namespace).toBe('cal/events/v1');
    expect(Object.keys(res.json.routes).sort()).toEqual([...ROUTES].sort());
    expect(res.json._links).toEqual({ up: [{ href: `${PUBLIC_URL}/` }] });
    const events = res.json.routes[`${API}/events`];
    expect(events.methods).toEqual(['GET', 'POST']);
    const [list, create] = events.endpoints;
    expect(list.methods).toEqual(['GET']);
    expect(list.args.page).toEqual({ required: false, default: 1, description: 'The archive page to return', type: 'integer' });
    expect(list.args.per_page).toMatchObject({ required: false, default: 10, type: 'integer' });
    expect(list.args.status).toMatchObject({ type: 'array', items: { type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'any'] } });
    expect(list.args.venue).toMatchObject({ type: 'array', items: { type: ['integer'] } });
    expect(create.args.title).toMatchObject({ required: true, type: 'string' });
    expect(create.args.start_date).toMatchObject({ required: true });
    for (const route of Object.values(res.json.routes) as Array<{ endpoints: Array<{ args: Record<string, { required: boolean; description: string }> }> }>) {
      for (const endpoint of route.endpoints) {
        for (const [name, arg] of Object.entries(endpoint.args)) {
          expect(typeof arg.required, name).toBe('boolean');
          expect(arg.description, name).not.toBe('');
        }
      }
    }
    const byId = res.json.routes[`${API}/events/(?P<id>\\d+)`];
    expect(byId.methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(byId.endpoints[0].args.id).toMatchObject({ required: true, type: 'integer' });
  });

  it('honours namespace and context', async () => {
    const embed = await t().request({ url: `${API}?context=embed` });
    expect(embed.json.routes[`${API}/events`].endpoints[0]).toEqual({ methods: ['GET'] });
    const other = await t().request({ url: `${API}?namespace=wp/v2` });
    expect(other.statusCode).toBe(404);
    expect(other.json.code).toBe('rest_invalid_namespace');
    const bad = await t().request({ url: `${API}?context=print` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json.data.params).toHaveProperty('context');
  });
});

describeEachDialect('GET /cal/events/v1/doc', (t) => {
  it('is a valid OpenAPI document whose server is the API root', async () => {
    const res = await t().request({ url: `${API}/doc` });
    expect(res.statusCode).toBe(200);
    const result = await new Validator().validate(res.json);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(res.json.openapi).toBe('3.1.0');
    expect(res.json.info).toEqual({ version: expect.any(String), title: 'cal-events REST API', description: expect.any(String) });
    expect(res.json.servers[0].url).toBe(API_URL);
  });

  it('describes every record kind, the envelopes and the error body, and every route', async () => {
    const doc = (await t().request({ url: `${API}/doc` })).json;
    for (const name of ['Event', 'Venue', 'Organizer', 'Term', 'Category', 'Tag', 'EmbeddedTerm', 'Image', 'DateDetails', 'CostDetails', 'Error', 'EventList', 'VenueList', 'OrganizerList', 'CategoryList', 'TagList']) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
    expect(Object.keys(doc.paths).sort()).toEqual(ROUTES.map((r) => r.slice(API.length).replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}') || '/').sort());
    const create = doc.paths['/events'].post;
    expect(Object.keys(create.requestBody.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['title', 'start_date', 'end_date']);
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '413', '415', '429', '503']);
    expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Event' });
    expect(Object.keys(doc.paths['/events/{id}'].delete.responses).sort()).toEqual(['200', '400', '401', '403', '404', '410', '412', '429', '503']);
    const listParams = doc.paths['/events'].get.parameters.map((p: { name: string }) => p.name);
    expect(listParams).toEqual(expect.arrayContaining(['page', 'per_page', 'start_date', 'categories', 'include', 'ticketed']));
  });
});

describeEachDialect('languages', (t) => {
  it('the /fr/ segment and Accept-Language translate messages, never codes or data', async () => {
    const en = await t().request({ url: `${API}/events/99` });
    const fr = await t().request({ url: `/fr${API}/events/99` });
    const de = await t().request({ url: `${API}/events/99`, headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } });
    expect(fr.statusCode).toBe(404);
    expect(fr.json.code).toBe(en.json.code);
    expect(fr.json.data).toEqual(en.json.data);
    expect(fr.json.message).not.toBe(en.json.message);
    expect(de.json.message).not.toBe(en.json.message);
    expect(de.json.message).not.toBe(fr.json.message);
    expect(de.headers.vary).toContain('Accept-Language');
    const bad = await t().request({ url: `/de${API}/venues?page=0&per_page=x` });
    expect(bad.json.code).toBe('rest_invalid_param');
    expect(Object.keys(bad.json.data.params)).toEqual(['page', 'per_page']);
    expect(bad.json.data.params.page).not.toBe('Invalid parameter.');
  });

  it('translates parameter descriptions in the namespace description and the document', async () => {
    const en = (await t().request({ url: API })).json.routes[`${API}/events`].endpoints[0].args.page.description;
    const fr = (await t().request({ url: `/fr${API}` })).json.routes[`${API}/events`].endpoints[0].args.page.description;
    const de = (await t().request({ url: `${API}/doc`, headers: { 'accept-language': 'de' } })).json.paths['/events'].get.parameters[0].description;
    expect(new Set([en, fr, de]).size).toBe(3);
  });

  it('falls back to English for an unknown language; an unserved segment is no route', async () => {
    const en = await t().request({ url: `${API}/events/99` });
    const es = await t().request({ url: `${API}/events/99`, headers: { 'accept-language': 'es-ES, xx;q=0.8' } });
    expect(es.json).toEqual(en.json);
    const segment = await t().request({ url: `/es${API}/events/99` });
    expect(segment.statusCode).toBe(404);
    expect(segment.json.code).toBe('rest_no_route');
  });
});

describeEachDialect('the API explorer', (t) => {
  it('serves Swagger UI over the generated document', async () => {
    const page = await t().request({ url: `${API}/explorer` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('SwaggerUIBundle');
    expect(page.body).toContain('"doc"');
    const script = await t().request({ url: `${API}/explorer/swagger-ui-bundle.js` });
    expect(script.statusCode).toBe(200);
    expect(script.body.length).toBeGreaterThan(100_000);
    expect((await t().request({ url: `${API}/explorer/swagger-ui.css` })).headers['content-type']).toContain('text/css');
    expect((await t().request({ url: `${API}/explorer/secrets.txt` })).statusCode).toBe(404);
  });
});
