import { expect, it } from 'vitest';
import { API, describeEachDialect, type TestUser } from '../helpers/test-app.ts';

/**
 * The authorization matrix: every route of the namespace description (the route registry: a route added
 * without an expectation here fails), every caller, every record state, against a model written from the
 * contract (WordPress's capabilities as API.md states them), not from the code under test.
 */
const ROLES = ['subscriber', 'contributor', 'author', 'editor', 'administrator'] as const;
type Role = (typeof ROLES)[number];
type Who = 'anonymous' | 'wrong-password' | Role;
const CALLERS: Who[] = ['anonymous', 'wrong-password', ...ROLES];
const STATES = ['publish', 'future', 'draft', 'pending', 'private', 'protected', 'trash'] as const;
type State = (typeof STATES)[number];
const OWNERS = ['author', 'contributor', 'administrator'] as const;
const rank = (who: Who) => (ROLES as readonly string[]).indexOf(who);
const status = (state: State) => (state === 'protected' ? 'publish' : state);

// The model. edit_post: editors any record; authors their own; contributors their own draft or pending.
const mayEdit = (who: Who, owner: Role, state: State) =>
  rank(who) >= rank('editor') || (who === owner && (who === 'author' || (who === 'contributor' && ['draft', 'pending'].includes(status(state)))));
// read_post: published is public; private for editors and its author; the rest for whoever may edit it.
const mayRead = (who: Who, owner: Role, state: State) =>
  status(state) === 'publish' || (status(state) === 'private' ? rank(who) >= rank('editor') || who === owner : mayEdit(who, owner, state));
// delete_post: as edit, and a contributor's own trashed record (the second delete is 410, not 403).
const mayDelete = (who: Who, owner: Role, state: State) => mayEdit(who, owner, state) || (who === owner && who === 'contributor' && state === 'trash');
const signedIn = (who: Who) => who !== 'anonymous' && who !== 'wrong-password';

/** Expected status of each route and method, per caller (and record, for routes on one record). */
type Case = { who: Who; owner: Role; state: State };
const EVENT_ROUTES: Record<string, (c: Case) => number> = {
  'GET /events/{id}': ({ who, owner, state }) =>
    who === 'wrong-password' ? 401 : state === 'trash' || !mayRead(who, owner, state) || state === 'protected' ? 403 : 200,
  'POST /events/{id}': ({ who, owner, state }) => (!signedIn(who) ? 401 : mayEdit(who, owner, state) ? 200 : 403),
  'DELETE /events/{id}': ({ who, owner, state }) => (!signedIn(who) ? 401 : !mayDelete(who, owner, state) ? 403 : state === 'trash' ? 410 : 200),
};
const LINKED_ROUTES: Record<string, (c: Case) => number> = {
  'GET /{kind}/{id}': ({ who, owner, state }) => (who === 'wrong-password' ? 401 : mayRead(who, owner, state) ? 200 : 403),
  'POST /{kind}/{id}': ({ who, owner, state }) => (!signedIn(who) ? 401 : mayEdit(who, owner, state) ? 200 : 403),
  'DELETE /{kind}/{id}': ({ who, owner, state }) => (!signedIn(who) ? 401 : !mayDelete(who, owner, state) ? 403 : state === 'trash' ? 410 : 200),
};
// Routes with no record state: the expected status by caller.
const editor = (who: Who, ok: number) => (!signedIn(who) ? 401 : rank(who) >= rank('editor') ? ok : 403);
const admin = (who: Who, ok: number) => (!signedIn(who) ? 401 : who === 'administrator' ? ok : 403);
const creator = (who: Who) => (!signedIn(who) ? 401 : rank(who) >= rank('contributor') ? 201 : 403);
const publicRead = (who: Who) => (who === 'wrong-password' ? 401 : 200);
const COLLECTION_ROUTES: Record<string, (who: Who) => number> = {
  'GET ': publicRead, 'GET /doc': publicRead,
  'GET /events': publicRead, 'POST /events': creator,
  'GET /venues': publicRead, 'POST /venues': creator, 'GET /organizers': publicRead, 'POST /organizers': creator,
  'GET /categories': publicRead, 'POST /categories': (who) => editor(who, 201), 'GET /tags': publicRead, 'POST /tags': (who) => editor(who, 201),
  'GET /categories/{id}': publicRead, 'POST /categories/{id}': (who) => editor(who, 200), 'DELETE /categories/{id}': (who) => editor(who, 200),
  'GET /tags/{id}': publicRead, 'POST /tags/{id}': (who) => editor(who, 200), 'DELETE /tags/{id}': (who) => editor(who, 200),
  'GET /changes': (who) => (signedIn(who) ? 200 : 401),
  'POST /recurrence/preview': (who) => (!signedIn(who) ? 401 : rank(who) >= rank('contributor') ? 200 : 403),
  'GET /webhooks': (who) => admin(who, 200), 'POST /webhooks': (who) => admin(who, 201),
  'GET /webhooks/{id}': (who) => admin(who, 200), 'POST /webhooks/{id}': (who) => admin(who, 200), 'DELETE /webhooks/{id}': (who) => admin(who, 200),
  'GET /webhooks/{id}/deliveries': (who) => admin(who, 200), 'POST /webhooks/{id}/deliveries/{delivery}/redeliver': (who) => admin(who, 200),
};
// The by-slug routes answer as the by-id ones (the same records), checked through them.
const SAME_AS: Record<string, string> = { '/events/by-slug/{slug}': '/events/{id}', '/venues/by-slug/{slug}': '/{kind}/{id}', '/organizers/by-slug/{slug}': '/{kind}/{id}', '/venues/{id}': '/{kind}/{id}', '/organizers/{id}': '/{kind}/{id}' };

const EVENT = { start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' };

describeEachDialect('the authorization matrix', (t) => {
  const users = async () => {
    const made: Partial<Record<Who, TestUser | null>> = { anonymous: null };
    for (const role of ROLES) made[role] = await t().user(role);
    return made as Record<Role, TestUser> & { anonymous: null };
  };
  const headersOf = (who: Who, all: Record<Role, TestUser>) =>
    who === 'anonymous' ? {} : who === 'wrong-password' ? { authorization: `Basic ${Buffer.from('editor:wrong').toString('base64')}` } : all[who].headers;

  it('covers every route of the registry', async () => {
    const routes = Object.entries((await t().request({ url: API })).json.routes as Record<string, { methods: string[] }>);
    const covered = new Set([...Object.keys(EVENT_ROUTES), ...Object.keys(LINKED_ROUTES), ...Object.keys(COLLECTION_ROUTES)]);
    const missing: string[] = [];
    for (const [route, { methods }] of routes) {
      const path = route.slice(API.length).replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}');
      for (const method of methods.filter((m) => !['PUT', 'PATCH'].includes(m))) {
        const key = `${method} ${SAME_AS[path] ?? path}`;
        if (!covered.has(key)) missing.push(`${method} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('events: every caller x every state x owner, single reads, updates and deletes', async () => {
    const all = await users();
    const root = all.administrator.headers;
    const make = async (owner: Role, state: State) => {
      const payload = { ...EVENT, title: `${owner} ${state}`, status: status(state) === 'trash' ? 'publish' : status(state), author: all[owner].id, ...(state === 'protected' ? { password: 'pw', description: 'Secret' } : {}), ...(state === 'future' ? { date: '2030-01-01 00:00:00' } : {}) };
      const made = (await t().app.inject({ method: 'POST', url: `${API}/events`, headers: root, payload })).json();
      if (state === 'trash') await t().app.inject({ method: 'DELETE', url: `${API}/events/${made.id}`, headers: root });
      return made.id as number;
    };
    const mismatches: string[] = [];
    for (const [route, expected] of Object.entries(EVENT_ROUTES)) {
      const [method] = route.split(' ');
      for (const who of CALLERS) {
        for (const owner of OWNERS) {
          for (const state of STATES) {
            const id = await make(owner, state);
            const res = await t().request({ method: method as 'GET', url: `${API}/events/${id}`, headers: headersOf(who, all), ...(method === 'POST' ? { payload: { excerpt: 'changed' } } : {}) });
            const want = expected({ who, owner, state });
            if (res.statusCode !== want) mismatches.push(`${route} as ${who}, ${owner}'s ${state}: ${res.statusCode} (expected ${want}) ${res.json?.code ?? ''}`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 300_000);

  it('event lists and feeds show each caller only what it may list: no hidden id, count or guarded content', async () => {
    const all = await users();
    const root = all.administrator.headers;
    const records: Array<{ id: number; owner: Role; state: State }> = [];
    for (const owner of OWNERS) {
      for (const state of STATES) {
        const payload = { ...EVENT, title: `${owner} ${state}`, status: status(state) === 'trash' ? 'publish' : status(state), author: all[owner].id, ...(state === 'protected' ? { password: 'pw', description: 'Secret words' } : {}) };
        const id = (await t().app.inject({ method: 'POST', url: `${API}/events`, headers: root, payload })).json().id as number;
        if (state === 'trash') await t().app.inject({ method: 'DELETE', url: `${API}/events/${id}`, headers: root });
        records.push({ id, owner, state });
      }
    }
    const statuses = 'publish,future,draft,pending,private';
    for (const who of CALLERS.filter((w) => w !== 'wrong-password')) {
      const headers = headersOf(who, all);
      // Lists follow the reference's §7 (the contract, API.md §4): callers with edit_posts (contributor and up)
      // list every status but trash, other people's drafts and private events included; others only publish.
      const listable = (r: { state: State }) => r.state !== 'trash' && (rank(who) >= rank('contributor') || status(r.state) === 'publish');
      const visible = records.filter(listable).map((r) => r.id).sort((a, b) => a - b);
      // The widest list this caller may ask for (statuses beyond publish need edit_posts).
      const query = rank(who) >= rank('contributor') ? `status=${statuses}&` : '';
      const list = await t().request({ url: `${API}/events?${query}start_date=2000-01-01&per_page=50`, headers });
      expect(list.statusCode).toBe(200);
      const ids = list.json.events.map((e: { id: number }) => e.id).sort((a: number, b: number) => a - b);
      expect([who, ids]).toEqual([who, visible]);
      expect([who, list.json.total, list.headers['x-tec-total']]).toEqual([who, ids.length, String(ids.length)]);
      // Guarded content is blank in a list, unless asked for with context=edit by someone who may edit the event.
      const protectedOnes = records.filter((r) => r.state === 'protected');
      for (const r of protectedOnes) expect([who, list.json.events.find((e: { id: number }) => e.id === r.id)?.description]).toEqual([who, '']);
      if (rank(who) >= rank('contributor')) {
        const edit = await t().request({ url: `${API}/events?${query}start_date=2000-01-01&per_page=50&context=edit`, headers });
        for (const r of protectedOnes) {
          const shown = edit.json.events.find((e: { id: number }) => e.id === r.id)?.description;
          expect([who, r.owner, shown]).toEqual([who, r.owner, mayEdit(who, r.owner, r.state) ? expect.stringContaining('Secret') : '']);
        }
      }
      // The calendar feed and the site's list page never show what the list hides.
      const feed = await t().app.inject({ url: `${API}/events?${query}start_date=2000-01-01`, headers: { ...headers, accept: 'text/calendar' } });
      for (const r of records.filter((x) => !ids.includes(x.id))) expect([who, feed.body.includes(`${r.owner} ${r.state}`)]).toEqual([who, false]);
      const page = await t().app.inject({ url: '/events/?start_date=2000-01-01', headers });
      // Pages show what the API lists (a protected event is public with its content guarded: its title shows).
      for (const r of records.filter((x) => !listable(x))) {
        expect([who, r.state, page.body.includes(`>${r.owner} ${r.state}<`)]).toEqual([who, r.state, false]);
      }
    }
  }, 300_000);

  it('venues and organizers: every caller x state x owner', async () => {
    const all = await users();
    const root = all.administrator.headers;
    const mismatches: string[] = [];
    for (const kind of ['venues', 'organizers'] as const) {
      for (const [route, expected] of Object.entries(LINKED_ROUTES)) {
        const [method] = route.split(' ');
        for (const who of CALLERS) {
          for (const owner of OWNERS) {
            for (const state of STATES.filter((s) => s !== 'future' && s !== 'protected')) {
              const name = `${kind} ${who} ${owner} ${state} ${method}`;
              const made = (await t().app.inject({ method: 'POST', url: `${API}/${kind}`, headers: root, payload: { [kind.slice(0, -1)]: name, status: state === 'trash' ? 'publish' : state, author: all[owner].id } })).json();
              if (state === 'trash') await t().app.inject({ method: 'DELETE', url: `${API}/${kind}/${made.id}`, headers: root });
              const res = await t().request({ method: method as 'GET', url: `${API}/${kind}/${made.id}`, headers: headersOf(who, all), ...(method === 'POST' ? { payload: { phone: '123' } } : {}) });
              const want = expected({ who, owner, state });
              if (res.statusCode !== want) mismatches.push(`${route.replace('{kind}', kind)} as ${who}, ${owner}'s ${state}: ${res.statusCode} (expected ${want})`);
            }
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 300_000);

  it('routes without a record state: terms, collections, the change feed, recurrence previews, webhooks, the documents', async () => {
    const all = await users();
    const root = all.administrator.headers;
    const mismatches: string[] = [];
    for (const who of CALLERS) {
      const category = (await t().app.inject({ method: 'POST', url: `${API}/categories`, headers: root, payload: { name: `Cat ${who}` } })).json();
      const tag = (await t().app.inject({ method: 'POST', url: `${API}/tags`, headers: root, payload: { name: `Tag ${who}` } })).json();
      const hook = (await t().app.inject({ method: 'POST', url: `${API}/webhooks`, headers: root, payload: { url: 'http://127.0.0.1:9/hook' } })).json();
      const calls: Array<[string, string, Record<string, unknown>?]> = [
        ['GET ', API], ['GET /doc', `${API}/doc`], ['GET /events', `${API}/events`], ['POST /events', `${API}/events`, { ...EVENT, title: `By ${who}` }],
        ['GET /venues', `${API}/venues`], ['POST /venues', `${API}/venues`, { venue: `Venue by ${who}` }],
        ['GET /organizers', `${API}/organizers`], ['POST /organizers', `${API}/organizers`, { organizer: `Org by ${who}` }],
        ['GET /categories', `${API}/categories`], ['POST /categories', `${API}/categories`, { name: `New cat ${who}` }],
        ['GET /tags', `${API}/tags`], ['POST /tags', `${API}/tags`, { name: `New tag ${who}` }],
        ['GET /categories/{id}', `${API}/categories/${category.id}`], ['POST /categories/{id}', `${API}/categories/${category.id}`, { description: 'x' }],
        ['GET /tags/{id}', `${API}/tags/${tag.id}`], ['POST /tags/{id}', `${API}/tags/${tag.id}`, { description: 'x' }],
        ['GET /changes', `${API}/changes`],
        ['POST /recurrence/preview', `${API}/recurrence/preview`, { ...EVENT, recurrence: { rules: ['FREQ=WEEKLY;COUNT=2'] } }],
        ['GET /webhooks', `${API}/webhooks`], ['POST /webhooks', `${API}/webhooks`, { url: 'http://127.0.0.1:9/other' }],
        ['GET /webhooks/{id}', `${API}/webhooks/${hook.id}`], ['POST /webhooks/{id}', `${API}/webhooks/${hook.id}`, { enabled: false }],
        ['GET /webhooks/{id}/deliveries', `${API}/webhooks/${hook.id}/deliveries`],
        ['DELETE /categories/{id}', `${API}/categories/${category.id}`], ['DELETE /tags/{id}', `${API}/tags/${tag.id}`], ['DELETE /webhooks/{id}', `${API}/webhooks/${hook.id}`],
      ];
      for (const [route, url, payload] of calls) {
        const method = route.split(' ')[0];
        const res = await t().request({ method: method as 'GET', url, headers: headersOf(who, all), ...(payload ? { payload } : {}) });
        const want = COLLECTION_ROUTES[route](who);
        if (res.statusCode !== want) mismatches.push(`${route} as ${who}: ${res.statusCode} (expected ${want}) ${res.json?.code ?? ''}`);
      }
    }
    // Redelivery needs a delivery: an administrator's answer is checked in test/webhooks; here, that others are refused.
    for (const who of CALLERS.filter((w) => w !== 'administrator')) {
      const res = await t().request({ method: 'POST', url: `${API}/webhooks/1/deliveries/1/redeliver`, headers: headersOf(who, all) });
      const want = COLLECTION_ROUTES['POST /webhooks/{id}/deliveries/{delivery}/redeliver'](who);
      if (res.statusCode !== want) mismatches.push(`redeliver as ${who}: ${res.statusCode} (expected ${want})`);
    }
    expect(mismatches).toEqual([]);
  }, 300_000);
}, { CAL_RATE_LIMIT: 'off', CAL_WEBHOOKS_ALLOW_PRIVATE: 'on' });
