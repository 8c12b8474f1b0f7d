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
  data: { status: 400, params, details: {} },
});
const invalid = (...names: string[]) => invalidBody(Object.fromEntries(names.map((n) => [n, 'Invalid parameter.'])));

let eventSeq = 0;
/** An event row written straight to the tables (the events resource is not needed for term counts). */
async function makeEvent(db: Db, termIds: number[], status = 'publish'): Promise<number> {
  const { id } = await db.insertInto('post').values({ type: 'event' }).returning('id').executeTakeFirstOrThrow();
  const stamp = '2030-01-01 10:00:00';
  eventSeq += 1;
  await db.insertInto('event').values({
    id, author_id: 1, status, slug: `event-${eventSeq}`, title: `Event ${eventSeq}`, description: '', excerpt: '',
    image_id: null, date_local: stamp, date_utc: stamp, modified_local: stamp, modified_utc: stamp,
    password: '', parent_id: 0, timezone: 'UTC', timezone_abbr: 'UTC', all_day: 0,
    start_local: stamp, end_local: stamp, start_utc: stamp, end_utc: stamp, cost: '[]', website: null,
    show_map: 0, show_map_link: 0, hide_from_listings: 0, sticky: 0, featured: 0, venue_id: null,
  }).execute();
  if (termIds.length > 0) await db.insertInto('event_term').values(termIds.map((term_id) => ({ event_id: id, term_id }))).execute();
  return id;
}

/** Helpers bound to one test's context. */
function helpers(t: () => TestContext) {
  const write = async (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
    const editor = await t().user('editor');
    return t().request({ method, url, headers: editor.headers, ...(payload ? { payload } : {}) });
  };
  const create = async (base: string, payload: Record<string, unknown>) => {
    const res = await write('POST', base, payload);
    expect(res.statusCode).toBe(201);
    return res.json as { id: number; slug: string; name: string };
  };
  return {
    write,
    create,
    get: (url: string) => t().request({ method: 'GET', url }),
    event: (termIds: number[], status?: string) => makeEvent(t().database.db, termIds, status),
  };
}

describeEachDialect('POST /categories', (t) => {
  const h = helpers(t);

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
      data: { status: 400, term_id: music.id },
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

  it('returns 400 rest_term_invalid for an unknown parent and rest_invalid_param for a non-integer one', async () => {
    const tagged = await h.create(TAGS, { name: 'A tag' });
    for (const parent of [2389, tagged.id]) {
      const res = await h.write('POST', CATS, { name: 'Orphan', parent });
      expect(res.statusCode).toBe(400);
      expect(res.json).toEqual({ code: 'rest_term_invalid', message: 'Parent term does not exist.', data: { status: 400 } });
    }
    for (const parent of ['foo', '', -1, 1.5]) {
      const res = await h.write('POST', CATS, { name: 'Orphan', parent });
      expect(res.statusCode).toBe(400);
      expect(res.json).toEqual(invalid('parent'));
    }
  });

  it('accepts a form-encoded body', async () => {
    const parent = await h.create(CATS, { name: 'Arts' });
    const editor = await t().user('editor');
    const res = await t().request({
      method: 'POST', url: CATS, headers: { ...editor.headers, ...FORM },
      payload: `name=Jazz+Night&description=Late+%26+loud&parent=${parent.id}`,
    });
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
    expect(unknown.json).toEqual({ code: 'rest_term_invalid', message: 'Parent term does not exist.', data: { status: 400 } });
    const bad = await h.write('PATCH', `${CATS}/${arts.id}`, { parent: 'foo', name: '', slug: '' });
    expect(bad.json).toEqual(invalid('name', 'slug', 'parent'));
    expect((await h.get(`${CATS}/${arts.id}`)).json).toEqual(category({ id: arts.id, name: 'Arts', slug: 'arts' }));
  });

  it('accepts a form-encoded body', async () => {
    const music = await h.create(CATS, { name: 'Music' });
    const editor = await t().user('editor');
    const res = await t().request({
      method: 'PUT', url: `${CATS}/${music.id}`, headers: { ...editor.headers, ...FORM }, payload: 'description=Loud',
    });
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
      [(await t().user('editor')).headers, url, { parent: 999 }, 400, { code: 'rest_term_invalid', message: 'Parent term does not exist.', data: { status: 400 } }],
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
