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

const NASTY: unknown[] = [
  '', ' ', '0', '-1', '1e308', 'NaN', 'Infinity', 'true', 'null', 'undefined', '[]', '{}', 'a'.repeat(100_000), '\u0000', 'a\u0000b',
  '\ud800', '\udfff', '\u202e\u0644\u0639', '😀'.repeat(50), '<script>alert(1)</script>', "' OR 1=1 --", '"; DROP TABLE event; --',
  '../../etc/passwd', '%00', '%ZZ', '\r\n\r\n', '0000-00-00', '2026-02-30 25:61:61', '9999999-01-01', 'now', 'yesterday', '@-1',
  '@99999999999999999', '2026-13-45', '1970-01-01T00:00:00+99:99', 0, -1, 1, 2147483647, 2147483648, -2147483649, 1e308, -1e308,
  0.5, Number.MAX_SAFE_INTEGER, true, false, null, [], {}, [1, 'a', null], { id: 'x' }, { venue: 'x'.repeat(5000) },
  deep(200, true), deep(200, false), 'javascript:alert(1)', 'http://', 'https://example.org/' + 'x'.repeat(3000), 'mailto:',
];

/** A value for a schema: valid most of the time, a mutation otherwise. */
function valueFor(schema: Json | undefined, r: Random, depth = 0): unknown {
  if (!schema || depth > 4 || r.next() < 0.35) return r.pick(NASTY);
  if (schema.anyOf) return valueFor(r.pick(schema.anyOf), r, depth + 1);
  if (schema.enum) return r.pick(schema.enum);
  if (schema.const !== undefined) return schema.const;
  switch (schema.type) {
    case 'integer': return r.pick([schema.minimum ?? 0, (schema.minimum ?? 0) - 1, schema.maximum ?? 100, (schema.maximum ?? 100) + 1, 1, 2, 3]);
    case 'number': return r.pick([0, -90.5, 180.0001, 45.5]);
    case 'boolean': return r.pick([true, false, 'yes', 'off', 1, 0]);
    case 'array': return Array.from({ length: r.int(0, 3) }, () => valueFor(schema.items, r, depth + 1));
    case 'object': {
      const out: Json = {};
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Json)) if (r.next() < 0.6) out[name] = valueFor(property, r, depth + 1);
      return out;
    }
    default:
      if (schema.format === 'cal-date' || schema.format === 'date-time') return r.pick(['2027-03-05 19:00:00', '2027-03-05', 'tomorrow', '+1 week', '2027-03-05T19:00:00Z']);
      return r.pick(['Jazz', 'Blue Room', 'https://example.org', 'a b c', 'publish', 'draft', '10']);
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

export function requestsFrom(doc: Json, seed: number, ids: number[]) {
  const r = createRandom(seed);
  const resolve = resolver(doc);
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
      let payload: string | undefined;
      const bodySchema = resolve(operation.requestBody?.content?.['application/json']?.schema);
      if (bodySchema || (method !== 'GET' && r.next() < 0.3)) {
        const body = valueFor(bodySchema ?? { type: 'object', properties: {} }, r);
        const style = r.int(0, 9);
        if (style < 6) [headers['content-type'], payload] = ['application/json', JSON.stringify(body)];
        else if (style < 8) [headers['content-type'], payload] = ['application/x-www-form-urlencoded', new URLSearchParams(Object.entries((body ?? {}) as Json).map(([k, v]) => [k, encode(v)])).toString()];
        else [headers['content-type'], payload] = [r.pick(['application/json', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/json; charset=latin1']), r.pick(['{', '{"title":', '[', 'null', '"x"', '<a/>', '\u0000', '{"a":1}{"b":2}', '--x\r\n'])];
      }
      return { method, url: `${url.pathname}${url.search}`, headers, payload };
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
      if (r.next() < 0.3) headers['accept-language'] = r.pick(['fr', 'de-CH,de;q=0.9', 'xx', '*;q=abc', ',,,', 'en;q=2']);
      if (r.next() < 0.2) headers.accept = r.pick(['text/calendar', 'application/json', '*/*', 'text/html;q=0', 'a/b/c']);
      if (r.next() < 0.2) headers['if-none-match'] = r.pick(['*', '"x"', 'W/"', '"' + 'a'.repeat(500) + '"']);
      if (r.next() < 0.2) headers['if-modified-since'] = r.pick(['Wed, 21 Oct 2015 07:28:00 GMT', 'yesterday', '']);
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
