import { expect, it } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { createUrls } from '../../src/http/urls.ts';
import { createTermRepository } from '../../src/terms/term.repository.ts';
import { toEmbeddedTerm } from '../../src/terms/term.service.ts';
import { API, API_URL, PUBLIC_URL, describeEachDialect, type TestContext } from '../helpers/test-app.ts';

const CATS = `${API}/categories`;
const TAGS = `${API}/tags`;
const CATS_URL = `${API_URL}/categories`;
const TAGS_URL = `${API_URL}/tags`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

interface Expected {
  id: number;
  name: string;
  slug: string;
  description?: string;
  parent?: number;
  count?: number;
}

/** The standalone category shape of reference §1.4(a). */
function category({ id, name, slug, description = '', parent = 0, count = 0 }: Expected) {
  const up = parent ? { up: `${CATS_URL}/${parent}` } : {};
  return {
    id, count, description, name, slug, taxonomy: 'tribe_events_cat', parent, meta: [],
    url: `${PUBLIC_URL}/events/category/${slug}/`,
    urls: { self: `${CATS_URL}/${id}`, collection: CATS_URL, ...up },
  };
}

/** Tags: no `parent`, never `urls.up`. */
function tag({ id, name, slug, description = '', count = 0 }: Expected) {
  return {
    id, count, description, name, slug, taxonomy: 'post_tag', meta: [],
    url: `${PUBLIC_URL}/tag/${slug}/`,
    urls: { self: `${TAGS_URL}/${id}`, collection: TAGS_URL },
  };
}

const forbiddenBody = (status: number) => ({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status } });
const notFoundBody = { code: 'rest_term_invalid', message: 'Term does not exist.', data: { status: 404 } };
const invalidBody = (params: Record<string, string>) => ({
  code: 'rest_invalid_param',
  message: `Invalid parameter(s): ${Object.keys(params).join(', ')}`,
  data: { status: 400, params, details: [] },
});
const invalid = (...names: string[]) => invalidBody(Object.fromEntries(names.map((n) => [n, 'Invalid parameter.'])));

let eventSeq = 0;
/** An event row written straight to the tables (the events resource is not needed for term counts). */
async function makeEvent(db: Db, termIds: number[], status = 'publish'): Promise<number> {
  const { id } = await db.insertInto('post').values({ type: 'event' }).returning('id').executeTakeFirstOrThrow();
  const stamp = '2030-01-01 10:00:00';
  eventSeq += 1;
  await db.insertInto('event').values({
    id, author_id: 1, status, slug: `event-${eventSeq}`, title: `Event ${eventSeq}`, description: '', excerpt: '', search_text: '',
    image_id: null, date_local: stamp, date_utc: stamp, modified_local: stamp, modified_utc: stamp,
    password: '', parent_id: 0, timezone: 'UTC', timezone_abbr: 'UTC', all_day: 0,
    start_local: stamp, end_local: stamp, start_utc: stamp, end_utc: stamp, cost: '[]', website: null,
    show_map: 0, show_map_link: 0, hide_from_listings: 0, sticky: 0, featured: 0, venue_id: null,
    recurrence: null, original_start: null, override: 0, recurrence_next: null,
  }).execute();
  if (termIds.length > 0) await db.insertInto('event_term').values(termIds.map((term_id) => ({ event_id: id, term_id }))).execute();
  // As the event service does after every write: the terms keep their published-event counts.
  await createTermRepository(db, 'sqlite').recount(termIds);
  return id;
}

const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The `_links` of a single term (reference samples 27, 28), pointing at our routes; `allow` is the caller's. */
function termLinks(plural: 'categories' | 'tags', id: number, allow: string[]) {
  const collection = `${API_URL}/${plural}`;
  return {
    self: [{ href: `${collection}/${id}`, targetHints: { allow } }],
    collection: [{ href: collection }],
    about: [{ href: `${API_URL}/doc` }],
    'wp:post_type': [{ href: `${API_URL}/events?${plural}=${id}` }],
    curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
  };
}

/**
 * Single reads, creates and updates carry `_links` (checked here, then taken off so the tests compare the
 * record); lists and deletes carry none, as the reference's.
 */
function checkLinks<T extends { statusCode: number; json: any }>(res: T, method: string, url: string, allow: string[]): T {
  const single = /\/(categories|tags)(\/\d+)?$/.exec(url.split('?')[0]);
  if (res.statusCode >= 300 || !single) return res;
  const plural = single[1] as 'categories' | 'tags';
  if (method === 'DELETE' || (method === 'GET' && !single[2])) {
    for (const term of method === 'DELETE' ? [res.json] : res.json[plural]) expect(term).not.toHaveProperty('_links');
    return res;
  }
  expect(res.json._links).toEqual(termLinks(plural, res.json.id, allow));
  expect(Object.keys(res.json).at(-1)).toBe('_links');
  delete res.json._links;
  return res;
}

/** Helpers bound to one test's context. */
function helpers(t: () => TestContext) {
  const write = async (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
    const editor = await t().user('editor');
    return checkLinks(await t().request({ method, url, headers: editor.headers, ...(payload ? { payload } : {}) }), method, url, ALL_METHODS);
  };
  const create = async (base: string, payload: Record<string, unknown>) => {
    const res = await write('POST', base, payload);
    expect(res.statusCode).toBe(201);
    return res.json as { id: number; slug: string; name: string };
  };
  return {
    write,
    create,
    get: async (url: string) => checkLinks(await t().request({ method: 'GET', url }), 'GET', url, ['GET']),
    event: (termIds: number[], status?: string) => makeEvent(t().database.db, termIds, status),
  };
}

describeEachDialect('POST /categories', (t) => {
  const h = helpers(t);

  it('gives single categories and tags WordPress\'s _links, pointing at our routes; lists have none', async () => {
    const editor = await t().user('editor');
    const created = await t().request({ method: 'POST', url: CATS, headers: editor.headers, payload: { name: 'Theatre' } });
    expect(created.json._links).toEqual(termLinks('categories', created.json.id, ALL_METHODS));
    const read = await t().request({ url: `${CATS}/${created.json.id}` });
    expect(read.json._links.self[0].targetHints.allow).toEqual(['GET']);
    const tag = await t().request({ method: 'POST', url: TAGS, headers: editor.headers, payload: { name: 'family' } });
    expect(tag.json._links).toEqual(termLinks('tags', tag.json.id, ALL_METHODS));
    expect(Object.keys(tag.json)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls', '_links']);
    // The events link lists the term's events.
    const events = await t().request({ url: tag.json._links['wp:post_type'][0].href.slice(PUBLIC_URL.length) });
    expect([events.statusCode, events.json.total]).toEqual([200, 0]);
    const list = await t().request({ url: `${CATS}?hide_empty=false` });
    expect(list.json.categories[0]).not.toHaveProperty('_links');
  });

  it('returns 201, the standalone term and a Location header pointing at it', async () => {
    const res = await h.write('POST', CATS, { name: 'Theatre', description: 'Plays' });
    expect(res.statusCode).toBe(201);
    const id = res.json.id;
    expect(res.json).toEqual(category({ id, name: 'Theatre', slug: 'theatre', description: 'Plays' }));
    expect(Object.keys(res.json)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls']);
    expect(res.headers.location).toBe(`${CATS_URL}/${id}`);
  });

  it('stores the name and description trimmed and derives a unique slug from the name', async () => {
    const first = await h.create(CATS, { name: '  Music  ', description: '  Live  ' });
    expect(first).toEqual(category({ id: first.id, name: 'Music', slug: 'music', description: 'Live' }));
    const second = await h.create(CATS, { name: 'Music!' });
    expect(second.slug).toBe('music-2');
    const accented = await h.create(CATS, { name: 'Café Concerts' });
    expect(accented.slug).toBe('cafe-concerts');
  });

  it('slugifies a sent slug and makes it unique in the taxonomy', async () => {
    expect((await h.create(CATS, { name: 'A', slug: 'My Slug' })).slug).toBe('my-slug');
    expect((await h.create(CATS, { name: 'B', slug: 'my-slug' })).slug).toBe('my-slug-2');
    expect((await h.create(TAGS, { name: 'C', slug: 'my-slug' })).slug).toBe('my-slug');
    expect((await h.create(CATS, { name: 'Rock', slug: '!!!' })).slug).toBe('rock');
    expect((await h.create(CATS, { name: '???' })).slug).toBe('category');
  });

  it('returns 400 rest_missing_callback_param when name is missing', async () => {
    const res = await h.write('POST', CATS, { description: 'No name' });
    expect(res.statusCode).toBe(400);
    expect(res.json).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): name', data: { status: 400, params: ['name'] } });
  });

  it('returns 400 rest_invalid_param naming an empty name, description and slug', async () => {
    const res = await h.write('POST', CATS, { name: '', description: '', slug: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json).toEqual(invalid('name', 'description', 'slug'));
    const blank = await h.write('POST', CATS, { name: '   ' });
    expect(blank.json).toEqual(invalid('name'));
  });

  it('returns 400 term_exists with term_id for a duplicate name at the same level, any case', async () => {
    const music = await h.create(CATS, { name: 'Music' });
    const res = await h.write('POST', CATS, { name: 'MUSIC' });
    expect(res.statusCode).toBe(400);
    expect(res.json).toEqual({
      code: 'term_exists', message: 'A term with the name provided already exists with this parent.',
      data: { status: 400, term_id: music.id }, additional_data: [music.id],
    });
    const child = await h.create(CATS, { name: 'music', parent: music.id });
    expect(child).toEqual(category({ id: child.id, name: 'music', slug: 'music-2', parent: music.id }));
  });

  it('accepts an existing parent and links up to it', async () => {
    const parent = await h.create(CATS, { name: 'Arts' });
    const res = await h.write('POST', CATS, { name: 'Dance', parent: parent.id });
    expect(res.json).toEqual(category({ id: res.json.id, name: 'Dance', slug: 'dance', parent: parent.id }));
    const top = await h.create(CATS, { name: 'Top', parent: 0 });
    expect(top).toEqual(category({ id: top.id, name: 'Top', slug: 'top' }));
  });

  it('returns 400 rest_invalid_param naming parent for an unknown or non-integer parent, nothing stored', async () => {
    const tagged = await h.create(TAGS, { name: 'A tag' });
    for (const parent of [2389, tagged.id]) {
      const res = await h.write('POST', CATS, { name: 'Orphan', parent });
      expect(res.statusCode).toBe(400);
      expect(res.json).toEqual(invalid('parent'));
    }
    for (const parent of ['foo', '', -1, 1.5]) {
      const res = await h.write('POST', CATS, { name: 'Orphan', parent });
      expect(res.statusCode).toBe(400);
      expect(res.json).toEqual(invalid('parent'));
    }
    expect((await h.get(`${CATS}?hide_empty=false&search=Orphan`)).json.total).toBe(0);
  });

  it('accepts a form-encoded body', async () => {
    const parent = await h.create(CATS, { name: 'Arts' });
    const editor = await t().user('editor');
    const res = checkLinks(await t().request({
      method: 'POST', url: CATS, headers: { ...editor.headers, ...FORM },
      payload: `name=Jazz+Night&description=Late+%26+loud&parent=${parent.id}`,
    }), 'POST', CATS, ALL_METHODS);
    expect(res.statusCode).toBe(201);
    expect(res.json).toEqual(category({ id: res.json.id, name: 'Jazz Night', slug: 'jazz-night', description: 'Late & loud', parent: parent.id }));
  });

  it('returns 401 to anonymous callers and 403 rest_forbidden below editor, after syntax checks', async () => {
    const anonymous = await t().request({ method: 'POST', url: CATS, payload: { name: 'X' } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json).toEqual(forbiddenBody(401));
    const badAnonymous = await t().request({ method: 'POST', url: CATS, payload: { name: '' } });
    expect(badAnonymous.statusCode).toBe(400);
    for (const role of ['author', 'contributor', 'subscriber'] as const) {
      const user = await t().user(role);
      // The parent is unknown too: permission (403) comes before semantic checks (400).
      const res = await t().request({ method: 'POST', url: CATS, headers: user.headers, payload: { name: 'X', parent: 999 } });
      expect(res.statusCode).toBe(403);
      expect(res.json).toEqual(forbiddenBody(403));
    }
    const admin = await t().user('administrator');
    const res = await t().request({ method: 'POST', url: CATS, headers: admin.headers, payload: { name: 'By admin' } });
    expect(res.statusCode).toBe(201);
  });
});

describeEachDialect('GET /categories/{id}', (t) => {
  const h = helpers(t);

  it('returns the category with the count of published events using it', async () => {
    const music = await h.create(CATS, { name: 'Music', description: 'Sounds' });
    await h.event([music.id]);
    await h.event([music.id]);
    await h.event([music.id], 'draft');
    const res = await h.get(`${CATS}/${music.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json).toEqual(category({ id: music.id, name: 'Music', slug: 'music', description: 'Sounds', count: 2 }));
  });

  it('returns 404 rest_term_invalid for an unknown id, id 0 and a tag id', async () => {
    const tagged = await h.create(TAGS, { name: 'A tag' });
    for (const id of [999, 0, tagged.id]) {
      const res = await h.get(`${CATS}/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json).toEqual(notFoundBody);
    }
  });

  it('returns 404 rest_no_route for a non-numeric id', async () => {
    const res = await h.get(`${CATS}/music`);
    expect(res.statusCode).toBe(404);
    expect(res.json.code).toBe('rest_no_route');
  });
});

describeEachDialect('POST|PUT|PATCH /categories/{id}', (t) => {
  const h = helpers(t);

  it('changes only the sent fields, on every update method', async () => {
    const arts = await h.create(CATS, { name: 'Arts' });
    const music = await h.create(CATS, { name: 'Music', description: 'Sounds' });
    const url = `${CATS}/${music.id}`;
    const renamed = await h.write('POST', url, { name: 'Live Music' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json).toEqual(category({ id: music.id, name: 'Live Music', slug: 'music', description: 'Sounds' }));
    const moved = await h.write('PUT', url, { parent: arts.id });
    expect(moved.json).toEqual(category({ id: music.id, name: 'Live Music', slug: 'music', description: 'Sounds', parent: arts.id }));
    const reslugged = await h.write('PATCH', url, { slug: 'Live Music', description: ' Loud ' });
    expect(reslugged.json).toEqual(category({ id: music.id, name: 'Live Music', slug: 'live-music', description: 'Loud', parent: arts.id }));
    const cleared = await h.write('PATCH', url, { parent: 0, description: '' });
    expect(cleared.json).toEqual(category({ id: music.id, name: 'Live Music', slug: 'live-music' }));
    expect((await h.get(url)).json).toEqual(cleared.json);
  });

  it('accepts its own GET body back and changes nothing', async () => {
    const arts = await h.create(CATS, { name: 'Arts' });
    const dance = await h.create(CATS, { name: 'Dance', parent: arts.id, slug: 'dance-2' });
    const before = (await h.get(`${CATS}/${dance.id}`)).json;
    const res = await h.write('POST', `${CATS}/${dance.id}`, before);
    expect(res.statusCode).toBe(200);
    expect(res.json).toEqual(before);
  });

  it('keeps the slug unique and leaves it alone when the same slug is sent', async () => {
    await h.create(CATS, { name: 'Jazz' });
    const other = await h.create(CATS, { name: 'Other' });
    const url = `${CATS}/${other.id}`;
    expect((await h.write('PATCH', url, { slug: 'jazz' })).json.slug).toBe('jazz-2');
    expect((await h.write('PATCH', url, { slug: 'jazz-2' })).json.slug).toBe('jazz-2');
  });

  it('returns 400 term_exists when renaming or moving onto a sibling name', async () => {
    const arts = await h.create(CATS, { name: 'Arts' });
    const jazz = await h.create(CATS, { name: 'Jazz' });
    const other = await h.create(CATS, { name: 'Other' });
    const nested = await h.create(CATS, { name: 'Jazz', parent: arts.id });
    const res = await h.write('POST', `${CATS}/${other.id}`, { name: 'jazz' });
    expect(res.statusCode).toBe(400);
    expect(res.json).toEqual({
      code: 'term_exists', message: 'A term with the name provided already exists with this parent.',
      data: { status: 400, term_id: jazz.id },
    });
    const moved = await h.write('POST', `${CATS}/${nested.id}`, { parent: 0 });
    expect(moved.json.data).toEqual({ status: 400, term_id: jazz.id });
    const ownCase = await h.write('POST', `${CATS}/${jazz.id}`, { name: 'JAZZ' });
    expect(ownCase.json).toEqual(category({ id: jazz.id, name: 'JAZZ', slug: 'jazz' }));
  });

  it('returns 400 for a parent that is the term itself, a descendant, unknown or not an integer', async () => {
    const arts = await h.create(CATS, { name: 'Arts' });
    const dance = await h.create(CATS, { name: 'Dance', parent: arts.id });
    const ballet = await h.create(CATS, { name: 'Ballet', parent: dance.id });
    const loop = 'A category cannot be its own parent or the child of one of its descendants.';
    for (const parent of [arts.id, ballet.id]) {
      const res = await h.write('PATCH', `${CATS}/${arts.id}`, { parent });
      expect(res.statusCode).toBe(400);
      expect(res.json).toEqual(invalidBody({ parent: loop }));
    }
    const unknown = await h.write('PATCH', `${CATS}/${arts.id}`, { parent: 4242 });
    expect(unknown.json).toEqual(invalid('parent'));
    const bad = await h.write('PATCH', `${CATS}/${arts.id}`, { parent: 'foo', name: '', slug: '' });
    expect(bad.json).toEqual(invalid('name', 'slug', 'parent'));
    expect((await h.get(`${CATS}/${arts.id}`)).json).toEqual(category({ id: arts.id, name: 'Arts', slug: 'arts' }));
  });

  it('accepts a form-encoded body', async () => {
    const music = await h.create(CATS, { name: 'Music' });
    const editor = await t().user('editor');
    const res = checkLinks(await t().request({
      method: 'PUT', url: `${CATS}/${music.id}`, headers: { ...editor.headers, ...FORM }, payload: 'description=Loud',
    }), 'PUT', `${CATS}/${music.id}`, ALL_METHODS);
    expect(res.json).toEqual(category({ id: music.id, name: 'Music', slug: 'music', description: 'Loud' }));
  });

  it('checks syntax (400), then authentication (401), the term (404), permission (403), semantics (400)', async () => {
    const music = await h.create(CATS, { name: 'Music' });
    const url = `${CATS}/${music.id}`;
    const subscriber = await t().user('subscriber');
    const cases: Array<[Record<string, string> | undefined, string, Record<string, unknown>, number, unknown]> = [
      [undefined, url, { parent: 'foo' }, 400, invalid('parent')],
      [undefined, url, { name: 'X' }, 401, forbiddenBody(401)],
      [subscriber.headers, `${CATS}/999`, { name: 'X' }, 404, notFoundBody],
      [subscriber.headers, url, { parent: 999 }, 403, forbiddenBody(403)],
      [(await t().user('editor')).headers, url, { parent: 999 }, 400, invalid('parent')],
    ];
    for (const [headers, target, payload, status, body] of cases) {
      const res = await t().request({ method: 'POST', url: target, ...(headers ? { headers } : {}), payload });
      expect([res.statusCode, res.json]).toEqual([status, body]);
    }
  });
});

describeEachDialect('DELETE /categories/{id}', (t) => {
  const h = helpers(t);

  it('deletes permanently and returns the term as it was', async () => {
    const arts = await h.create(CATS, { name: 'Arts', description: 'All of them' });
    const dance = await h.create(CATS, { name: 'Dance', parent: arts.id });
    const event = await h.event([arts.id, dance.id]);
    const res = await h.write('DELETE', `${CATS}/${arts.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json).toEqual(category({ id: arts.id, name: 'Arts', slug: 'arts', description: 'All of them', count: 1 }));
    expect((await h.get(`${CATS}/${arts.id}`)).statusCode).toBe(404);
    expect((await h.write('DELETE', `${CATS}/${arts.id}`)).json).toEqual(notFoundBody);
    // Children move to the top level; the deleted term's event links go with it.
    expect((await h.get(`${CATS}/${dance.id}`)).json).toEqual(category({ id: dance.id, name: 'Dance', slug: 'dance', count: 1 }));
    const links = await t().database.db.selectFrom('event_term').select('term_id').where('event_id', '=', event).execute();
    expect(links).toEqual([{ term_id: dance.id }]);
  });

  it('returns 401, then 404, then 403 rest_forbidden', async () => {
    const music = await h.create(CATS, { name: 'Music' });
    const anonymous = await t().request({ method: 'DELETE', url: `${CATS}/${music.id}` });
    expect([anonymous.statusCode, anonymous.json]).toEqual([401, forbiddenBody(401)]);
    const author = await t().user('author');
    const unknown = await t().request({ method: 'DELETE', url: `${CATS}/999`, headers: author.headers });
    expect([unknown.statusCode, unknown.json]).toEqual([404, notFoundBody]);
    const denied = await t().request({ method: 'DELETE', url: `${CATS}/${music.id}`, headers: author.headers });
    expect([denied.statusCode, denied.json]).toEqual([403, forbiddenBody(403)]);
    expect((await h.get(`${CATS}/${music.id}`)).statusCode).toBe(200);
  });
});

describeEachDialect('GET /categories', (t) => {
  const h = helpers(t);
  const list = async (query = '') => {
    const res = await h.get(`${CATS}${query ? `?${query}` : ''}`);
    return Object.assign(res, { names: (res.json?.categories ?? []).map((c: { name: string }) => c.name) });
  };
  /** Music, art, Dance, Books, comedy (ids in that order); only Music (2), art and Dance (1) have published events. */
  const seed = async () => {
    const ids: Record<string, number> = {};
    for (const name of ['Music', 'art', 'Dance', 'Books', 'comedy']) ids[name] = (await h.create(CATS, { name })).id;
    await h.event([ids.Music, ids.art, ids.Dance]);
    await h.event([ids.Music]);
    await h.event([ids.Books], 'draft');
    return ids;
  };

  it('returns an empty 200 envelope with zero headers when there is nothing to list', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.json).toEqual({ rest_url: `${CATS_URL}/?page=1&per_page=10`, total: 0, total_pages: 0, categories: [] });
    expect(Object.keys(res.json)).toEqual(['rest_url', 'total', 'total_pages', 'categories']);
    expect([res.headers['x-tec-total'], res.headers['x-tec-totalpages']]).toEqual(['0', '0']);
  });

  it('hides terms no published event uses (hide_empty defaults to true), ordered by name in any case', async () => {
    const ids = await seed();
    const res = await list();
    expect(res.json).toEqual({
      rest_url: `${CATS_URL}/?page=1&per_page=10`, total: 3, total_pages: 1,
      categories: [
        category({ id: ids.art, name: 'art', slug: 'art', count: 1 }),
        category({ id: ids.Dance, name: 'Dance', slug: 'dance', count: 1 }),
        category({ id: ids.Music, name: 'Music', slug: 'music', count: 2 }),
      ],
    });
    expect([res.headers['x-tec-total'], res.headers['x-tec-totalpages']]).toEqual(['3', '1']);
    const all = await list('hide_empty=false');
    expect(all.names).toEqual(['art', 'Books', 'comedy', 'Dance', 'Music']);
    expect(all.json.rest_url).toBe(`${CATS_URL}/?page=1&per_page=10&hide_empty=0`);
    expect((await list('hide_empty=0')).json.total).toBe(5);
    expect((await list('hide_empty=yes')).json.total).toBe(3);
  });

  it('orders by id, name, slug or count, ascending or descending, ties broken by id', async () => {
    await seed();
    const expectations: Array<[string, string[]]> = [
      ['orderby=id', ['Music', 'art', 'Dance', 'Books', 'comedy']],
      ['orderby=id&order=desc', ['comedy', 'Books', 'Dance', 'art', 'Music']],
      ['order=desc', ['Music', 'Dance', 'comedy', 'Books', 'art']],
      ['orderby=slug&order=desc', ['Music', 'Dance', 'comedy', 'Books', 'art']],
      ['orderby=count', ['Books', 'comedy', 'art', 'Dance', 'Music']],
      ['orderby=count&order=desc', ['Music', 'Dance', 'art', 'comedy', 'Books']],
    ];
    for (const [query, names] of expectations) expect([query, (await list(`hide_empty=false&${query}`)).names]).toEqual([query, names]);
    const echoed = await list('hide_empty=false&orderby=count&order=desc');
    expect(echoed.json.rest_url).toBe(`${CATS_URL}/?page=1&per_page=10&order=desc&orderby=count&hide_empty=0`);
  });

  it('pages with links that keep per_page and the filters, and 404s past the end', async () => {
    await seed();
    const link = (query: string) => `${CATS_URL}/?${query}`;
    const second = await list('hide_empty=false&per_page=2&page=2');
    expect(second.json).toMatchObject({
      rest_url: link('page=2&per_page=2&hide_empty=0'), total: 5, total_pages: 3,
      next_rest_url: link('page=3&per_page=2&hide_empty=0'), previous_rest_url: link('per_page=2&hide_empty=0'),
    });
    expect(second.names).toEqual(['comedy', 'Dance']);
    expect(Object.keys(second.json)).toEqual(['rest_url', 'total', 'total_pages', 'categories', 'next_rest_url', 'previous_rest_url']);
    expect([second.headers['x-tec-total'], second.headers['x-tec-totalpages']]).toEqual(['5', '3']);
    const last = await list('hide_empty=false&per_page=2&page=3');
    expect(last.names).toEqual(['Music']);
    expect(last.json.next_rest_url).toBeUndefined();
    expect(last.json.previous_rest_url).toBe(link('page=2&per_page=2&hide_empty=0'));
    const past = await list('hide_empty=false&per_page=2&page=4');
    expect(past.statusCode).toBe(404);
    expect(past.json).toEqual({ code: 'term-archive-page-not-found', message: 'The requested term archive page does not exist.', data: { status: 404 } });
    const clamped = await list('hide_empty=false&per_page=100');
    expect([clamped.statusCode, clamped.json.rest_url]).toEqual([200, link('page=1&per_page=50&hide_empty=0')]);
  });

  it('searches name or slug case-insensitively; an unknown search or slug is an empty 200', async () => {
    await seed();
    await h.create(CATS, { name: 'Kids', slug: 'family-friendly' });
    expect((await list('hide_empty=false&search=MUS')).names).toEqual(['Music']);
    expect((await list('hide_empty=false&search=ook')).names).toEqual(['Books']);
    expect((await list('hide_empty=false&search=family')).names).toEqual(['Kids']);
    const searched = await list('search=a');
    expect(searched.names).toEqual(['art', 'Dance']);
    expect(searched.json.rest_url).toBe(`${CATS_URL}/?page=1&per_page=10&search=a`);
    for (const query of ['search=%25', 'search=zzz', 'slug=mus']) {
      const res = await list(`hide_empty=false&${query}`);
      expect([res.statusCode, res.json.total, res.names]).toEqual([200, 0, []]);
    }
    const bySlug = await list('hide_empty=false&slug=family-friendly');
    expect([bySlug.names, bySlug.json.rest_url]).toEqual([['Kids'], `${CATS_URL}/?page=1&per_page=10&hide_empty=0&slug=family-friendly`]);
  });

  it('takes include and exclude in all three array forms; include wins over exclude', async () => {
    const ids = await seed();
    const [a, b] = [ids.Dance, ids.Books];
    for (const form of [`include[]=${a}&include[]=${b}`, `include=${a}&include=${b}`, `include=${a},${b}`]) {
      const res = await list(`hide_empty=false&${form}`);
      expect([form, res.names]).toEqual([form, ['Books', 'Dance']]);
      expect(res.json.rest_url).toBe(`${CATS_URL}/?page=1&per_page=10&include=${a}%2C${b}&hide_empty=0`);
    }
    for (const form of [`exclude[]=${a}&exclude[]=${b}`, `exclude=${a}&exclude=${b}`, `exclude=${a},${b}`]) {
      expect([form, (await list(`hide_empty=false&${form}`)).names]).toEqual([form, ['art', 'comedy', 'Music']]);
    }
    expect((await list(`hide_empty=false&include=${a}&exclude=${a}`)).names).toEqual(['Dance']);
    expect((await list(`include=${a},${b}`)).names).toEqual(['Dance']);
  });

  it('returns 400 naming include or exclude when an id is not a category of this taxonomy', async () => {
    const ids = await seed();
    const tagged = await h.create(TAGS, { name: 'A tag' });
    const res = await list(`include=${ids.Music},999&exclude=${tagged.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json).toEqual(invalidBody({ include: 'Unknown category id(s): 999.', exclude: `Unknown category id(s): ${tagged.id}.` }));
  });

  it('filters by parent (0 for the top level); an unknown parent is 400', async () => {
    const arts = await h.create(CATS, { name: 'Arts' });
    const dance = await h.create(CATS, { name: 'Dance', parent: arts.id });
    await h.create(CATS, { name: 'Ballet', parent: dance.id });
    await h.create(CATS, { name: 'Opera', parent: arts.id });
    expect((await list('hide_empty=false&parent=0')).names).toEqual(['Arts']);
    const children = await list(`hide_empty=false&parent=${arts.id}`);
    expect(children.names).toEqual(['Dance', 'Opera']);
    expect(children.json.categories[0]).toEqual(category({ id: dance.id, name: 'Dance', slug: 'dance', parent: arts.id }));
    expect(children.json.rest_url).toBe(`${CATS_URL}/?page=1&per_page=10&hide_empty=0&parent=${arts.id}`);
    const unknown = await list('parent=999');
    expect([unknown.statusCode, unknown.json]).toEqual([400, invalidBody({ parent: 'Unknown category id: 999.' })]);
  });

  it('lists the terms of an event (post, or event which wins); an unknown event is 400', async () => {
    const ids = await seed();
    const first = await h.event([ids.Books, ids.Music], 'draft');
    const second = await h.event([ids.comedy]);
    expect((await list(`hide_empty=false&post=${first}`)).names).toEqual(['Books', 'Music']);
    const both = await list(`hide_empty=false&post=${first}&event=${second}`);
    expect(both.names).toEqual(['comedy']);
    expect(both.json.rest_url).toBe(`${CATS_URL}/?page=1&per_page=10&hide_empty=0&post=${first}&event=${second}`);
    // Books is used only by drafts: hidden while hide_empty is on.
    expect((await list(`event=${first}`)).names).toEqual(['Music']);
    const unknown = await list('post=88888&event=99999');
    expect([unknown.statusCode, unknown.json]).toEqual([
      400, invalidBody({ post: 'Unknown event id: 88888.', event: 'Unknown event id: 99999.' }),
    ]);
  });

  const badInputs: Array<[string, string]> = [
    ['page', '0'], ['page', 'foo'], ['per_page', '0'], ['per_page', '-1'], ['search', ''], ['exclude', 'foo'],
    ['include', '0'], ['include', '1,x'], ['order', 'up'], ['order', 'ASC'], ['orderby', 'color'], ['hide_empty', 'maybe'],
    ['parent', '-1'], ['parent', 'foo'], ['post', 'foo'], ['event', '1.5'], ['slug', ''],
  ];
  for (const [name, value] of badInputs) {
    it(`returns 400 rest_invalid_param naming ${name} for ${JSON.stringify(value)}`, async () => {
      const res = await list(`${name}=${encodeURIComponent(value)}`);
      expect([res.statusCode, res.json]).toEqual([400, invalid(name)]);
    });
  }

  it('names every bad parameter at once', async () => {
    const res = await list('page=0&order=up&slug=&hide_empty=maybe');
    expect([res.statusCode, res.json]).toEqual([400, invalid('page', 'order', 'hide_empty', 'slug')]);
  });
});

describeEachDialect('/tags', (t) => {
  const h = helpers(t);

  it('creates a tag without parent (an unknown field) and with a Location header', async () => {
    const res = await h.write('POST', TAGS, { name: 'family', parent: 999 });
    expect(res.statusCode).toBe(201);
    expect(res.json).toEqual(tag({ id: res.json.id, name: 'family', slug: 'family' }));
    expect(Object.keys(res.json)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls']);
    expect(res.headers.location).toBe(`${TAGS_URL}/${res.json.id}`);
  });

  it('returns 400 rest_invalid_param naming a bad name, slug or description on create and update', async () => {
    const created = await h.write('POST', TAGS, { name: ' ', description: '', slug: '' });
    expect([created.statusCode, created.json]).toEqual([400, invalid('name', 'description', 'slug')]);
    expect((await h.write('POST', TAGS, { name: 'ok', slug: ['a'] })).json).toEqual(invalid('slug'));
    expect((await h.get(`${TAGS}?hide_empty=false`)).json.total).toBe(0);
    const live = await h.create(TAGS, { name: 'live' });
    const updated = await h.write('PATCH', `${TAGS}/${live.id}`, { name: '', slug: '', description: { a: 1 } });
    expect([updated.statusCode, updated.json]).toEqual([400, invalid('name', 'description', 'slug')]);
    expect((await h.get(`${TAGS}/${live.id}`)).json).toMatchObject({ name: 'live', slug: 'live', description: '' });
  });

  it('returns 400 term_exists in the taxonomy, while a category may share the name', async () => {
    const jazz = await h.create(TAGS, { name: 'jazz' });
    const res = await h.write('POST', TAGS, { name: 'Jazz' });
    expect(res.json).toEqual({
      code: 'term_exists', message: 'A term with the name provided already exists in this taxonomy.',
      data: { status: 400, term_id: jazz.id }, additional_data: [jazz.id],
    });
    const category = await h.create(CATS, { name: 'Jazz' });
    expect(category.slug).toBe('jazz');
  });

  it('reads, updates (form-encoded too) and deletes a tag', async () => {
    const live = await h.create(TAGS, { name: 'live', description: 'On stage' });
    await h.event([live.id]);
    const url = `${TAGS}/${live.id}`;
    expect((await h.get(url)).json).toEqual(tag({ id: live.id, name: 'live', slug: 'live', description: 'On stage', count: 1 }));
    const editor = await t().user('editor');
    const updated = checkLinks(await t().request({ method: 'PATCH', url, headers: { ...editor.headers, ...FORM }, payload: 'name=Live&parent=4' }), 'PATCH', url, ALL_METHODS);
    expect(updated.json).toEqual(tag({ id: live.id, name: 'Live', slug: 'live', description: 'On stage', count: 1 }));
    const deleted = await h.write('DELETE', url);
    expect([deleted.statusCode, deleted.json]).toEqual([200, updated.json]);
    expect((await h.get(url)).json).toEqual(notFoundBody);
  });

  it('returns 404 for an unknown or category id, 403 below editor', async () => {
    const cat = await h.create(CATS, { name: 'Music' });
    expect((await h.get(`${TAGS}/${cat.id}`)).json).toEqual(notFoundBody);
    expect((await h.write('PATCH', `${TAGS}/999`, { name: 'x' })).json).toEqual(notFoundBody);
    const author = await t().user('author');
    const res = await t().request({ method: 'POST', url: TAGS, headers: author.headers, payload: { name: 'x' } });
    expect([res.statusCode, res.json]).toEqual([403, forbiddenBody(403)]);
  });

  it('lists tags used by published events by default and ignores parent', async () => {
    const jazz = await h.create(TAGS, { name: 'jazz' });
    const live = await h.create(TAGS, { name: 'live' });
    await h.create(TAGS, { name: 'unused' });
    await h.event([jazz.id, live.id]);
    const res = await h.get(`${TAGS}?parent=999`);
    expect(res.statusCode).toBe(200);
    expect(res.json).toEqual({
      rest_url: `${TAGS_URL}/?page=1&per_page=10`, total: 2, total_pages: 1,
      tags: [tag({ id: jazz.id, name: 'jazz', slug: 'jazz', count: 1 }), tag({ id: live.id, name: 'live', slug: 'live', count: 1 })],
    });
    expect(Object.keys(res.json)).toEqual(['rest_url', 'total', 'total_pages', 'tags']);
    const page = await h.get(`${TAGS}?hide_empty=false&per_page=1&page=2&orderby=slug&order=desc`);
    expect(page.json).toEqual({
      rest_url: `${TAGS_URL}/?page=2&per_page=1&order=desc&orderby=slug&hide_empty=0`, total: 3, total_pages: 3,
      tags: [tag({ id: live.id, name: 'live', slug: 'live', count: 1 })],
      next_rest_url: `${TAGS_URL}/?page=3&per_page=1&order=desc&orderby=slug&hide_empty=0`,
      previous_rest_url: `${TAGS_URL}/?per_page=1&order=desc&orderby=slug&hide_empty=0`,
    });
    expect([page.headers['x-tec-total'], page.headers['x-tec-totalpages']]).toEqual(['3', '3']);
  });
});

describeEachDialect('terms embedded in events', (t) => {
  const h = helpers(t);

  it('gives the raw term shape with term_group, term_taxonomy_id and filter', async () => {
    const arts = await h.create(CATS, { name: 'Arts' });
    const dance = await h.create(CATS, { name: 'Dance', parent: arts.id, description: 'Moves' });
    const jazz = await h.create(TAGS, { name: 'jazz' });
    await h.event([dance.id, jazz.id]);
    const { database, config, dialect } = t();
    const terms = createTermRepository(database.db, dialect);
    const urls = createUrls(config);

    const [row] = await terms.findByIds('tribe_events_cat', [dance.id]);
    expect(toEmbeddedTerm(row, row.count, urls, 'tribe_events_cat')).toEqual({
      name: 'Dance', slug: 'dance', term_group: 0, term_taxonomy_id: dance.id, taxonomy: 'tribe_events_cat',
      description: 'Moves', parent: arts.id, count: 1, filter: 'raw', id: dance.id,
      urls: { self: `${CATS_URL}/${dance.id}`, collection: CATS_URL, up: `${CATS_URL}/${arts.id}` },
    });
    const [tagRow] = await terms.findByNamesOrSlugs('post_tag', ['JAZZ']);
    expect(toEmbeddedTerm(tagRow, tagRow.count, urls, 'post_tag')).toEqual({
      name: 'jazz', slug: 'jazz', term_group: 0, term_taxonomy_id: jazz.id, taxonomy: 'post_tag', description: '',
      parent: 0, count: 1, filter: 'raw', id: jazz.id, urls: { self: `${TAGS_URL}/${jazz.id}`, collection: TAGS_URL },
    });
    const found = await terms.findByNamesOrSlugs('tribe_events_cat', ['arts', 'dance', 'jazz', 'nothing']);
    expect(found.map((r) => r.id)).toEqual([arts.id, dance.id]);
  });
});
