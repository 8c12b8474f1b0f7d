import { expect, it } from 'vitest';
import { createStore } from '../../src/store.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';
import { requestsFrom } from './fuzz-requests.ts';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

// Randomized requests from the OpenAPI document (a fixed seed here; `npm run fuzz` for long runs), as
// anonymous, signed-in and wrong-password callers: no answer is a 5xx, every error is in the contract's
// shape, and a refused or read-only request leaves the data version (bumped by every committed write) alone.
// FUZZ_SEED picks another run; FUZZ_DUMP=<file> writes the last request that got a 5xx, to replay it.
// Each request's status on the database fuzzed first, when both run in one process (TEST_DATABASE_URL set,
// TEST_DIALECTS not): the second must answer every request alike, or one database takes what the other refuses.
const statusesOn = new Map<string, Uint16Array>();

describeEachDialect('fuzzing every route from the OpenAPI document', (t) => {
  it(`${REQUESTS} requests (seed ${SEED}): no 5xx, errors in the contract's shape, nothing stored by a refused request`, { timeout: Math.max(300_000, REQUESTS * 10) }, async () => {
    const admin = await t().user('administrator');
    const made = [
      await t().app.inject({ method: 'POST', url: `${API}/events`, headers: admin.headers, payload: { title: 'Seed', start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00', venue: { venue: 'Hall' }, organizer: [{ organizer: 'Club' }], categories: ['Jazz'], tags: ['live'] } }),
      await t().app.inject({ method: 'POST', url: `${API}/events`, headers: admin.headers, payload: { title: 'Locked', start_date: '2027-03-06', end_date: '2027-03-06', password: 'pw', status: 'draft' } }),
    ].map((res) => res.json());
    const ids = [...new Set([...made.map((e) => e.id), made[0].venue.id, made[0].organizer[0].id, made[0].categories[0].id, made[0].tags[0].id, 1, 2, 3])];
    const doc = (await t().app.inject({ url: `${API}/doc` })).json();
    const requests = requestsFrom(doc, SEED, ids);
    const store = createStore(t().database.db, t().database.dialect);
    const callers = [{}, admin.headers, { authorization: `Basic ${Buffer.from('administrator:wrong').toString('base64')}` }];
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    const answered = new Uint16Array(REQUESTS);
    const other = [...statusesOn].find(([dialect]) => dialect !== t().dialect);
    for (let i = 0; i < REQUESTS && failures.length < 5; i++) {
      const request = requests.next();
      const before = await store.dataVersion();
      const res = await t().app.inject({ method: request.method as 'GET', url: request.url, headers: { ...request.headers, ...callers[i % 3] }, payload: request.payload });
      const shown = `${request.method} ${request.url.slice(0, 300)} ${String(request.payload ?? '').slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      answered[i] = res.statusCode;
      if (other && other[1][i] !== res.statusCode) failures.push(`${other[1][i]} on ${other[0]}, ${res.statusCode} on ${t().dialect}: ${shown}`);
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
    statusesOn.set(t().dialect, answered);
    if (process.env.FUZZ_REPORT) console.log(`${t().dialect}: ${REQUESTS} requests, seed ${SEED}, answers by status ${JSON.stringify(statuses)}, failures ${failures.length}`);
    expect(failures).toEqual([]);
  });
}, { CAL_RATE_LIMIT: 'off' });
