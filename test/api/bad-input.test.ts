import { expect, it } from 'vitest';
import { API, describeEachDialect } from '../helpers/test-app.ts';

// What the fuzzer found PostgreSQL refusing where SQLite stores without a word: each is a 400 naming the
// parameter now, on both databases, and nothing is stored.
describeEachDialect('bad input the databases disagree on', (t) => {
  it('a NUL character anywhere (path, query, body) is 400 naming the parameter', async () => {
    const admin = (await t().user('administrator')).headers;
    for (const [method, url, payload, param] of [
      ['GET', `${API}/events/by-slug/a%00b`, undefined, 'slug'],
      ['GET', `${API}/events?search=a%00b`, undefined, 'search'],
      ['POST', `${API}/events`, { title: 'a\u0000b', start_date: '2027-01-01', end_date: '2027-01-01' }, 'title'],
      ['POST', `${API}/venues`, { venue: 'Hall', address: ['x\u0000'] }, 'address'],
    ] as const) {
      const res = await t().request({ method, url, headers: admin, ...(payload ? { payload } : {}) });
      expect([url, res.statusCode, res.json.code, Object.keys(res.json.data.params)]).toEqual([url, 400, 'rest_invalid_param', [param]]);
    }
    expect(await t().database.db.selectFrom('event').selectAll().execute()).toEqual([]);
  });

  // A lone surrogate (`"\udfff"` in JSON) is not Unicode: each database stored it as U+FFFD, but SQLite compared
  // the string as sent, so a second tag of that name was made there and refused on PostgreSQL (the fuzzer,
  // comparing the two). The reference's PHP refuses such JSON too.
  it('text that is not Unicode (a lone surrogate) is 400 naming the parameter, and makes nothing', async () => {
    const admin = (await t().user('administrator')).headers;
    for (const [method, url, payload, param] of [
      ['POST', `${API}/tags`, '{"name":"\\udfff"}', 'name'],
      ['POST', `${API}/events`, '{"title":"Jazz \\ud83c","start_date":"2027-01-01","end_date":"2027-01-01"}', 'title'],
      ['POST', `${API}/venues`, '{"venue":"Hall","address":["\\udc00x"]}', 'address'],
      ['GET', `${API}/events?search=${encodeURIComponent('ok')}%ED%A0%80`, undefined, undefined],
    ] as const) {
      const res = await t().request({ method, url, headers: { ...admin, 'content-type': 'application/json' }, ...(payload ? { payload } : {}) });
      if (param === undefined) expect([url, res.statusCode]).toEqual([url, 200]); // a query string's bad bytes decode to U+FFFD
      else expect([url, res.statusCode, res.json.code, Object.keys(res.json.data.params)]).toEqual([url, 400, 'rest_invalid_param', [param]]);
    }
    expect(await t().database.db.selectFrom('term').selectAll().execute()).toEqual([]);
    expect(await t().database.db.selectFrom('post').selectAll().execute()).toEqual([]);
    // Paired surrogates (an emoji) are Unicode, and welcome.
    const emoji = await t().request({ method: 'POST', url: `${API}/tags`, headers: admin, payload: { name: 'Jazz \ud83c\udfb7' } });
    expect([emoji.statusCode, emoji.json.name]).toEqual([201, 'Jazz \ud83c\udfb7']);
  });

  it('ids past what an integer column holds are 400, not a query the database refuses', async () => {
    const admin = (await t().user('administrator')).headers;
    for (const [method, url, payload, param] of [
      ['GET', `${API}/categories?event=2147483648`, undefined, 'event'],
      ['GET', `${API}/venues?event=99999999999`, undefined, 'event'],
      ['POST', `${API}/categories`, { name: 'Jazz', parent: 1e308 }, 'parent'],
      ['POST', `${API}/venues`, { venue: 'Hall', image: 1e308 }, 'image'],
      ['POST', `${API}/events`, { title: 'X', start_date: '2027-01-01', end_date: '2027-01-01', author: 2147483648 }, 'author'],
      // Linked records and terms named by id in free form (digits, numbers, `{id}`), and list filters by id or slug.
      ...[{ categories: ['99999999999'] }, { tags: [99999999999] }, { categories: [{ id: 2147483648 }] }, { venue: '99999999999' }, { venue: 99999999999 },
        { venue: { id: 1.5 } }, { organizer: ['99999999999'] }, { organizer: [{ id: -1 }] }, { organizers: 2147483648 }]
        .map((link) => ['POST', `${API}/events`, { title: 'X', start_date: '2027-01-01', end_date: '2027-01-01', ...link }, Object.keys(link)[0]] as const),
      ['GET', `${API}/events?categories=99999999999`, undefined, 'categories'],
      ['GET', `${API}/events?tags=9007199254740991`, undefined, 'tags'],
    ] as const) {
      const res = await t().request({ method, url, headers: admin, ...(payload ? { payload } : {}) });
      expect([url, res.statusCode, res.json.code, Object.keys(res.json.data.params)]).toEqual([url, 400, 'rest_invalid_param', [param]]);
    }
    expect(await t().database.db.selectFrom('term').selectAll().execute()).toEqual([]);
    expect(await t().database.db.selectFrom('event').selectAll().execute()).toEqual([]);
    // The site's listing pages take the same filters, and answer with their own 400 page.
    const page = await t().request({ url: '/events/month/?tags=9007199254740991' });
    expect([page.statusCode, page.headers['content-type']]).toEqual([400, 'text/html; charset=utf-8']);
  });

  // The schema reads `YYYY-MM-DD HH:MM[:SS]` by its fields (time/parse-date.ts readsAsDate): a day the month
  // lacks, or an hour, minute or second past its bound, is refused there, before anything is looked up.
  it('a plain date and time that names no instant (Feb 30, April 31, 24:00, :60) is 400 naming the parameter, and makes nothing', async () => {
    const admin = (await t().user('administrator')).headers;
    for (const value of ['2027-02-30 10:00:00', '2026-02-29 10:00', '2027-04-31T10:00', '2027-03-04 24:00:00', '2027-03-04 10:60', '2027-03-04 10:00:60', '2027-00-10 10:00']) {
      const create = await t().request({ method: 'POST', url: `${API}/events`, headers: admin, payload: { title: 'Gig', start_date: value, end_date: '2027-03-05 10:00:00' } });
      expect([value, create.statusCode, create.json.code, Object.keys(create.json.data.params)]).toEqual([value, 400, 'rest_invalid_param', ['start_date']]);
      const list = await t().request({ method: 'GET', url: `${API}/events?end_date=${encodeURIComponent(value)}` });
      expect([value, list.statusCode, list.json.code, Object.keys(list.json.data.params)]).toEqual([value, 400, 'rest_invalid_param', ['end_date']]);
    }
    expect(await t().database.db.selectFrom('event').selectAll().execute()).toEqual([]);
    // Its edges are dates: the leap day of a leap year, the last second of a day.
    const leap = await t().request({ method: 'POST', url: `${API}/events`, headers: admin, payload: { title: 'Leap', start_date: '2028-02-29 23:59:59', end_date: '2028-03-01 00:00' } });
    expect([leap.statusCode, leap.json.start_date]).toEqual([201, '2028-02-29 23:59:59']);
  });
});
