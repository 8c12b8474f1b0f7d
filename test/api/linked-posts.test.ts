import { expect, it } from 'vitest';
import { API, API_URL, describeEachDialect } from '../helpers/test-app.ts';

// Venues and organizers share one implementation; these are the rules both must keep.
for (const { plural, name, label } of [
  { plural: 'venues', name: 'venue', label: 'venue' },
  { plural: 'organizers', name: 'organizer', label: 'organizer' },
]) {
  describeEachDialect(`/${plural} (shared linked-post rules)`, (t) => {
    const create = async (fields: Record<string, unknown>, role: 'administrator' | 'editor' | 'author' | 'contributor' = 'administrator') => {
      const user = await t().user(role);
      return t().request({ method: 'POST', url: `${API}/${plural}`, headers: user.headers, payload: fields });
    };

    it(`POST /${plural} creates with 201, a slug from the name, and the caller as author`, async () => {
      const admin = await t().user('administrator');
      const res = await create({ [name]: 'My Place' });
      expect(res.statusCode).toBe(201);
      expect(res.json).toMatchObject({ [name]: 'My Place', slug: 'my-place', status: 'publish', author: String(admin.id) });
      expect(res.json.url).toBe(`http://cal.test/${label}/my-place/`);
      expect(res.json.global_id).toBe(`cal.test?id=${res.json.id}`);
      expect(res.json.global_id_lineage).toEqual([res.json.global_id]);
      expect(res.json.date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(res.json).not.toHaveProperty('json_ld');
    });

    it('returns the existing record with 201 for a duplicate name (any case)', async () => {
      const first = await create({ [name]: 'A place', description: 'A place description' });
      for (const body of [
        { [name]: 'A place', description: 'A place description' },
        { [name]: 'A place' },
        { [name]: 'a place', description: 'a place description' },
      ]) {
        const again = await create(body);
        expect(again.statusCode).toBe(201);
        expect(again.json.id).toBe(first.json.id);
      }
      const other = await create({ [name]: 'A place', description: 'Another description' });
      expect(other.json.id).not.toBe(first.json.id);
      expect(other.json.slug).toBe('a-place-2');
    });

    it('generates unique slugs and takes a sent slug', async () => {
      const a = await create({ [name]: 'Hall', description: 'one' });
      const b = await create({ [name]: 'Hall', description: 'two' });
      const c = await create({ [name]: 'Other', slug: 'Hall' });
      expect([a.json.slug, b.json.slug, c.json.slug]).toEqual(['hall', 'hall-2', 'hall-3']);
    });

    it('answers 400 rest_missing_callback_param without a name and rest_invalid_param for bad fields', async () => {
      const missing = await create({ description: 'x' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json).toEqual({
        code: 'rest_missing_callback_param',
        message: `Missing parameter(s): ${name}`,
        data: { status: 400, params: [name] },
      });
      const bad = await create({ [name]: '', website: 'foo', status: 'kinda_thinking_about_it', date: 'foo', author: 'foo' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json.code).toBe('rest_invalid_param');
      expect(Object.keys(bad.json.data.params).sort()).toEqual(['author', 'date', name, 'status', 'website'].sort());
      const list = await t().request({ url: `${API}/${plural}` });
      expect(list.json.total).toBe(0);
    });

    it('answers 400 for an author id that names no user, and keeps nothing', async () => {
      const res = await create({ [name]: 'X', author: 999 });
      expect(res.statusCode).toBe(400);
      expect(res.json.data.params).toHaveProperty('author');
      expect((await t().request({ url: `${API}/${plural}` })).json.total).toBe(0);
    });

    it('answers 401 to anonymous writes after validation, 403 to subscribers', async () => {
      const anon = await t().request({ method: 'POST', url: `${API}/${plural}`, payload: { [name]: 'X' } });
      expect(anon.statusCode).toBe(401);
      expect(anon.json).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
      const invalidFirst = await t().request({ method: 'POST', url: `${API}/${plural}`, payload: { [name]: '' } });
      expect(invalidFirst.statusCode).toBe(400);
      const subscriber = await t().user('subscriber');
      const sub = await t().request({ method: 'POST', url: `${API}/${plural}`, headers: subscriber.headers, payload: { [name]: 'X' } });
      expect(sub.statusCode).toBe(403);
      expect(sub.json.code).toBe('rest_forbidden');
    });

    it('answers 401 to a wrong password, even on reads', async () => {
      const admin = await t().user('administrator');
      const wrong = `Basic ${Buffer.from(`${admin.login}:wrongwrongwrongwrongwrong`).toString('base64')}`;
      const res = await t().request({ url: `${API}/${plural}`, headers: { authorization: wrong } });
      expect(res.statusCode).toBe(401);
      expect(res.json.data.status).toBe(401);
      const garbage = await t().request({ url: `${API}/${plural}`, headers: { authorization: 'Token abc' } });
      expect(garbage.statusCode).toBe(401);
    });

    it('accepts Bearer application passwords', async () => {
      const admin = await t().user('administrator');
      const [, token] = Buffer.from(admin.headers.authorization.slice(6), 'base64').toString().split(':');
      const res = await t().request({
        method: 'POST', url: `${API}/${plural}`, headers: { authorization: `Bearer ${token}` }, payload: { [name]: 'B' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json.author).toBe(String(admin.id));
    });

    it('reads by id and by slug with json_ld; unknown ids and slugs are 404, non-numeric ids no route', async () => {
      const created = await create({ [name]: 'Readable' });
      const byId = await t().request({ url: `${API}/${plural}/${created.json.id}` });
      expect(byId.statusCode).toBe(200);
      expect(byId.json.json_ld).toMatchObject({ name: 'Readable' });
      const bySlug = await t().request({ url: `${API}/${plural}/by-slug/readable` });
      expect(bySlug.json.id).toBe(created.json.id);
      const unknown = await t().request({ url: `${API}/${plural}/99999` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json.code).toBe(`${label}-not-found`);
      expect((await t().request({ url: `${API}/${plural}/by-slug/nope` })).json.code).toBe(`${label}-not-found`);
      const noRoute = await t().request({ url: `${API}/${plural}/abc` });
      expect(noRoute.statusCode).toBe(404);
      expect(noRoute.json.code).toBe('rest_no_route');
    });

    it('hides drafts from anonymous readers (403) and lists', async () => {
      const draft = await create({ [name]: 'Secret', status: 'draft' });
      const res = await t().request({ url: `${API}/${plural}/${draft.json.id}` });
      expect(res.statusCode).toBe(403);
      expect(res.json.code).toBe(`${label}-not-accessible`);
      expect((await t().request({ url: `${API}/${plural}` })).json.total).toBe(0);
      const admin = await t().user('administrator');
      const listed = await t().request({ url: `${API}/${plural}`, headers: admin.headers });
      expect(listed.json.total).toBe(1);
      expect(listed.json.rest_url).toBe(`${API_URL}/${plural}/?page=1&per_page=10&status=any`);
    });

    it('updates only the sent fields, with POST, PUT and PATCH, by id and by slug', async () => {
      const created = await create({ [name]: 'Before', description: 'Kept', phone: '123' });
      const admin = await t().user('administrator');
      for (const method of ['POST', 'PUT', 'PATCH'] as const) {
        const res = await t().request({ method, url: `${API}/${plural}/${created.json.id}`, headers: admin.headers, payload: { phone: method } });
        expect(res.statusCode).toBe(200);
        expect(res.json).toMatchObject({ [name]: 'Before', description: '<p>Kept</p>', phone: method, status: 'publish' });
      }
      const bySlug = await t().request({ method: 'PATCH', url: `${API}/${plural}/by-slug/before`, headers: admin.headers, payload: { [name]: 'After' } });
      expect(bySlug.json).toMatchObject({ [name]: 'After', slug: 'before', phone: 'PATCH' });
      const cleared = await t().request({ method: 'POST', url: `${API}/${plural}/${created.json.id}`, headers: admin.headers, payload: { phone: '', description: '' } });
      expect(cleared.json).toMatchObject({ phone: '', description: '' });
    });

    it('accepts its own GET body back as an update and changes nothing', async () => {
      const created = await create({ [name]: 'Round', description: 'Trip', image: 'https://img.test/a.png' });
      const admin = await t().user('administrator');
      const before = await t().request({ url: `${API}/${plural}/${created.json.id}` });
      const res = await t().request({ method: 'PUT', url: `${API}/${plural}/${created.json.id}`, headers: admin.headers, payload: before.json });
      expect(res.statusCode).toBe(200);
      const after = await t().request({ url: `${API}/${plural}/${created.json.id}` });
      expect(after.json).toEqual(before.json);
    });

    it('stores image URLs as image records, reuses them, and rejects non-images', async () => {
      const a = await create({ [name]: 'Img A', image: 'https://img.test/pic.JPG' });
      expect(a.json.image).toEqual({ url: 'https://img.test/pic.JPG', id: expect.any(Number), extension: 'jpg', sizes: {} });
      const b = await create({ [name]: 'Img B', image: a.json.image.id });
      expect(b.json.image).toEqual(a.json.image);
      const c = await create({ [name]: 'Img C', image: 'https://img.test/pic.JPG' });
      expect(c.json.image.id).toBe(a.json.image.id);
      for (const image of ['foo bar', a.json.id, 999999, 'ftp://x.test/a.png']) {
        const bad = await create({ [name]: `Bad ${image}`, image });
        expect(bad.statusCode).toBe(400);
        expect(bad.json.data.params).toHaveProperty('image');
      }
      const admin = await t().user('administrator');
      const removed = await t().request({ method: 'PATCH', url: `${API}/${plural}/${a.json.id}`, headers: admin.headers, payload: { image: false } });
      expect(removed.json.image).toBe(false);
    });

    it('lets contributors edit only their own drafts; status is scaled back', async () => {
      const contributor = await t().user('contributor');
      const own = await create({ [name]: 'Mine', status: 'publish' }, 'contributor');
      expect(own.statusCode).toBe(201);
      expect(own.json.status).toBe('pending');
      expect(own.json.author).toBe(String(contributor.id));
      const edit = await t().request({ method: 'POST', url: `${API}/${plural}/${own.json.id}`, headers: contributor.headers, payload: { phone: '1' } });
      expect(edit.statusCode).toBe(200);
      const adminOwned = await create({ [name]: 'Theirs' });
      const denied = await t().request({ method: 'POST', url: `${API}/${plural}/${adminOwned.json.id}`, headers: contributor.headers, payload: { phone: '1' } });
      expect(denied.statusCode).toBe(403);
      const draft = await create({ [name]: 'Draft by default' }, 'contributor');
      expect(draft.json.status).toBe('draft');
      const author = await t().user('author');
      const asAuthor = await create({ [name]: 'Published', author: author.id }, 'author');
      expect(asAuthor.json.status).toBe('publish');
      const steal = await t().request({ method: 'POST', url: `${API}/${plural}`, headers: author.headers, payload: { [name]: 'Z', author: contributor.id } });
      expect(steal.statusCode).toBe(403);
    });

    it('a contributor deleting their own trashed record gets 410, as WordPress answers', async () => {
      const contributor = await t().user('contributor');
      const own = await create({ [name]: 'Mine' }, 'contributor');
      const url = `${API}/${plural}/${own.json.id}`;
      expect((await t().request({ method: 'DELETE', url, headers: contributor.headers })).json.status).toBe('trash');
      const again = await t().request({ method: 'DELETE', url, headers: contributor.headers });
      expect([again.statusCode, again.json.code]).toEqual([410, `${label}-is-in-trash`]);
      const theirs = await create({ [name]: 'Theirs' });
      const admin = await t().user('administrator');
      const theirsUrl = `${API}/${plural}/${theirs.json.id}`;
      expect((await t().request({ method: 'DELETE', url: theirsUrl, headers: admin.headers })).statusCode).toBe(200);
      expect((await t().request({ method: 'DELETE', url: theirsUrl, headers: contributor.headers })).statusCode).toBe(403);
    });

    it('DELETE trashes (200), then 410; force=true deletes for editors', async () => {
      const created = await create({ [name]: 'Doomed' });
      const admin = await t().user('administrator');
      const url = `${API}/${plural}/${created.json.id}`;
      const trashed = await t().request({ method: 'DELETE', url, headers: admin.headers });
      expect(trashed.statusCode).toBe(200);
      expect(trashed.json.status).toBe('trash');
      const again = await t().request({ method: 'DELETE', url, headers: admin.headers });
      expect(again.statusCode).toBe(410);
      expect(again.json.code).toBe(`${label}-is-in-trash`);
      const author = await t().user('author');
      const own = await create({ [name]: 'Author owned' }, 'author');
      const noForce = await t().request({ method: 'DELETE', url: `${API}/${plural}/${own.json.id}?force=true`, headers: author.headers });
      expect(noForce.statusCode).toBe(403);
      const forced = await t().request({ method: 'DELETE', url: `${url}?force=true`, headers: admin.headers });
      expect(forced.statusCode).toBe(200);
      expect(forced.json.id).toBe(created.json.id);
      expect((await t().request({ url, headers: admin.headers })).statusCode).toBe(404);
      const unknown = await t().request({ method: 'DELETE', url: `${API}/${plural}/424242`, headers: admin.headers });
      expect(unknown.statusCode).toBe(404);
      const badForce = await t().request({ method: 'DELETE', url: `${url}?force=maybe`, headers: admin.headers });
      expect(badForce.statusCode).toBe(400);
    });

    it('orders checks: 400 before 401, 401 before 404, 404 before 403', async () => {
      const anonDeleteUnknown = await t().request({ method: 'DELETE', url: `${API}/${plural}/424242` });
      expect(anonDeleteUnknown.statusCode).toBe(401);
      const subscriber = await t().user('subscriber');
      const subUnknown = await t().request({ method: 'DELETE', url: `${API}/${plural}/424242`, headers: subscriber.headers });
      expect(subUnknown.statusCode).toBe(404);
      const badBeforeAuth = await t().request({ method: 'PATCH', url: `${API}/${plural}/424242`, payload: { website: 'nope' } });
      expect(badBeforeAuth.statusCode).toBe(400);
    });

    it('lists newest first with paging links, headers, per_page cap and 404 past the end', async () => {
      for (let i = 1; i <= 7; i++) await create({ [name]: `Item ${i}`, date_utc: `2026-01-0${i} 10:00:00` });
      const first = await t().request({ url: `${API}/${plural}?per_page=5` });
      expect(first.statusCode).toBe(200);
      expect(first.headers['x-tec-total']).toBe('7');
      expect(first.headers['x-tec-totalpages']).toBe('2');
      expect(first.json[plural].map((r: Record<string, string>) => r[name])).toEqual(['Item 7', 'Item 6', 'Item 5', 'Item 4', 'Item 3']);
      expect(Object.keys(first.json).sort()).toEqual([plural, 'next_rest_url', 'rest_url', 'total', 'total_pages'].sort());
      expect(first.json.next_rest_url).toBe(`${API_URL}/${plural}/?page=2&per_page=5&status=publish`);
      const second = await t().request({ url: first.json.next_rest_url.replace('http://cal.test', '') });
      expect(second.json[plural]).toHaveLength(2);
      expect(second.json.previous_rest_url).toBe(`${API_URL}/${plural}/?per_page=5&status=publish`);
      expect(second.json).not.toHaveProperty('next_rest_url');
      const past = await t().request({ url: `${API}/${plural}?per_page=5&page=3` });
      expect(past.statusCode).toBe(404);
      expect(past.json.code).toBe(`${label}-archive-page-not-found`);
      const capped = await t().request({ url: `${API}/${plural}?per_page=100` });
      expect(capped.json.rest_url).toContain('per_page=50');
      for (const query of ['page=0', 'page=-1', 'page=foo', 'per_page=0', 'per_page=foo%20bar', 'search=', 'status=foo', 'status=publish,bar']) {
        const bad = await t().request({ url: `${API}/${plural}?${query}` });
        expect(bad.statusCode, query).toBe(400);
        expect(bad.json.code).toBe('rest_invalid_param');
      }
    });

    it('lists an empty page 1 as 200 with zero totals and no links', async () => {
      const res = await t().request({ url: `${API}/${plural}` });
      expect(res.statusCode).toBe(200);
      expect(res.json).toEqual({ [plural]: [], rest_url: `${API_URL}/${plural}/?page=1&per_page=10&status=publish`, total: 0, total_pages: 0 });
      expect(res.headers['x-tec-total']).toBe('0');
      expect(res.headers['x-tec-totalpages']).toBe('0');
    });

    it('filters by status with the read rules', async () => {
      await create({ [name]: 'Pub' });
      await create({ [name]: 'Drafty', status: 'draft' });
      const anon = await t().request({ url: `${API}/${plural}?status=publish,draft` });
      expect(anon.statusCode).toBe(400);
      expect((await t().request({ url: `${API}/${plural}?status=publish` })).json.total).toBe(1);
      const admin = await t().user('administrator');
      const drafts = await t().request({ url: `${API}/${plural}?status[]=draft`, headers: admin.headers });
      expect(drafts.json[plural].map((r: Record<string, string>) => r[name])).toEqual(['Drafty']);
      const both = await t().request({ url: `${API}/${plural}?status=publish,%20draft`, headers: admin.headers });
      expect(both.json.total).toBe(2);
      // `any` is what editors' list links echo: accepted back from them, 400 for anonymous callers.
      expect((await t().request({ url: `${API}/${plural}?status=any`, headers: admin.headers })).json.total).toBe(2);
      const anonAny = await t().request({ url: `${API}/${plural}?status=any` });
      expect(anonAny.statusCode).toBe(400);
      expect(anonAny.json.data.params).toHaveProperty('status');
    });

    it('accepts form-encoded bodies and query parameters on writes', async () => {
      const admin = await t().user('administrator');
      const res = await t().request({
        method: 'POST',
        url: `${API}/${plural}?description=from%20query&${name}=Query%20name`,
        headers: { ...admin.headers, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `${name}=Form+name&phone=555`,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json).toMatchObject({ [name]: 'Form name', phone: '555', description: '<p>from query</p>' });
    });

    it('sanitizes description HTML', async () => {
      const res = await create({ [name]: 'Html', description: '<b onclick="x()">Bold</b><script>alert(1)</script><a href="javascript:alert(1)">l</a>' });
      expect(res.json.description).toBe('<p><b>Bold</b><a>l</a></p>');
    });
  });
}
