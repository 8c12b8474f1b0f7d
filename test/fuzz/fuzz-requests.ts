/**
 * Requests made from the OpenAPI document: every operation, its path, query and body parameters filled
 * with valid values or mutations (wrong types, boundaries, huge and control-character strings, deep
 * nesting, malformed or form bodies, odd dates). Deterministic for a seed.
 */
import { createRandom, type Random } from '../../bench/vocabulary.ts';

type Json = Record<string, any>;

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}



const deep = (depth: number, array: boolean): unknown => (depth === 0 ? 1 : array ? [deep(depth - 1, array)] : { a: deep(depth - 1, array) });

export const NASTY: unknown[] = [
  '', ' ', '0', '-1', '1e308', 'NaN', 'Infinity', 'true', 'null', 'undefined', '[]', '{}', 'a'.repeat(100_000), '\u0000', 'a\u0000b',
  '\ud800', '\udfff', '\u202e\u0644\u0639', '😀'.repeat(50), '<script>alert(1)</script>', "' OR 1=1 --", '"; DROP TABLE event; --',
  '../../etc/passwd', '%00', '%ZZ', '\r\n\r\n', '0000-00-00', '2026-02-30 25:61:61', '9999999-01-01', 'now', 'yesterday', '@-1',
  '@99999999999999999', '2026-13-45', '1970-01-01T00:00:00+99:99', 0, -1, 1, 2147483647, 2147483648, -2147483649, 1e308, -1e308,
  0.5, Number.MAX_SAFE_INTEGER, true, false, null, [], {}, [1, 'a', null], { id: 'x' }, { venue: 'x'.repeat(5000) },
  deep(200, true), deep(200, false), 'javascript:alert(1)', 'http://', 'https://example.org/' + 'x'.repeat(3000), 'mailto:',
];

/** A value for a schema: valid most of the time, a mutation otherwise (at each level, `odds` of one). */
function valueFor(schema: Json | undefined, r: Random, depth = 0, odds = 0.35): unknown {
  if (!schema || depth > 4 || r.next() < odds) return r.pick(NASTY);
  if (schema.anyOf) return valueFor(r.pick(schema.anyOf), r, depth + 1, odds);
  if (schema.enum) return r.pick(schema.enum);
  if (schema.const !== undefined) return schema.const;
  switch (schema.type) {
    // Past what an id column holds too, where the schema sets no maximum (an id given in free form).
    case 'integer': {
      const [min, max] = [schema.minimum ?? 0, schema.maximum ?? 100];
      if (odds === 0) return r.pick([min, 1, 2, 3].filter((n) => n >= min && n <= max));
      return r.pick([min, min - 1, max, max + 1, 1, 2, 3, 2147483648]);
    }
    case 'number': return r.pick(odds === 0 ? [0, 45.5] : [0, -90.5, 180.0001, 45.5]);
    case 'boolean': return r.pick(odds === 0 ? [true, false, 'yes', 'off'] : [true, false, 'yes', 'off', 1, 0, 'maybe']);
    case 'array': return Array.from({ length: r.int(0, 3) }, () => valueFor(schema.items, r, depth + 1, odds));
    case 'object': {
      const out: Json = {};
      const required = new Set((schema.required ?? []) as string[]);
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Json)) {
        // A valid object has what it requires and a few of the rest: each optional one may need what a
        // generator cannot know (an image that exists, a series' rules).
        if ((odds === 0 && required.has(name)) || r.next() < (odds === 0 ? 0.1 : 0.6)) out[name] = valueFor(property, r, depth + 1, odds);
      }
      return out;
    }
    default:
      if (schema.format === 'cal-date' || schema.format === 'date-time') return r.pick(['2027-03-05 19:00:00', '2027-03-05', 'tomorrow', '+1 week', '2027-03-05T19:00:00Z']);
      if (schema.format === 'cal-timezone') return r.pick(['Europe/Berlin', 'UTC', 'UTC+2', 'America/New_York', '']);
      if (schema.format === 'cal-url-or-empty') return r.pick(['https://example.org/a', '']);
      if (schema.format === 'cal-email-text') return r.pick(['a@example.org', '']);
      return r.pick(['Jazz', 'Blue Room', 'https://example.org', 'a b c', 'publish', 'draft', '10', '99999999999']);
  }
}

const encode = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Resolves `$ref`s of the document (components only). */
function resolver(doc: Json) {
  const resolve = (schema: unknown, seen = 0): Json | undefined => {
    if (!schema || typeof schema !== 'object' || seen > 8) return schema as Json | undefined;
    const s = schema as Json;
    if (typeof s.$ref === 'string') return resolve(doc.components.schemas[s.$ref.split('/').pop() as string], seen + 1);
    return s;
  };
  return resolve;
}

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

/**
 * Odd request headers, each now and then: the conditional ones (on reads and on writes), the language,
 * content negotiation, CORS, and malformed credentials (which a caller's own replace when it has some).
 */
function oddHeaders(r: Random, headers: Record<string, string>) {
  const now = (p: number) => r.next() < p;
  if (now(0.25)) headers['accept-language'] = r.pick(['fr', 'de-CH,de;q=0.9', 'xx', '*;q=abc', ',,,', 'en;q=2', 'é'.repeat(300)]);
  if (now(0.15)) headers.accept = r.pick(['text/calendar', 'application/json', '*/*', 'text/html;q=0', 'a/b/c', 'text/calendar;q=0.5, application/json;q=0.6']);
  if (now(0.15)) headers['if-none-match'] = r.pick(['*', '"x"', 'W/"', '"a", W/"b"', '"' + 'a'.repeat(500) + '"']);
  if (now(0.15)) headers['if-match'] = r.pick(['*', '"x"', 'W/"x"', 'garbage', '"a", "b"', '']);
  if (now(0.1)) headers['if-modified-since'] = r.pick(['Wed, 21 Oct 2015 07:28:00 GMT', 'yesterday', '', 'Sat, 01 Jan 10000 00:00:00 GMT']);
  if (now(0.1)) headers['if-unmodified-since'] = r.pick(['Wed, 21 Oct 2015 07:28:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT', 'never']);
  if (now(0.1)) headers.origin = r.pick(['https://example.org', 'null', 'http://localhost:1', 'x'.repeat(2000)]);
  if (now(0.1)) headers.authorization = r.pick(['Basic', 'Basic !!!', basic('nouser'), basic(':'), basic('administrator:'), basic(`administrator:${'x'.repeat(5000)}`), basic('\u00e9:\u00e9'), 'Bearer x', 'Digest a=b']);
}

/** A schema with every `$ref` in it replaced by what it names, so that values are made for nested ones too. */
function inliner(resolve: (schema: unknown) => Json | undefined) {
  const inline = (schema: unknown, depth = 0): any => {
    if (!schema || typeof schema !== 'object' || depth > 16) return schema;
    if (Array.isArray(schema)) return schema.map((item) => inline(item, depth + 1));
    return Object.fromEntries(Object.entries(resolve(schema) as Json).map(([key, value]) => [key, inline(value, depth + 1)]));
  };
  return (schema: unknown): Json | undefined => inline(schema);
}

export function requestsFrom(doc: Json, seed: number, ids: number[]) {
  const r = createRandom(seed);
  const resolve = inliner(resolver(doc));
  const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation: operation as Json })),
  );
  const pathValue = (name: string) => {
    const value = String(r.next() < 0.6 && name !== 'slug' ? r.pick(ids) : r.pick([...NASTY.filter((v) => typeof v === 'string' && v.length < 3000), 'jazz-night', '0', '99999999999']));
    try {
      return encodeURIComponent(value);
    } catch {
      return '%ED%A0%80'; // a lone surrogate cannot be encoded: its raw UTF-8-style bytes instead
    }
  };

  return {
    operations: operations.length,
    next(): FuzzRequest {
      const { path, method, operation } = r.pick(operations);
      const url = new URL(`http://x${doc.servers?.[0]?.url ? new URL(doc.servers[0].url).pathname.replace(/\/$/, '') : ''}${path.replace(/\{(\w+)\}/g, (_, name: string) => pathValue(name))}`);
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (parameter.in !== 'query' || r.next() < 0.5) continue;
        const value = valueFor(resolve(parameter.schema), r);
        for (const item of Array.isArray(value) && r.next() < 0.5 ? value : [value]) url.searchParams.append(parameter.name, encode(item));
      }
      const headers: Record<string, string> = {};
      oddHeaders(r, headers);
      let payload: string | undefined;
      const bodySchema = resolve(operation.requestBody?.content?.['application/json']?.schema);
      if (bodySchema || (method !== 'GET' && r.next() < 0.3)) {
        // Half the bodies are valid but for one property (mutated, as deep as it goes), so that a bad value is
        // met where the request gets past the others' checks: an id in a venue that only a lookup would refuse.
        const schema = bodySchema ?? { type: 'object', properties: {} };
        const names = Object.keys(schema.properties ?? {});
        const mutated = names.length > 0 && r.next() < 0.5 ? r.pick(names) : undefined;
        const body = mutated === undefined ? valueFor(schema, r) : { ...(valueFor(schema, r, 0, 0) as Json), [mutated]: valueFor(resolve(schema.properties[mutated]), r, 1, 0.5) };
        const style = r.int(0, 9);
        if (style < 6) [headers['content-type'], payload] = ['application/json', JSON.stringify(body)];
        else if (style < 8) [headers['content-type'], payload] = ['application/x-www-form-urlencoded', new URLSearchParams(Object.entries((body ?? {}) as Json).map(([k, v]) => [k, encode(v)])).toString()];
        else [headers['content-type'], payload] = [r.pick(['application/json', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/json; charset=latin1']), r.pick(['{', '{"title":', '[', 'null', '"x"', '<a/>', '\u0000', '{"a":1}{"b":2}', '--x\r\n'])];
      }
      // Now and then by the reference's own path, or in another language, as clients reach the same routes.
      const roll = r.next();
      const pathname = roll < 0.1 ? url.pathname.replace(/^\/cal\/events\/v1/, '/wp-json/tribe/events/v1') : roll < 0.2 ? `/${r.pick(['fr', 'de'])}${url.pathname}` : url.pathname;
      return { method, url: `${pathname}${url.search}`, headers, payload };
    },
  };
}

/** Every route Fastify registered, with its methods, read from its route tree (`app.printRoutes()`). */
export function registeredRoutes(tree: string): Array<{ path: string; methods: string[] }> {
  const routes: Array<{ path: string; methods: string[] }> = [];
  const above: string[] = [];
  for (const line of tree.split('\n')) {
    // `│   ├── /by-slug/:slug (GET, HEAD, POST)`: four characters a level, then the segment and its methods.
    const match = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    above[depth] = `${depth > 0 ? above[depth - 1] : ''}${match[2]}`;
    above.length = depth + 1;
    if (match[3] && above[depth].startsWith('/')) routes.push({ path: above[depth], methods: match[3].split(', ') });
  }
  return routes;
}

const ODD_DAYS = ['2027-03-05', '2027-02-29', '2028-02-29', '2027-02-30', '0000-00-00', '9999-12-31', '2027-13-01', '1969-12-31', '2027-3-5'];
const ODD_MONTHS = ['2027-03', '2027-13', '0000-00', '9999-12', '2027-3', '10000-01', '2027-00', '1970-01'];

/**
 * Requests to the routes the OpenAPI document does not describe (the site's pages and their iCalendar
 * feeds, the operations' endpoints, the stylesheet): their path parameters from known slugs, dates and
 * mutations, their query from the list's parameters (which the listing pages take) and odd ones, with or
 * without a language prefix, odd headers, and now and then a method the route does not have.
 */
export function pageRequestsFrom(routes: Array<{ path: string; methods: string[] }>, listParameters: Json[], seed: number, slugs: string[]) {
  const r = createRandom(seed);
  const strings = NASTY.filter((v): v is string => typeof v === 'string' && v.length < 3000);
  const encoded = (value: string) => {
    try {
      return encodeURIComponent(value);
    } catch {
      return '%ED%A0%80';
    }
  };
  const segment = (name: string) => {
    if (r.next() < 0.3) return encoded(r.pick(strings));
    if (name.startsWith('day')) return r.pick(ODD_DAYS);
    if (name.startsWith('month')) return r.pick(ODD_MONTHS);
    return encoded(r.pick(slugs));
  };
  const parameters = [...listParameters, { name: 'ical', schema: { type: 'boolean' } }, { name: 'page', schema: { type: 'integer', minimum: 1 } }, { name: 'tribe-bar-date' }, { name: 'post_password' }];
  return {
    next(): FuzzRequest {
      const route = r.pick(routes);
      const path = route.path.replace(/:(\w+)(\([^)]*\))?/g, (_, name: string) => segment(name));
      const url = new URL(`http://x${r.next() < 0.2 ? r.pick(['/fr', '/de', '/xx']) : ''}${path}${r.next() < 0.7 ? '/' : ''}`);
      const count = r.int(0, 3);
      for (let i = 0; i < count; i++) {
        const parameter = r.pick(parameters);
        url.searchParams.append(parameter.name, encode(valueFor(parameter.schema, r)));
      }
      const method = r.next() < 0.1 ? r.pick(['PUT', 'DELETE', 'PATCH', 'POST', 'OPTIONS']) : r.pick(route.methods.filter((m) => m !== 'HEAD'));
      const headers: Record<string, string> = {};
      oddHeaders(r, headers);
      if (r.next() < 0.2) headers.cookie = `cal_event_pass=${encoded(r.pick(strings)).slice(0, 2000)}`;
      let payload: string | undefined;
      if (method === 'POST' || method === 'PUT') {
        headers['content-type'] = r.pick(['application/x-www-form-urlencoded', 'application/json', 'text/plain']);
        const password = r.pick(strings);
        payload = headers['content-type'] === 'application/json' ? JSON.stringify({ post_password: r.next() < 0.5 ? password : valueFor(undefined, r) }) : `post_password=${encoded(password)}`;
      }
      return { method, url: `${url.pathname}${url.search}`, headers, payload };
    },
  };
}
