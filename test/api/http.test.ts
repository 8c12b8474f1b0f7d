import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { answerBytes } from '../../src/http/answer-bytes.ts';
import { API, describeEachDialect, testConfig } from '../helpers/test-app.ts';

/**
 * Sends requests down one connection at once (pipelined) and gives the bodies of the answers, in order. The
 * last asks the server to close; the client never ends its side first (Node drops what it has not answered).
 */
function pipelined(port: number, paths: string[]): Promise<string[]> {
  const requests = paths.map((path, i) => `GET ${path} HTTP/1.1\r\nHost: x\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(requests.join('')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const bodies: string[] = [];
      for (let at = 0; at < all.length;) {
        const headEnd = all.indexOf('\r\n\r\n', at);
        const length = Number(/content-length: (\d+)/i.exec(all.subarray(at, Math.max(at, headEnd)).toString('latin1'))?.[1]);
        // An answer cut short or without a length ends the reading (its body is then missing, and the test says so).
        if (headEnd < 0 || !Number.isInteger(length)) break;
        bodies.push(all.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8'));
        at = headEnd + 4 + length;
      }
      resolve(bodies);
    });
  });
}

describeEachDialect('HTTP behaviour shared by every route', (t) => {
  it('answers unknown paths and methods with 404 rest_no_route', async () => {
    for (const [method, url] of [['GET', `${API}/nothing`], ['DELETE', `${API}/events`], ['POST', '/wp-json/wp/v2/posts'], ['GET', `${API}/events/by-slug/`]] as const) {
      const res = await t().request({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    }
  });

  it('answers a path it cannot decode with 400 rest_invalid_url, whatever the method', async () => {
    for (const [method, url] of [['GET', `${API}/events/%zz`], ['GET', `${API}/events/by-slug/caf%C3`], ['DELETE', `${API}/venues/%E0%A4%A`], ['OPTIONS', `${API}/events/%zz`]] as const) {
      const res = await t().request({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      expect(res.json, `${method} ${url}`).toEqual({ code: 'rest_invalid_url', message: 'The request URL is not valid.', data: { status: 400 } });
      // No hook runs for what the router refuses; the headers every answer carries are there all the same.
      expect(res.headers, `${method} ${url}`).toMatchObject({ 'x-content-type-options': 'nosniff', 'access-control-allow-origin': '*', vary: 'Accept-Language' });
    }
    // (Past any slug WordPress allows: no route documents it.)
    const long = await t().app.inject({ url: `${API}/events/by-slug/${'a'.repeat(3000)}`, headers: { origin: 'https://widget.test' } });
    expect([long.statusCode, long.json().code]).toEqual([414, 'rest_uri_too_long']);
    expect(long.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'access-control-allow-origin': '*' });
    const french = await t().request({ url: `/fr${API}/events/%zz` });
    expect([french.statusCode, french.json.message]).toEqual([400, "L'URL de la requête n'est pas valide."]);
  });

  it('answers malformed JSON with 400 and changes nothing', async () => {
    const admin = await t().user('administrator');
    const res = await t().request({ method: 'POST', url: `${API}/venues`, headers: { ...admin.headers, 'content-type': 'application/json' }, payload: '{"venue": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json.data.status).toBe(400);
    expect((await t().request({ url: `${API}/venues` })).json.total).toBe(0);
  });

  it('answers an unsupported body type with 415', async () => {
    const admin = await t().user('administrator');
    const res = await t().request({ method: 'POST', url: `${API}/venues`, headers: { ...admin.headers, 'content-type': 'text/plain' }, payload: 'venue=x' });
    expect(res.statusCode).toBe(415);
    expect(res.json.code).toBe('rest_unsupported_media_type');
  });

  it('lets any origin read by default and exposes the list headers', async () => {
    const res = await t().request({ url: `${API}/events`, headers: { origin: 'https://widget.test' } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toBe('X-TEC-Total, X-TEC-TotalPages');
    const preflight = await t().app.inject({
      method: 'OPTIONS', url: `${API}/events`,
      headers: { origin: 'https://widget.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('PATCH');
    expect(preflight.headers['access-control-allow-headers']).toContain('Authorization');
    // A preflight's answer passes the other hooks too (the CORS plugin used to answer it before them).
    expect(preflight.headers['x-content-type-options']).toBe('nosniff');
    expect(preflight.headers['content-length']).toBe('0');
    expect(preflight.headers['access-control-max-age']).toBe('600');
  });

  it('tells a plain OPTIONS which methods its path answers, and 404s one where none does', async () => {
    const collection = await t().app.inject({ method: 'OPTIONS', url: `${API}/events?per_page=1` });
    expect(collection.statusCode).toBe(204);
    expect(collection.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(collection.body).toBe('');
    expect((await t().app.inject({ method: 'OPTIONS', url: `${API}/events/12` })).headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    // The site's pages as well as the API.
    expect((await t().app.inject({ method: 'OPTIONS', url: '/events/' })).headers.allow).toBe('GET, HEAD, OPTIONS');
    // Under a language's prefix, as the path without it.
    expect((await t().app.inject({ method: 'OPTIONS', url: `/fr${API}/events` })).headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    for (const url of [`${API}/nothing`, `${API}/events/12/more`]) {
      const none = await t().request({ method: 'OPTIONS', url });
      expect(none.statusCode, url).toBe(404);
      expect(none.json).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    }
  });
});

describeEachDialect('answers over a real connection', (t) => {
  // Answers are written from reused memory (answer-bytes.ts): none may be written over while it is still queued.
  it('sends each of many answers in flight at once whole and as its own', async () => {
    const admin = await t().user('administrator');
    const paths: string[] = [];
    for (let i = 0; i < 8; i++) {
      const made = await t().request({ method: 'POST', url: `${API}/events`, headers: admin.headers, payload: { title: `Night ${i}`, description: `<p>${'Set. '.repeat(400 * i)}</p>`, start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' } });
      expect(made.statusCode).toBe(201);
      paths.push(`${API}/events/${made.json.id}`);
    }
    paths.push(`${API}/events?per_page=8`, `${API}/events/by-slug/night-3`);
    const expected = await Promise.all(paths.map(async (url) => (await t().app.inject({ url })).payload));
    const app = await buildApp({ config: testConfig(), database: t().database, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    try {
      const asked = [...paths, ...[...paths].reverse(), ...paths];
      const connections = await Promise.all(Array.from({ length: 4 }, () => pipelined(port, asked)));
      for (const bodies of connections) expect(bodies).toEqual(asked.map((path) => expected[paths.indexOf(path)]));
      // A HEAD answer says the length of the body it leaves out.
      const head = await fetch(`http://127.0.0.1:${port}${paths[0]}`, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, String(Buffer.byteLength(expected[0])), '']);
      // Each answer's Buffer is given back when it has gone: one after another, answers need no new one.
      const made = answerBytes.made();
      for (let i = 0; i < 20; i++) expect(await pipelined(port, [paths[0]])).toEqual([expected[0]]);
      expect(answerBytes.made()).toBe(made);
    } finally {
      await app.close();
    }
  });
});

describeEachDialect('configured CORS origins and body limit', (t) => {
  it('allows only the configured origins', async () => {
    const allowed = await t().request({ url: `${API}/events`, headers: { origin: 'https://a.test' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://a.test');
    const denied = await t().request({ url: `${API}/events`, headers: { origin: 'https://evil.test' } });
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
    // The answer depends on the origin: a shared cache must keep it apart per origin, and by what else it
    // varies still (the language; the list's representation, negotiated by Accept).
    for (const res of [allowed, denied]) expect(res.headers.vary).toBe('Origin, Accept-Language, Accept');
    // A preflight from an origin not listed is answered without Access-Control-Allow-Origin: the browser refuses.
    const preflight = await t().app.inject({ method: 'OPTIONS', url: `${API}/events`, headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers.vary).toBe('Origin, Accept-Language');
    const feed = await t().request({ url: `${API}/events`, headers: { origin: 'https://b.test', accept: 'text/calendar' } });
    expect(feed.headers['access-control-allow-origin']).toBe('https://b.test');
    expect(feed.headers.vary).toBe('Origin, Accept-Language, Accept, Authorization');
  });

  it('answers a body over CAL_BODY_LIMIT with 413 and stores nothing', async () => {
    const admin = await t().user('administrator');
    const res = await t().request({ method: 'POST', url: `${API}/venues`, headers: admin.headers, payload: { venue: 'x'.repeat(3000) } });
    expect(res.statusCode).toBe(413);
    expect(res.json).toEqual({ code: 'rest_request_too_large', message: 'The request body is too large.', data: { status: 413 } });
    expect((await t().request({ url: `${API}/venues` })).json.total).toBe(0);
  });
}, { CAL_CORS_ORIGINS: 'https://a.test,https://b.test', CAL_BODY_LIMIT: '2048' });
