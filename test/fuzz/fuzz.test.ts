import { expect, it } from 'vitest';
import { createStore } from '../../src/store.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';
import { type FuzzRequest, pageRequestsFrom, registeredRoutes, requestsFrom } from './fuzz-requests.ts';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
// The pages' share: fewer routes, slower answers (a page renders): 600 in `npm test`, a tenth of FUZZ_REQUESTS else.
const PAGE_REQUESTS = process.env.FUZZ_REQUESTS ? Math.ceil(REQUESTS / 10) : 600;

// Randomized requests from the OpenAPI document (a fixed seed here; `npm run fuzz` for long runs), as
// anonymous, signed-in and wrong-password callers: no answer is a 5xx, every error is in the contract's
// shape, and a refused or read-only request leaves the data version (bumped by every committed write) alone.
// FUZZ_SEED picks another run; FUZZ_DUMP=<file> writes the last request that got a 5xx, to replay it.
// Each request's status on the database fuzzed first, when both run in one process (TEST_DATABASE_URL set,
// TEST_DIALECTS not), by `api:` or `pages:` and dialect: the second must answer every request alike, or one
// database takes what the other refuses.
const statusesOn = new Map<string, Uint16Array>();

describeEachDialect('fuzzing every route from the OpenAPI document', (t) => {
  /** An event with a venue, an organizer and terms, and a password-protected draft: what the requests name. */
  const otherDialect = () => (t().dialect === 'sqlite' ? 'postgres' : 'sqlite');
  const seed = async (headers: Record<string, string>) => [
    await t().app.inject({ method: 'POST', url: `${API}/events`, headers, payload: { title: 'Seed', start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00', venue: { venue: 'Hall' }, organizer: [{ organizer: 'Club' }], categories: ['Jazz'], tags: ['live'] } }),
    await t().app.inject({ method: 'POST', url: `${API}/events`, headers, payload: { title: 'Locked', start_date: '2027-03-06', end_date: '2027-03-06', password: 'pw', status: 'draft' } }),
  ].map((res) => res.json());

  it(`${REQUESTS} requests (seed ${SEED}): no 5xx, errors in the contract's shape, nothing stored by a refused request`, { timeout: Math.max(300_000, REQUESTS * 10) }, async () => {
    const admin = await t().user('administrator');
    const made = await seed(admin.headers);
    const ids = [...new Set([...made.map((e) => e.id), made[0].venue.id, made[0].organizer[0].id, made[0].categories[0].id, made[0].tags[0].id, 1, 2, 3])];
    const doc = (await t().app.inject({ url: `${API}/doc` })).json();
    const requests = requestsFrom(doc, SEED, ids);
    const store = createStore(t().database.db, t().database.dialect);
    const callers = [{}, admin.headers, { authorization: `Basic ${Buffer.from('administrator:wrong').toString('base64')}` }];
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    const answered = new Uint16Array(REQUESTS);
    const other = statusesOn.get(`api:${otherDialect()}`);
    for (let i = 0; i < REQUESTS && failures.length < 5; i++) {
      const request = requests.next();
      const before = await store.dataVersion();
      const res = await t().app.inject({ method: request.method as 'GET', url: request.url, headers: { ...request.headers, ...callers[i % 3] }, payload: request.payload });
      const shown = `${request.method} ${request.url.slice(0, 300)} ${String(request.payload ?? '').slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      answered[i] = res.statusCode;
      if (other && other[i] !== res.statusCode) failures.push(`${other[i]} on ${otherDialect()}, ${res.statusCode} on ${t().dialect}: ${shown}`);
      if (res.statusCode >= 500) failures.push(`5xx: ${shown}`);
      if (res.statusCode >= 500 && process.env.FUZZ_DUMP) (await import('node:fs')).writeFileSync(process.env.FUZZ_DUMP, JSON.stringify({ ...request, headers: { ...request.headers, ...callers[i % 3] } }));
      else if (res.statusCode >= 400) {
        let body: any;
        try {
          body = res.json();
        } catch {
          body = undefined;
        }
        const shaped = body && typeof body.code === 'string' && typeof body.message === 'string' && body.data?.status === res.statusCode;
        if (!shaped) failures.push(`not the error shape: ${shown}`);
      }
      if ((res.statusCode >= 300 || request.method === 'GET') && (await store.dataVersion()) !== before) failures.push(`stored by a refused or read-only request: ${shown}`);
    }
    statusesOn.set(`api:${t().dialect}`, answered);
    if (process.env.FUZZ_REPORT) console.log(`${t().dialect}: ${REQUESTS} requests, seed ${SEED}, answers by status ${JSON.stringify(statuses)}, failures ${failures.length}`);
    expect(failures).toEqual([]);
  });

  // The rest of what the service answers: the site's pages (behind every `url`), their iCalendar feeds, the
  // operations' endpoints. An error there is the site's HTML page with the status, or the contract's shape.
  it(`${PAGE_REQUESTS} requests (seed ${SEED}) to every route the OpenAPI document leaves out: no 5xx, errors as pages or in the contract's shape, nothing stored`, { timeout: Math.max(300_000, PAGE_REQUESTS * 10) }, async () => {
    const admin = await t().user('administrator');
    const made = await seed(admin.headers);
    const doc = (await t().app.inject({ url: `${API}/doc` })).json();
    const documented = new Set(Object.keys(doc.paths).map((path) => `${API}${path === '/' ? '' : path}`));
    const routes = registeredRoutes(t().app.printRoutes({ commonPrefix: false })).filter((route) => !documented.has(route.path.replace(/:(\w+)(\([^)]*\))?/g, '{$1}')));
    expect(routes.map((route) => route.path)).toEqual(expect.arrayContaining(['/events', '/event/:slug', '/venue/:slug', '/events/category/:slug/month/:month', '/healthz', '/metrics']));
    const slugs = [made[0].slug, made[1].slug, made[0].venue.slug, made[0].organizer[0].slug, made[0].categories[0].slug, made[0].tags[0].slug, 'nothing-here'];
    const listParameters = doc.paths['/events'].get.parameters.map((parameter: { name: string; schema?: unknown }) => ({ name: parameter.name, schema: parameter.schema }));
    const requests = pageRequestsFrom(routes, listParameters, SEED, slugs);
    const store = createStore(t().database.db, t().database.dialect);
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    const answered = new Uint16Array(PAGE_REQUESTS);
    const other = statusesOn.get(`pages:${otherDialect()}`);
    for (let i = 0; i < PAGE_REQUESTS && failures.length < 5; i++) {
      const request: FuzzRequest = requests.next();
      const before = await store.dataVersion();
      const res = await t().app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, payload: request.payload });
      const shown = `${request.method} ${request.url.slice(0, 300)} ${JSON.stringify(request.headers).slice(0, 200)} ${String(request.payload ?? '').slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      answered[i] = res.statusCode;
      if (other && other[i] !== res.statusCode) failures.push(`${other[i]} on ${otherDialect()}, ${res.statusCode} on ${t().dialect}: ${shown}`);
      if (res.statusCode >= 500) failures.push(`5xx: ${shown}`);
      else if (res.statusCode >= 400) {
        const page = String(res.headers['content-type']).startsWith('text/html') && res.body.startsWith('<!doctype html>');
        let body: any;
        try {
          body = page ? undefined : res.json();
        } catch {
          body = undefined;
        }
        const shaped = page || (body && typeof body.code === 'string' && typeof body.message === 'string' && body.data?.status === res.statusCode);
        if (!shaped) failures.push(`neither a page nor the error shape: ${shown}`);
      }
      if ((await store.dataVersion()) !== before) failures.push(`stored by a page's request: ${shown}`);
    }
    statusesOn.set(`pages:${t().dialect}`, answered);
    if (process.env.FUZZ_REPORT) console.log(`${t().dialect}: ${PAGE_REQUESTS} requests to pages, seed ${SEED}, answers by status ${JSON.stringify(statuses)}, failures ${failures.length}`);
    expect(failures).toEqual([]);
  });
}, { CAL_RATE_LIMIT: 'off' });
