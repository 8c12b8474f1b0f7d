import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A record of each kind as the reference really sent it (samples/), the base every fake record is cloned from. */
function sample(file: string, key: string): Record<string, any> {
  const text = readFileSync(`/work/shared/reference/samples/${file}`, 'utf8');
  return JSON.parse(text.slice(text.indexOf('\n{"') + 1))[key][0];
}

export interface FakeSite {
  root: string;
  records: Record<string, Record<string, any>[]>;
  /**
   * Answers to give before the real one, per path+page (`events?page=2`): 500, 429 (Retry-After: 1), 'timeout'
   * (no answer), 'stall' (the head and half the body, then nothing more), 'malformed' (half the body, ended).
   */
  faults: Map<string, Array<500 | 429 | 'timeout' | 'stall' | 'malformed'>>;
  /** Every request seen, as path+page. */
  seen: string[];
  /**
   * A site that misbehaves: answers page 1 whatever page is asked, announces another total, or a page count
   * that is no number; `page` rewrites what a page lists (after its records are chosen: it may change
   * `records` too, so the next pages see records added, removed or moved, as on a busy site).
   */
  lies: {
    ignorePage?: boolean;
    total?: number;
    totalPages?: string;
    page?: (resource: string, page: number, items: unknown[]) => unknown[];
    /** Term lists answer a page past the end as newer WordPress does (400), not as the version read (200, empty). */
    newerTermPaging?: boolean;
  };
  close(): Promise<void>;
}

/** What a visitor sees of a password-protected record's fields (tec-rest-v1.md §1.1-1.3), by list. */
const PROTECTED_BLANKS: Record<string, (record: Record<string, any>) => Record<string, unknown>> = {
  events: () => ({
    description: '', excerpt: '', website: '', cost: '', image: false,
    all_day: null, show_map: null, show_map_link: null, hide_from_listings: null, sticky: null, featured: null,
    cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
    categories: [], tags: [], venue: [], organizer: [], custom_fields: [],
  }),
  venues: (record) => ({
    venue: [], show_map: null, show_map_link: null, description: '', excerpt: '',
    ...Object.fromEntries(['address', 'city', 'country', 'province', 'zip', 'phone', 'website', 'stateprovince'].map((key) => [key, ''])),
    ...('geo_lat' in record ? { geo_lat: 0, geo_lng: 0 } : {}),
  }),
  organizers: () => ({ organizer: [], description: '', excerpt: '', phone: '', website: '', email: '' }),
};

/**
 * An in-process The Events Calendar site: lists shaped as the reference's (envelope, X-TEC-Total headers),
 * paged, with faults on demand. `venues` and `events` counts set the size; event i names venue i.
 */
export async function startFakeSite(options: { venues: number; events: number; perPageCap?: number; password?: string }): Promise<FakeSite> {
  const host = 'fake.test';
  const venueBase = sample('19-venues-list.txt', 'venues');
  const organizerBase = sample('21-organizers-list.txt', 'organizers');
  const categoryBase = sample('23-categories-list.txt', 'categories');
  const tagBase = sample('24-tags-list.txt', 'tags');
  const eventBase = sample('12-events-list.txt', 'events');
  const post = (base: Record<string, any>, id: number, extra: Record<string, any>) => ({
    ...base, id, global_id: `${host}?id=${id}`, global_id_lineage: [`${host}?id=${id}`], ...extra,
  });
  const records: FakeSite['records'] = {
    categories: [{ ...categoryBase, id: 2, name: 'Music', slug: 'music' }, { ...categoryBase, id: 3, name: 'Jazz', slug: 'jazz', parent: 2 }],
    tags: [{ ...tagBase, id: 7, name: 'Outdoor', slug: 'outdoor' }],
    organizers: [post(organizerBase, 500, {})],
    // Odd venues carry coordinates, as a site with the Pro add-on sends them (reference §1.2: numbers, both or neither).
    venues: Array.from({ length: options.venues }, (_, i) =>
      post(venueBase, 1000 + i, { venue: `Hall ${i}`, slug: `hall-${i}`, ...(i % 2 === 1 ? { geo_lat: 52 + i / 100, geo_lng: 13 + i / 100 } : {}) })),
    events: Array.from({ length: options.events }, (_, i) =>
      post(eventBase, 2000 + i, {
        title: `Event ${i}`, slug: `event-${i}`, url: `http://${host}/event/event-${i}/`,
        venue: { ...venueBase, id: 1000 + (i % options.venues) },
        organizer: [{ ...organizerBase, id: 500 }],
        categories: [{ ...categoryBase, id: 3 }],
        tags: [{ ...tagBase, id: 7 }],
      }),
    ),
  };
  const faults: FakeSite['faults'] = new Map();
  const lies: FakeSite['lies'] = {};
  const seen: string[] = [];
  const cap = options.perPageCap ?? 50;

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const resource = url.pathname.replace(/^\/wp-json\/tribe\/events\/v1\//, '');
    const page = lies.ignorePage ? 1 : Number(url.searchParams.get('page') ?? 1);
    const signature = `${resource}?page=${page}`;
    seen.push(signature);
    const fault = faults.get(signature)?.shift();
    if (fault === 500) return response.writeHead(500, { 'content-type': 'application/json' }).end('{"code":"internal_server_error"}');
    if (fault === 429) return response.writeHead(429, { 'retry-after': '1' }).end();
    if (fault === 'timeout') return; // never answers: the client gives up (and close() ends the connection)
    const authorized = request.headers.authorization === `Basic ${Buffer.from(`admin:${options.password ?? 'secret'}`).toString('base64')}`;
    // What a lie lists is shown as the site shows records: a protected one blank unless an editor asks to edit.
    const shownAs = (kind: string) => (r: unknown) => {
      const record = r as Record<string, any>;
      return record?.password_protected && !(authorized && url.searchParams.get('context') === 'edit') ? { ...record, ...PROTECTED_BLANKS[kind]?.(record) } : r;
    };
    // One venue or organizer by id, as a visitor may read a protected one (blank, not refused: §4).
    const single = /^(venues|organizers)\/(\d+)$/.exec(resource);
    if (single) {
      const found = records[single[1]].find((r) => r.id === Number(single[2]) && (authorized || r.status === undefined || r.status === 'publish'));
      if (!found) return response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'rest_invalid_param', message: 'Invalid parameter(s): id', data: { status: 400, params: { id: 'Invalid parameter.' } } }));
      const { password_protected: _p, ...sent } = shownAs(single[1])(found) as Record<string, any>;
      return response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(sent));
    }
    const list = records[resource];
    if (!list) return response.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}}');
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 10), cap);
    // `include`: only these ids, in post date then id order (the fake's records share a date); tec-rest-v1.md §2.3.
    const include = url.searchParams.get('include')?.split(',').map(Number);
    const allowed = list.filter((r) => (authorized || r.status === undefined || r.status === 'publish') && (!include || include.includes(r.id)));
    // Terms in name order, as the reference lists them by default (§2.2): a child may come before its parent.
    const byName = resource === 'categories' || resource === 'tags';
    const visible = include ? allowed.sort((a, b) => a.id - b.id) : byName ? allowed.sort((a, b) => String(a.name).localeCompare(String(b.name))) : allowed;
    const chosen = visible.slice((page - 1) * perPage, page * perPage);
    const items = (lies.page ? lies.page(resource, page, chosen) : chosen).map(shownAs(resource));
    // The reference's posts (not its terms) answer a page past the end with a 404 (tec-rest-v1.md §2.2).
    const label = { events: 'event', venues: 'venue', organizers: 'organizer' }[resource];
    if (!label && lies.newerTermPaging && page > 1 && items.length === 0) {
      return response.writeHead(400, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify({
        code: 'rest_term_invalid_page_number', message: 'The page number requested is larger than the number of pages available.', data: { status: 400 },
      }));
    }
    if (label && page > 1 && items.length === 0) {
      return response.writeHead(404, { 'content-type': 'application/json; charset=UTF-8' })
        .end(JSON.stringify({ code: `${label}-archive-page-not-found`, message: `The requested ${label} archive page does not exist`, data: { status: 404 } }));
    }
    const total = lies.total ?? visible.length;
    const pageCount = Math.ceil(total / perPage);
    // The flag is the fake's own bookkeeping, never sent; whatever a `page` lie put in (null, a number) goes as it is.
    const shown = items.map((r) => {
      if (!r || typeof r !== 'object' || Array.isArray(r)) return r;
      const { password_protected: _p, ...sent } = r as Record<string, any>;
      return sent;
    });
    const body = JSON.stringify({ [resource]: shown, rest_url: `http://${host}/wp-json/tribe/events/v1/${resource}/`, total, total_pages: lies.totalPages ?? pageCount });
    response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', 'X-TEC-Total': String(total), 'X-TEC-TotalPages': lies.totalPages ?? String(pageCount) });
    if (fault === 'stall') return void response.write(body.slice(0, body.length / 2)); // close() ends it
    response.end(fault === 'malformed' ? body.slice(0, body.length / 2) : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    root: `http://127.0.0.1:${port}/wp-json/tribe/events/v1`,
    records,
    faults,
    seen,
    lies,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
