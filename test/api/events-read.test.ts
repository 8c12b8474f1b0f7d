import { expect, it } from 'vitest';
import type { Role } from '../../src/users/roles.ts';
import { API, PUBLIC_URL, describeEachDialect, type TestContext } from '../helpers/test-app.ts';

const EVENTS = `${API}/events`;
const GIG = { title: 'Gig', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' };
const NOT_ACCESSIBLE = { code: 'event-not-accessible', message: 'The requested event is not accessible', data: { status: 403 } };
const PROTECTED = { code: 'event-password-protected', message: 'The requested event is not accessible without a password', data: { status: 403 } };
const NO_LONGER = { code: 'event-no-longer-available', message: 'This event is no longer available', data: { status: 403 } };
const NO_ROUTE = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };
const FORBIDDEN = { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } };
const invalid = (name: string) => ({
  code: 'rest_invalid_param', message: `Invalid parameter(s): ${name}`, data: { status: 400, params: { [name]: expect.any(String) }, details: expect.anything() },
});
const notFound = (id: number) => ({ code: 'rest-event-not-found', message: `Event with ID ${id} does not exist.`, data: { status: 404 } });

/** JSON text as the service writes it: every character beyond ASCII as \\uXXXX (lower-case hex, one per UTF-16 unit). */
const asciiJson = (json: string) => json.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Requests bound to one test's context; `ref` is an id or a slug. */
function helpers(t: () => TestContext) {
  const path = (ref: number | string) => (typeof ref === 'number' ? `${EVENTS}/${ref}` : `${EVENTS}/by-slug/${ref}`);
  const as = async (role?: Role) => (role ? (await t().user(role)).headers : {});
  const h = {
    create: async (payload: Record<string, unknown>, role?: Role) => t().request({ method: 'POST', url: EVENTS, headers: await as(role), payload }),
    make: async (payload: Record<string, unknown> = {}, role: Role = 'administrator') => {
      const res = await h.create({ ...GIG, ...payload }, role);
      expect(res.statusCode, JSON.stringify(res.json)).toBe(201);
      return res.json;
    },
    get: async (ref: number | string, role?: Role, query = '') => t().request({ url: `${path(ref)}${query}`, headers: await as(role) }),
    update: async (ref: number | string, payload: Record<string, unknown>, role?: Role, method: 'POST' | 'PATCH' = 'POST') =>
      t().request({ method, url: path(ref), headers: await as(role), payload }),
    remove: async (ref: number | string, role?: Role, query = '') =>
      t().request({ method: 'DELETE', url: `${path(ref)}${query}`, headers: await as(role) }),
  };
  return h;
}

describeEachDialect('GET /events/{id} and /events/by-slug/{slug}', (t) => {
  const h = helpers(t);

  it('returns the record with json_ld by id and by slug, the same as the write answered plus json_ld', async () => {
    const created = await h.make({ title: 'Jazz Night' });
    for (const ref of [created.id, 'jazz-night']) {
      const res = await h.get(ref);
      expect(res.statusCode).toBe(200);
      const { json_ld: jsonLd, ...rest } = res.json;
      expect(rest).toEqual(created);
      expect(jsonLd).toMatchObject({ '@type': 'Event', name: 'Jazz Night' });
      expect(Object.keys(res.json).at(-1)).toBe('json_ld');
    }
  });

  it('answers a write with the bytes a read then sends, but for the JSON-LD only single reads carry', async () => {
    const admin = (await t().user('administrator')).headers;
    const created = await h.create({ ...GIG, title: 'Byte – Night', venue: { venue: 'Blue Room' }, organizer: [{ organizer: 'Jazz Club' }], categories: ['Music'], cost: '5' }, 'administrator');
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['content-type']).toBe('application/json; charset=utf-8');
    // As the reference: a single read adds json_ld to the event, its venue and its organizers; a write's answer has none.
    const withoutJsonLd = async () => JSON.stringify((await h.get(created.json.id)).json, function (key, value) {
      return key === 'json_ld' && (this.id !== undefined) ? undefined : value;
    });
    const { venue: _v, organizer: _o, ...head } = created.json;
    // Re-serialized here, so written again as the service writes it: ASCII, as the reference's json_encode.
    const read = asciiJson(await withoutJsonLd());
    // The same keys in the same order, then the same bytes.
    expect(Object.keys(JSON.parse(read))).toEqual(Object.keys(created.json));
    expect(Object.keys(head).length).toBeGreaterThan(30);
    expect(created.body).toBe(read);
    const updated = await t().request({ method: 'PATCH', url: `${EVENTS}/${created.json.id}`, headers: admin, payload: { excerpt: 'Short' } });
    expect([updated.statusCode, updated.body]).toEqual([200, asciiJson(await withoutJsonLd())]);
  });

  it('writes every character beyond ASCII as \\uXXXX, as the reference (PHP json_encode) does, and If-Match still matches', async () => {
    const admin = (await t().user('administrator')).headers;
    const title = 'Café – Nuit 🎷';
    const created = await h.create({ ...GIG, title, description: 'Grüße aus Zürich', venue: { venue: 'Salle Étoile' }, organizer: [{ organizer: 'Ørsted Club' }], categories: ['Musique ✓'], tags: ['Überall'] }, 'administrator');
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json;
    const reads = [created, await h.get(id), await t().request({ url: `${EVENTS}?per_page=50` }), await t().request({ url: `${EVENTS}/${id}?password=` }),
      await t().request({ url: `${API}/venues/${created.json.venue.id}` }), await t().request({ url: `${API}/categories/${created.json.categories[0].id}` })];
    for (const res of reads) {
      expect(res.statusCode, res.body).toBe(200 + (res === created ? 1 : 0));
      expect(res.body, res.body).toMatch(/^[\x00-\x7f]*$/);
    }
    expect(reads[1].body).toContain('"title":"Caf\\u00e9 \\u2013 Nuit \\ud83c\\udfb7"');
    expect(reads[1].json).toMatchObject({ title, venue: { venue: 'Salle Étoile' }, organizer: [{ organizer: 'Ørsted Club' }], categories: [{ name: 'Musique ✓' }], tags: [{ name: 'Überall' }] });
    expect(reads[1].json.description).toContain('Grüße aus Zürich');
    expect(reads[2].json.events.find((e: { id: number }) => e.id === id).title).toBe(title);
    // The tag a read sends is the one a write checks against: If-Match with it updates, a stale one is refused.
    const etag = reads[1].headers.etag as string;
    const matched = await t().request({ method: 'PATCH', url: `${EVENTS}/${id}`, headers: { ...admin, 'if-match': etag }, payload: { excerpt: 'Àpropos' } });
    expect(matched.statusCode, matched.body).toBe(200);
    const stale = await t().request({ method: 'PATCH', url: `${EVENTS}/${id}`, headers: { ...admin, 'if-match': etag }, payload: { excerpt: 'Encore' } });
    expect([stale.statusCode, stale.json.code]).toEqual([412, 'rest_precondition_failed']);
  });

  it('reads put a record together from kept parts to the same bytes as a write builds it, in both forms', async () => {
    const created = await h.make({
      title: 'Jazz Night', description: 'Long <em>text</em>', excerpt: 'Short', image: 'https://img.test/jazz.png', cost: '15 - 25',
      venue: { venue: 'Blue Room', city: 'Berlin' }, organizer: [{ organizer: 'Jazz Club' }, { organizer: 'Alpha Agency', email: 'a@example.test' }],
      categories: ['Music', 'Art'], tags: ['jazz', 'Live'],
    });
    // Two events share the venue and an organizer: the second one's text reuses what the first one's kept.
    const other = await h.make({ title: 'Blues Night', venue: created.venue.id, organizer: [created.organizer[1].id], categories: ['Music'] });
    const admin = (await t().user('administrator')).headers;
    // The change feed builds its records as objects, as they are now (the write's answer has older term counts).
    const changes = (await t().request({ url: `${API}/changes?after=0&limit=100`, headers: admin })).json.changes as Array<{ kind: string; id: number; record: unknown }>;
    for (const event of [created, other]) {
      // The list form: the change feed's record (built as an object) and a list's record (put together as text).
      const built = changes.filter((change) => change.kind === 'event' && change.id === event.id).at(-1)?.record;
      const listed = await t().request({ url: `${EVENTS}?include=${event.id}` });
      expect(built).toMatchObject({ id: event.id });
      expect(listed.json.events).toEqual([built]);
      // The single form: a stale If-Match is answered with the record as the write's transaction builds it, and
      // the tag of its JSON; a read's tag is a digest of the text it sent. Equal tags: equal bytes.
      const read = await h.get(event.id);
      const refused = await t().request({ method: 'POST', url: `${EVENTS}/${event.id}`, headers: { ...admin, 'if-match': '"stale"' }, payload: { title: 'X' } });
      expect(refused.statusCode).toBe(412);
      expect(refused.json.data.current).toEqual(read.json);
      expect(refused.json.data.etag).toBe(read.headers.etag);
    }
    expect(created.organizer.map((o: { organizer: string }) => o.organizer)).toEqual(['Jazz Club', 'Alpha Agency']);
    expect(created.categories.map((c: { name: string }) => c.name)).toEqual(['Art', 'Music']);
  });

  it('gives schema.org Event data with ISO 8601 offsets, the venue as location and the organizers', async () => {
    const created = await h.make({
      title: 'Jazz Night', excerpt: 'Jazz <b>tonight</b>', description: 'Long text', start_date: '2027-03-05 19:00:00',
      end_date: '2027-07-05 22:30:00', timezone: 'Europe/Berlin', cost: '15',
      venue: { venue: 'Blue Room', address: 'Hauptstr. 1', city: 'Berlin', zip: '10115', country: 'Germany', phone: '+49 30 1234' },
      organizer: [{ organizer: 'Jazz Club', email: 'club@example.test', website: 'https://example.test/club' }],
    });
    const res = await h.get(created.id);
    const url = `${PUBLIC_URL}/event/jazz-night/`;
    const place = {
      '@type': 'Place', name: 'Blue Room', description: '', url: '',
      address: {
        '@type': 'PostalAddress', streetAddress: 'Hauptstr. 1', addressLocality: 'Berlin', addressRegion: '', postalCode: '10115', addressCountry: 'Germany',
      },
      telephone: '+49 30 1234', sameAs: '',
    };
    const person = {
      '@type': 'Person', name: 'Jazz Club', description: '', url: 'https://example.test/club', telephone: '', email: 'club@example.test',
      sameAs: 'https://example.test/club',
    };
    expect(res.json.json_ld).toEqual({
      '@context': 'http://schema.org', '@type': 'Event', name: 'Jazz Night', description: 'Jazz tonight', url,
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode', eventStatus: 'https://schema.org/EventScheduled',
      startDate: '2027-03-05T19:00:00+01:00', endDate: '2027-07-05T22:30:00+02:00',
      location: place, organizer: person,
      offers: {
        '@type': 'Offer', price: '15', priceCurrency: 'USD', url, category: 'primary', availability: 'inStock',
        // The reference's: midnight of the post's day, written as UTC.
        validFrom: `${res.json.date.slice(0, 10)}T00:00:00+00:00`,
      },
      performer: 'Organization',
    });
    const dated = await h.make({ title: 'Dated', start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 20:00:00', cost: '5', date: '2026-05-04 23:30:00' });
    expect((await h.get(dated.id)).json.json_ld.offers).toMatchObject({ price: '5', validFrom: '2026-05-04T00:00:00+00:00' });
    expect(res.json.venue.json_ld).toEqual(place);
    expect(res.json.organizer[0].json_ld).toEqual(person);
  });

  it('lists several organizers in json_ld, leaves out what is missing, and writes UTC as +00:00', async () => {
    const created = await h.make({ organizer: [{ organizer: 'A' }, { organizer: 'B' }], start_date: '2027-04-01 08:00:00' });
    const { json_ld: jsonLd } = (await h.get(created.id)).json;
    expect(jsonLd.organizer.map((o: { name: string }) => o.name)).toEqual(['A', 'B']);
    expect(jsonLd).not.toHaveProperty('location');
    expect(jsonLd).not.toHaveProperty('offers');
    expect(jsonLd.startDate).toBe('2027-04-01T08:00:00+00:00');
    const kolkata = await h.make({ start_date: '2027-04-01 08:00:00', end_date: '2027-04-01 09:30:00', timezone: 'Asia/Kolkata' });
    expect((await h.get(kolkata.id)).json.json_ld).toMatchObject({ startDate: '2027-04-01T08:00:00+05:30', endDate: '2027-04-01T09:30:00+05:30' });
  });

  it('gives json_ld a plain-text description, without tags or entities', async () => {
    const created = await h.make({ excerpt: '<b>Rock</b> &amp; Roll <3 "live" &#8211; it\'s on' });
    expect(created.excerpt).toBe('<p><b>Rock</b> &amp; Roll &lt;3 "live" \u2013 it\'s on</p>');
    expect((await h.get(created.id)).json.json_ld.description).toBe('Rock & Roll <3 "live" \u2013 it\'s on');
    const fallback = await h.make({ description: 'Only a &lt;description&gt;' });
    expect((await h.get(fallback.id)).json.json_ld.description).toBe('Only a <description>');
  });

  it('answers 404 rest-event-not-found for an unknown id, id 0 and an unknown slug; no route for other paths', async () => {
    for (const id of [999999, 0]) {
      const res = await h.get(id);
      expect(res.statusCode).toBe(404);
      expect(res.json).toEqual(notFound(id));
    }
    const slug = await h.get('no-such-event');
    expect(slug.statusCode).toBe(404);
    expect(slug.json.code).toBe('rest-event-not-found');
    for (const path of ['abc', '12abc', '-1', '1.5', 'by-slug/']) {
      const res = await t().request({ url: `${EVENTS}/${path}` });
      expect(res.statusCode, path).toBe(404);
      expect(res.json, path).toEqual(NO_ROUTE);
    }
  });

  it('answers 403 event-not-accessible for a draft, pending or private event read without the right', async () => {
    const contributor = await t().user('contributor');
    const draft = await h.make({ title: 'Drafty' }, 'contributor');
    const pending = await h.make({ title: 'Waiting', status: 'pending' }, 'contributor');
    const priv = await h.make({ title: 'Hidden', status: 'private', author: contributor.id });
    for (const ref of [draft.id, 'drafty', pending.id, 'waiting', priv.id, 'hidden']) {
      const res = await h.get(ref);
      expect(res.statusCode, String(ref)).toBe(403);
      expect(res.json).toEqual(NOT_ACCESSIBLE);
      expect((await h.get(ref, 'subscriber')).json).toEqual(NOT_ACCESSIBLE);
    }
    const other = await t().user('contributor', 'other-contributor');
    expect((await t().request({ url: `${EVENTS}/${draft.id}`, headers: other.headers })).json).toEqual(NOT_ACCESSIBLE);
    expect((await h.get(draft.id, 'contributor')).statusCode).toBe(200);
    expect((await h.get(priv.id, 'contributor')).statusCode).toBe(200);
    expect((await h.get(draft.id, 'author')).statusCode).toBe(403);
    expect((await h.get(priv.id, 'author')).statusCode).toBe(403);
    for (const ref of [draft.id, pending.id, priv.id]) expect((await h.get(ref, 'editor')).statusCode).toBe(200);
  });

  it('answers 403 event-password-protected unless the password matches or an editor reads with context=edit', async () => {
    const created = await h.make({ title: 'Locked', password: 'open sesame', description: 'Inside' });
    // Whoever wrote it sees it whole.
    expect(created.description).toBe('<p>Inside</p>');
    for (const [role, query] of [[undefined, ''], [undefined, '?password=wrong'], ['editor', ''], ['author', '?context=edit'], [undefined, '?context=edit']] as const) {
      const res = await h.get(created.id, role, query);
      expect(res.statusCode, `${role} ${query}`).toBe(403);
      expect(res.json).toEqual(PROTECTED);
    }
    expect((await h.get('locked')).json).toEqual(PROTECTED);
    for (const [role, query] of [[undefined, '?password=open%20sesame'], ['editor', '?context=edit'], ['administrator', '?context=edit']] as const) {
      const res = await h.get(created.id, role, query);
      expect(res.statusCode, `${role} ${query}`).toBe(200);
      expect(res.json).toMatchObject({ title: 'Locked', description: '<p>Inside</p>', json_ld: { name: 'Locked' } });
    }
    expect((await h.get('locked', undefined, '?password=open%20sesame')).statusCode).toBe(200);
    expect((await h.get(created.id, undefined, '?context=bogus')).statusCode).toBe(400);
  });

  it('sets and removes the password on update (API.md §5.13)', async () => {
    const created = await h.make({ description: 'Secret' });
    expect((await h.update(created.id, { password: 'secret' }, 'administrator')).json.description).toBe('<p>Secret</p>');
    expect((await h.get(created.id)).json).toEqual(PROTECTED);
    expect((await h.update(created.id, { title: 'Still locked' }, 'administrator')).statusCode).toBe(200);
    expect((await h.get(created.id)).json).toEqual(PROTECTED);
    expect((await h.get(created.id, undefined, '?password=secret')).json.title).toBe('Still locked');
    expect((await h.update(created.id, { password: '' }, 'administrator')).statusCode).toBe(200);
    expect((await h.get(created.id)).json.title).toBe('Still locked');
  });
});

describeEachDialect('/events write permissions (reference §7)', (t) => {
  const h = helpers(t);

  it('scales the status back for contributors: publish becomes pending, none becomes draft', async () => {
    const contributor = await t().user('contributor');
    const pending = await h.make({ status: 'publish' }, 'contributor');
    expect(pending).toMatchObject({ status: 'pending', author: String(contributor.id) });
    expect((await h.make({ status: 'future' }, 'contributor')).status).toBe('pending');
    const draft = await h.make({}, 'contributor');
    expect(draft.status).toBe('draft');
    const published = await h.update(draft.id, { status: 'publish' }, 'contributor');
    expect(published.json.status).toBe('pending');
    expect((await h.get(draft.id, 'administrator')).json.status).toBe('pending');
    expect((await h.make({}, 'author')).status).toBe('publish');
    expect((await h.make({ status: 'private' }, 'author')).status).toBe('private');
  });

  it('lets contributors edit and delete only their own drafts and pending events', async () => {
    const contributor = await t().user('contributor');
    const draft = await h.make({}, 'contributor');
    expect((await h.update(draft.id, { title: 'Mine' }, 'contributor')).statusCode).toBe(200);
    const pending = await h.make({ status: 'pending' }, 'contributor');
    expect((await h.update(pending.id, { title: 'Mine too' }, 'contributor', 'PATCH')).statusCode).toBe(200);
    const ownPublished = await h.make({ author: contributor.id });
    expect(ownPublished.author).toBe(String(contributor.id));
    const others = await h.make({ status: 'draft' });
    for (const id of [ownPublished.id, others.id]) {
      const edit = await h.update(id, { title: 'No' }, 'contributor');
      expect(edit.statusCode).toBe(403);
      expect(edit.json).toEqual(FORBIDDEN);
      expect((await h.remove(id, 'contributor')).statusCode).toBe(403);
    }
    expect((await h.get(ownPublished.id)).json.title).toBe('Gig');
    expect((await h.remove(pending.id, 'contributor')).statusCode).toBe(200);
  });

  it('lets authors edit and delete their own events, published included, and nobody else’s', async () => {
    const own = await h.make({}, 'author');
    expect(own.status).toBe('publish');
    expect((await h.update(own.id, { title: 'Mine' }, 'author')).statusCode).toBe(200);
    const others = await h.make({}, 'editor');
    expect((await h.update(others.id, { title: 'No' }, 'author')).statusCode).toBe(403);
    expect((await h.remove(others.id, 'author')).statusCode).toBe(403);
    expect((await h.remove(own.id, 'author')).statusCode).toBe(200);
  });

  it('lets editors edit and delete everyone’s events and name another author', async () => {
    const author = await t().user('author');
    const theirs = await h.make({}, 'author');
    expect((await h.update(theirs.id, { title: 'Edited' }, 'editor')).json.title).toBe('Edited');
    const editor = await t().user('editor');
    const reassigned = await h.update(theirs.id, { author: editor.id }, 'editor');
    expect(reassigned.json.author).toBe(String(editor.id));
    expect((await h.update(theirs.id, { author: author.id }, 'author')).statusCode).toBe(403);
    expect((await h.remove(theirs.id, 'editor')).statusCode).toBe(200);
  });

  it('answers 401 to anonymous writes after validation, 403 to subscribers, 401 to wrong credentials', async () => {
    const anon = await t().request({ method: 'POST', url: EVENTS, payload: GIG });
    expect(anon.statusCode).toBe(401);
    expect(anon.json).toEqual({ ...FORBIDDEN, data: { status: 401 } });
    const invalidFirst = await t().request({ method: 'POST', url: EVENTS, payload: { ...GIG, start_date: 'nope' } });
    expect(invalidFirst.json).toEqual(invalid('start_date'));
    const missingFirst = await t().request({ method: 'POST', url: EVENTS, payload: {} });
    expect(missingFirst.json.code).toBe('rest_missing_callback_param');
    const subscriber = await h.create(GIG, 'subscriber');
    expect(subscriber.statusCode).toBe(403);
    expect(subscriber.json).toEqual(FORBIDDEN);
    const created = await h.make();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await t().request({ method, url: `${EVENTS}/${created.id}`, ...(method === 'DELETE' ? {} : { payload: { title: 'x' } }) });
      expect(res.statusCode, method).toBe(401);
    }
    const admin = await t().user('administrator');
    const wrong = `Basic ${Buffer.from(`${admin.login}:wrongwrongwrongwrong`).toString('base64')}`;
    for (const method of ['GET', 'POST'] as const) {
      const res = await t().request({ method, url: EVENTS, headers: { authorization: wrong }, ...(method === 'POST' ? { payload: GIG } : {}) });
      expect(res.statusCode, method).toBe(401);
    }
    expect((await h.get(created.id)).json.title).toBe('Gig');
    expect((await t().request({ url: EVENTS })).json.total).toBe(1);
  });
});

describeEachDialect('DELETE /events/{id} and /events/by-slug/{slug}', (t) => {
  const h = helpers(t);

  it('moves the event to the trash with 200 and its record, then 410 event-is-in-trash; GET is 403', async () => {
    const created = await h.make({ venue: { venue: 'Hall' }, organizer: [{ organizer: 'O' }], tags: ['t'] });
    const trashed = await h.remove(created.id, 'administrator');
    expect(trashed.statusCode).toBe(200);
    expect(trashed.json).not.toHaveProperty('json_ld');
    const changed = ['status', 'modified', 'modified_utc', 'tags'];
    const keep = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).filter(([k]) => !changed.includes(k)));
    expect(keep(trashed.json)).toEqual(keep(created));
    expect(trashed.json.status).toBe('trash');
    // A trashed event no longer counts for its terms.
    expect(trashed.json.tags[0].count).toBe(0);
    const again = await h.remove(created.id, 'administrator');
    expect(again.statusCode).toBe(410);
    expect(again.json).toEqual({ code: 'event-is-in-trash', message: 'The event is already trashed', data: { status: 410 } });
    for (const role of [undefined, 'administrator'] as const) expect((await h.get(created.id, role)).json).toEqual(NO_LONGER);
    expect((await h.get(created.slug)).json).toEqual(NO_LONGER);
    const admin = await t().user('administrator');
    expect((await t().request({ url: `${API}/venues/${created.venue.id}`, headers: admin.headers })).json.status).toBe('publish');
  });

  it('answers a contributor deleting their own trashed event 410, as WordPress does; others\' stay 403', async () => {
    const own = await h.make({}, 'contributor');
    expect(own.status).toBe('draft');
    const trashed = await h.remove(own.id, 'contributor');
    expect([trashed.statusCode, trashed.json.status]).toEqual([200, 'trash']);
    const again = await h.remove(own.id, 'contributor');
    expect(again.statusCode).toBe(410);
    expect(again.json).toEqual({ code: 'event-is-in-trash', message: 'The event is already trashed', data: { status: 410 } });
    expect((await h.remove(own.id, 'contributor', '?force=true')).statusCode).toBe(403);
    const theirs = await h.make({});
    expect((await h.remove(theirs.id, 'administrator')).statusCode).toBe(200);
    expect((await h.remove(theirs.id, 'contributor')).statusCode).toBe(403);
  });

  it('deletes by slug, and permanently with force=true for editors (then 404); authors may not force', async () => {
    const bySlug = await h.make({ title: 'By Slug' });
    expect((await h.remove('by-slug', 'administrator')).json.status).toBe('trash');
    const own = await h.make({}, 'author');
    const refused = await h.remove(own.id, 'author', '?force=true');
    expect(refused.statusCode).toBe(403);
    expect(refused.json.code).toBe('rest_forbidden');
    expect((await h.get(own.id)).statusCode).toBe(200);
    for (const id of [own.id, bySlug.id]) {
      const forced = await h.remove(id, 'editor', '?force=true');
      expect(forced.statusCode).toBe(200);
      expect(forced.json.id).toBe(id);
      expect((await h.get(id, 'editor')).json).toEqual(notFound(id));
      expect((await h.remove(id, 'editor')).statusCode).toBe(404);
    }
    expect((await h.remove(own.id, 'editor', '?force=maybe')).statusCode).toBe(400);
  });

  it('answers 404 for an unknown id or slug and 401 anonymously', async () => {
    expect((await h.remove(999999, 'administrator')).json).toEqual(notFound(999999));
    expect((await h.remove('nope', 'administrator')).statusCode).toBe(404);
    const created = await h.make();
    expect((await h.remove(created.id)).statusCode).toBe(401);
    expect((await h.get(created.id)).json.status).toBe('publish');
  });
});

describeEachDialect('/events/{id} order of checks', (t) => {
  const h = helpers(t);

  it('checks in the order of API.md §5.4: route, syntax, authentication, record, permission, semantics', async () => {
    const created = await h.make();
    const noRoute = await t().request({ method: 'PATCH', url: `${EVENTS}/abc`, payload: { start_date: 'nope' } });
    expect(noRoute.json).toEqual(NO_ROUTE);
    expect((await h.update(999999, { start_date: 'nope' }, undefined, 'PATCH')).json).toEqual(invalid('start_date'));
    expect((await h.get(999999, undefined, '?context=bogus')).json).toEqual(invalid('context'));
    expect((await h.update(999999, { title: 'x' })).statusCode).toBe(401);
    expect((await h.remove(999999)).statusCode).toBe(401);
    expect((await h.update(999999, { title: 'x' }, 'subscriber')).json).toEqual(notFound(999999));
    expect((await h.remove(999999, 'subscriber')).json).toEqual(notFound(999999));
    expect((await h.update(created.id, { venue: 999999, author: 999999 }, 'subscriber')).json).toEqual(FORBIDDEN);
    expect((await h.remove(created.id, 'subscriber')).json).toEqual(FORBIDDEN);
    expect((await h.update(created.id, { venue: 999999 }, 'contributor')).json).toEqual(FORBIDDEN);
    expect((await h.update(created.id, { venue: 999999 }, 'administrator')).json).toEqual(invalid('venue'));
    expect((await h.create({ ...GIG, venue: 999999 }, 'subscriber')).json).toEqual(FORBIDDEN);
    expect((await h.create({ ...GIG, venue: 999999 }, 'administrator')).json).toEqual(invalid('venue'));
    expect((await h.get(created.id)).json.venue).toEqual([]);
  });
});
