import { connect } from 'node:net';
import { expect, it } from 'vitest';
import Fastify from 'fastify';
import { buildApp } from '../../src/app.ts';
import { registerHealth } from '../../src/http/health.ts';
import { migrateDown, migrateToLatest } from '../../src/db/migrator.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { API, describeEachDialect, testConfig } from '../helpers/test-app.ts';

/** A raw HTTP exchange over a socket: what Node answers before any route runs. */
function rawExchange(port: number, request: string, holdOpen = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', (error) => (answer ? resolve(answer) : reject(error)));
    if (!holdOpen) setTimeout(() => socket.end(), 5000);
  });
}
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describeEachDialect('operations: health, readiness, metrics, security headers', (t) => {
  it('/healthz answers while the process lives; /readyz while the database answers with a current schema', async () => {
    expect((await t().app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t().app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready', background: {} });
    await migrateDown(t().database.db);
    const behind = await t().app.inject({ url: '/readyz' });
    expect([behind.statusCode, behind.json().code, behind.json().data.pending]).toEqual([503, 'rest_not_ready', [Object.keys(migrations).at(-1)]]);
    await migrateToLatest(t().database.db);
    expect((await t().app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('/readyz says where background work stands, without holding readiness back or saying why work failed', async () => {
    const app = Fastify({ logger: false });
    const track = registerHealth(app, t().database.db);
    const readyz = async () => {
      const answer = await app.inject({ url: '/readyz' });
      return [answer.statusCode, answer.json()];
    };
    let finish = (_count: number) => {};
    let fail = (_error: Error) => {};
    const counting = track('counting', () => new Promise<number>((resolve) => (finish = resolve)));
    const failing = track('failing', () => new Promise<number>((_resolve, reject) => (fail = reject)));
    const [status, running] = await readyz();
    expect([status, running.background.counting.state, running.background.failing.state]).toEqual([200, 'running', 'running']);
    expect(running.background.counting.seconds).toBeGreaterThanOrEqual(0);
    finish(42);
    fail(new Error('near "selct": syntax error'));
    // The caller gets the work's own outcome; readiness stays 200, and the failure's cause is not shown.
    expect(await counting).toBe(42);
    await expect(failing).rejects.toThrow('syntax error');
    const [after, ended] = await readyz();
    expect([after, ended.status, ended.background.counting.state, ended.background.counting.count, ended.background.failing.state])
      .toEqual([200, 'ready', 'done', 42, 'failed']);
    expect(JSON.stringify(ended)).not.toContain('syntax');
    // An end is reported as it was: its seconds do not go on counting.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await readyz())[1].background.counting.seconds).toBe(ended.background.counting.seconds);
    await app.close();
  });

  it("/readyz shows the service's storing of event texts, and how many it stored", async () => {
    await t().request({ method: 'POST', url: `${API}/events`, headers: (await t().user('administrator')).headers,
      payload: { title: 'Stored', start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00', status: 'publish' } });
    await t().database.db.deleteFrom('event_text').execute();
    const stored = await t().app.storeEventTexts(() => false);
    expect(stored).toBe(1);
    const ready = (await t().app.inject({ url: '/readyz' })).json();
    expect([ready.background.event_texts.state, ready.background.event_texts.count]).toEqual(['done', 1]);
  });

  it('/metrics counts requests by route pattern and status, with latencies, cache lookups and the process', async () => {
    await t().app.inject({ url: `${API}/events` });
    await t().app.inject({ url: `${API}/events/999` });
    await t().app.inject({ url: `${API}/events/999` });
    await t().app.inject({ url: '/no/such/route' });
    await t().app.inject({ method: 'HEAD', url: `${API}/events` });
    await t().app.inject({ method: 'OPTIONS', url: `${API}/events`, headers: { origin: 'https://site.example', 'access-control-request-method': 'POST' } });
    const metrics = await t().app.inject({ url: '/metrics' });
    // Every route is counted by its pattern (CORS's preflight route too), requests no route matched as one.
    expect(metrics.body).toContain('http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(metrics.body).toContain(`http_requests_total{route="${API}/events",method="HEAD",status="200"} 1`);
    expect(metrics.body).toContain('http_requests_total{route="*",method="OPTIONS",status="204"} 1');
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.body).toContain(`http_requests_total{route="${API}/events",method="GET",status="200"} 1`);
    expect(metrics.body).toContain(`http_requests_total{route="${API}/events/:id(^\\\\d+)",method="GET",status="404"} 2`);
    expect(metrics.body).toMatch(/http_request_duration_seconds_bucket\{le="0.005",route="[^"]+",method="GET"\} \d+/);
    // A histogram's buckets count every answer at or under their bound: they only grow, up to +Inf = _count.
    const byId = `route="${API}/events/:id(^\\\\d+)",method="GET"`;
    const lines = metrics.body.split('\n');
    const buckets = lines.filter((line) => line.startsWith('http_request_duration_seconds_bucket{') && line.includes(byId))
      .map((line) => ({ le: line.slice(line.indexOf('le="') + 4, line.indexOf('",')), count: Number(line.split(' ').at(-1)) }));
    expect(buckets.map((bucket) => bucket.le).slice(-2)).toEqual(['5', '+Inf']);
    expect(buckets.map((bucket) => bucket.count)).toEqual(buckets.map((bucket) => bucket.count).sort((a, b) => a - b));
    expect(buckets.at(-1)?.count).toBe(2);
    expect(metrics.body).toContain(`http_request_duration_seconds_count{${byId}} 2`);
    const sum = lines.find((line) => line.startsWith(`http_request_duration_seconds_sum{${byId}} `));
    expect(Number(sum?.split(' ').at(-1))).toBeGreaterThan(0);
    expect(metrics.body).toMatch(/cache_lookups_total\{cache="event-rows",result="miss"\} \d+/);
    expect(metrics.body).toContain('process_resident_memory_bytes');
    if (t().dialect === 'postgres') expect(metrics.body).toMatch(/db_pool_connections\{state="total"\} \d+/);
  });

  it('sends the security headers on the API and on pages', async () => {
    for (const url of [`${API}/events`, '/events/']) {
      const res = await t().app.inject({ url });
      expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'strict-origin-when-cross-origin' });
      expect(res.headers['strict-transport-security']).toBeUndefined(); // http here
    }
  });
});

describeEachDialect('rate limits', (t) => {
  it('a client past its read budget gets 429 with Retry-After; a signed-in user counts apart; RateLimit fields say where it stands', async () => {
    // The test helper reads the API document once (a request of its own): let it, then start counting.
    await t().request({ url: '/healthz' });
    const answers = [await t().request({ url: `${API}/events` })];
    expect(answers[0].headers['ratelimit-policy']).toBe('"reads";q=3;w=60');
    const left = Number(/^"reads";r=(\d+);t=\d+$/.exec(String(answers[0].headers.ratelimit))?.[1]);
    for (let i = 0; i <= left; i++) answers.push(await t().request({ url: `${API}/events` }));
    expect(answers.map((a) => a.statusCode)).toEqual([...Array(left + 1).fill(200), 429]);
    expect(answers.at(-2)?.headers.ratelimit).toMatch(/^"reads";r=0;t=\d+$/);
    expect(answers.at(-1)?.json).toEqual({ code: 'rest_too_many_requests', message: expect.stringMatching(/^Too many requests: try again in \d+ seconds\.$/), data: { status: 429, retry_after: expect.any(Number) } });
    expect(Number(answers.at(-1)?.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t().app.inject({ url: '/healthz' })).statusCode).toBe(200); // not counted
    const editor = await t().user('editor');
    expect((await t().request({ url: `${API}/events`, headers: editor.headers })).statusCode).toBe(200);
  });

  it('writes have their own, smaller budget', async () => {
    const admin = (await t().user('administrator')).headers;
    const writes = [];
    for (let i = 0; i < 3; i++) writes.push(await t().request({ method: 'POST', url: `${API}/tags`, headers: admin, payload: { name: `Tag ${i}` } }));
    expect(writes.map((w) => w.statusCode)).toEqual([201, 201, 429]);
    expect(writes[2].headers['ratelimit-policy']).toBe('"writes";q=2;w=60');
    expect((await t().database.db.selectFrom('term').selectAll().execute()).length).toBe(2); // the refused write stored nothing
  });

  it('past its failed sign-ins, an address is refused before its credentials are checked, even right ones', async () => {
    const admin = await t().user('administrator');
    const wrong = { authorization: `Basic ${Buffer.from(`${admin.login}:not-the-password`).toString('base64')}` };
    const tries = [];
    for (let i = 0; i < 4; i++) tries.push((await t().request({ url: `${API}/events`, headers: wrong })).statusCode);
    expect(tries).toEqual([401, 401, 401, 429]);
    const right = await t().request({ url: `${API}/events`, headers: admin.headers });
    expect([right.statusCode, right.json.message]).toEqual([429, expect.stringMatching(/^Too many failed sign-ins from this address/)]);
  });
}, { CAL_RATE_LIMIT_READS: '3', CAL_RATE_LIMIT_WRITES: '2', CAL_RATE_LIMIT_AUTH_FAILURES: '3' });

describeEachDialect('rate limits switched off', (t) => {
  it('CAL_RATE_LIMIT=off sends no RateLimit fields and refuses nothing', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await t().app.inject({ url: `${API}/events` });
      expect([res.statusCode, res.headers['ratelimit-policy']]).toEqual([200, undefined]);
    }
    expect((await t().app.inject({ url: '/metrics' })).statusCode).toBe(404);
  });
}, { CAL_RATE_LIMIT: 'off', CAL_RATE_LIMIT_READS: '1', CAL_METRICS: 'off' });

describeEachDialect('what Node answers itself, in the contract\'s shape', (t) => {
  it('431 for oversized headers, 408 for a client too slow to send them, 400 for what is not HTTP', async () => {
    const app = await buildApp({ config: testConfig({ CAL_HEADERS_TIMEOUT_MS: '300', CAL_REQUEST_TIMEOUT_MS: '600' }), database: t().database, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    try {
      const big = await rawExchange(port, `GET ${API}/events HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(big).toMatch(/^HTTP\/1\.1 431 /);
      expect(bodyOf(big)).toEqual({ code: 'rest_headers_too_large', message: 'The request headers are too large.', data: { status: 431 } });
      const started = Date.now();
      const slow = await rawExchange(port, `GET ${API}/events HTTP/1.1\r\nHost: x\r\n`, true);
      expect(slow).toMatch(/^HTTP\/1\.1 408 /);
      expect(bodyOf(slow)).toEqual({ code: 'rest_request_timeout', message: 'The request was not received in time.', data: { status: 408 } });
      expect(Date.now() - started).toBeLessThan(4000); // the timeout closed it, not the test
      const garbage = await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n');
      expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
      expect(bodyOf(garbage).code).toBe('rest_malformed_request');
    } finally {
      await app.close();
    }
  });
});
