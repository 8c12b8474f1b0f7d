import { DateTime } from 'luxon';
import { expect, it } from 'vitest';
import type { Role } from '../../src/users/roles.ts';
import { API, API_URL, PUBLIC_URL, describeEachDialect, type TestContext } from '../helpers/test-app.ts';

const EVENTS = `${API}/events`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const DASH = ' \u2013 ';
const SQL = 'yyyy-MM-dd HH:mm:ss';
/** The smallest valid create body. */
const GIG = { title: 'Gig', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' };

/** The event keys in the reference's output order (samples 06 and 11). */
const EVENT_KEYS = [
  'id', 'global_id', 'global_id_lineage', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url',
  'rest_url', 'title', 'description', 'excerpt', 'slug', 'image', 'all_day', 'start_date', 'start_date_details',
  'end_date', 'end_date_details', 'utc_start_date', 'utc_start_date_details', 'utc_end_date', 'utc_end_date_details',
  'timezone', 'timezone_abbr', 'cost', 'cost_details', 'website', 'show_map', 'show_map_link', 'hide_from_listings',
  'sticky', 'featured', 'categories', 'tags', 'venue', 'organizer', 'custom_fields',
  // Ours, after the reference's: the recurring series (issue 12).
  'recurrence', 'series',
];
const STAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/** `{year, month, …}` of a `YYYY-MM-DD HH:MM:SS` text, as the record shows it. */
const details = (text: string) => ({
  year: text.slice(0, 4), month: text.slice(5, 7), day: text.slice(8, 10),
  hour: text.slice(11, 13), minutes: text.slice(14, 16), seconds: text.slice(17, 19),
});
const invalid = (...names: string[]) => ({
  code: 'rest_invalid_param',
  message: `Invalid parameter(s): ${names.join(', ')}`,
  data: { status: 400, params: Object.fromEntries(names.map((n) => [n, expect.any(String)])), details: expect.anything() },
});
const noCostDetails = { currency_symbol: '', currency_code: '', currency_position: '', values: [] };

/** Requests bound to one test's context; `ref` is an id or a slug. */
function helpers(t: () => TestContext) {
  const path = (ref: number | string) => (typeof ref === 'number' ? `${EVENTS}/${ref}` : `${EVENTS}/by-slug/${ref}`);
  const as = async (role: Role) => (await t().user(role)).headers;
  const h = {
    create: async (payload: Record<string, unknown>, role: Role = 'administrator') =>
      t().request({ method: 'POST', url: EVENTS, headers: await as(role), payload }),
    /** Creates and insists on 201. */
    make: async (payload: Record<string, unknown> = {}, role: Role = 'administrator') => {
      const res = await h.create({ ...GIG, ...payload }, role);
      expect(res.statusCode, JSON.stringify(res.json)).toBe(201);
      return res.json;
    },
    update: async (ref: number | string, payload: unknown, role: Role = 'administrator', method: 'POST' | 'PUT' | 'PATCH' = 'POST') =>
      t().request({ method, url: path(ref), headers: await as(role), payload: payload as Record<string, unknown> }),
    get: async (ref: number | string, role?: Role) =>
      t().request({ url: path(ref), headers: role ? await as(role) : {} }),
    /** Everything stored, as an administrator lists it (every status, every date). */
    totals: async () => {
      const headers = await as('administrator');
      const count = async (url: string) => (await t().request({ url, headers })).json.total as number;
      return {
        events: await count(`${EVENTS}?start_date=1970-01-01&end_date=2099-12-31`),
        venues: await count(`${API}/venues`),
        organizers: await count(`${API}/organizers`),
        categories: await count(`${API}/categories?hide_empty=false`),
        tags: await count(`${API}/tags?hide_empty=false`),
      };
    },
  };
  return h;
}
const NOTHING = { events: 0, venues: 0, organizers: 0, categories: 0, tags: 0 };

describeEachDialect('POST /events', (t) => {
  const h = helpers(t);

  it('creates with 201 the full record of reference §1.1, keys in the sample order, without json_ld', async () => {
    const admin = await t().user('administrator');
    const res = await h.create({
      title: 'Jazz Night', description: '<p>Live jazz.</p>', excerpt: 'Jazz',
      start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:30:00', timezone: 'Europe/Berlin', cost: '15',
      website: 'https://example.test/jazz',
      venue: { venue: 'Blue Room', address: 'Hauptstr. 1', city: 'Berlin', zip: '10115', country: 'Germany', phone: '+49 30 1234' },
      organizer: [{ organizer: 'Jazz Club e.V.', email: 'club@example.test', phone: '+49 30 999', website: 'https://example.test/club' }],
      categories: ['Music'], tags: ['jazz', 'live'], featured: true,
    });
    expect(res.statusCode).toBe(201);
    const e = res.json;
    expect(Object.keys(e)).toEqual(EVENT_KEYS);
    const termUrls = (plural: string, id: number) => ({ self: `${API_URL}/${plural}/${id}`, collection: `${API_URL}/${plural}` });
    const term = (taxonomy: string, plural: string, name: string) => ({
      name, slug: name.toLowerCase(), term_group: 0, term_taxonomy_id: expect.any(Number), taxonomy, description: '',
      parent: 0, count: 1, filter: 'raw', id: expect.any(Number), urls: expect.objectContaining({ collection: `${API_URL}/${plural}` }),
    });
    const head = (id: number) => ({
      id, author: String(admin.id), status: 'publish',
      date: expect.stringMatching(STAMP), date_utc: expect.stringMatching(STAMP),
      modified: expect.stringMatching(STAMP), modified_utc: expect.stringMatching(STAMP),
    });
    expect(e).toEqual({
      ...head(e.id),
      global_id: `cal.test?id=${e.id}`,
      global_id_lineage: [`cal.test?id=${e.id}`],
      url: `${PUBLIC_URL}/event/jazz-night/`,
      rest_url: `${API_URL}/events/${e.id}`,
      title: 'Jazz Night',
      description: '<p>Live jazz.</p>',
      excerpt: '<p>Jazz</p>',
      slug: 'jazz-night',
      image: false,
      all_day: false,
      start_date: '2027-03-05 19:00:00',
      start_date_details: details('2027-03-05 19:00:00'),
      end_date: '2027-03-05 22:30:00',
      end_date_details: details('2027-03-05 22:30:00'),
      utc_start_date: '2027-03-05 18:00:00',
      utc_start_date_details: details('2027-03-05 18:00:00'),
      utc_end_date: '2027-03-05 21:30:00',
      utc_end_date_details: details('2027-03-05 21:30:00'),
      timezone: 'Europe/Berlin',
      timezone_abbr: 'CET',
      cost: '$15',
      cost_details: { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['15'] },
      website: 'https://example.test/jazz',
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: true,
      categories: [term('tribe_events_cat', 'categories', 'Music')],
      tags: [term('post_tag', 'tags', 'jazz'), term('post_tag', 'tags', 'live')],
      venue: {
        ...head(e.venue.id), url: `${PUBLIC_URL}/venue/blue-room/`, venue: 'Blue Room', description: '', excerpt: '',
        slug: 'blue-room', image: false, address: 'Hauptstr. 1', city: 'Berlin', country: 'Germany', province: '',
        state: '', zip: '10115', phone: '+49 30 1234', website: '', stateprovince: '', geo_lat: null, geo_lng: null, show_map: true, show_map_link: true,
        global_id: `cal.test?id=${e.venue.id}`, global_id_lineage: [`cal.test?id=${e.venue.id}`],
      },
      organizer: [{
        ...head(e.organizer[0].id), url: `${PUBLIC_URL}/organizer/jazz-club-e-v/`, organizer: 'Jazz Club e.V.',
        description: '', excerpt: '', slug: 'jazz-club-e-v', image: false, phone: '+49 30 999',
        website: 'https://example.test/club', email: 'club@example.test',
        global_id: `cal.test?id=${e.organizer[0].id}`, global_id_lineage: [`cal.test?id=${e.organizer[0].id}`],
      }],
      custom_fields: [],
      recurrence: null,
      series: null,
    });
    for (const embedded of [...e.categories, ...e.tags]) {
      expect(embedded.term_taxonomy_id).toBe(embedded.id);
      expect(embedded.urls).toEqual(termUrls(embedded.taxonomy === 'post_tag' ? 'tags' : 'categories', embedded.id));
    }
    expect(e.date).toBe(e.date_utc);
    const stored = await h.get(e.id);
    const { json_ld: jsonLd, ...withoutJsonLd } = stored.json;
    expect(jsonLd).toBeDefined();
    // The embedded venue and organizers carry json_ld in a single read only.
    expect(withoutJsonLd.venue).toEqual({ ...e.venue, json_ld: expect.any(Object) });
    expect(withoutJsonLd.organizer).toEqual([{ ...e.organizer[0], json_ld: expect.any(Object) }]);
    expect({ ...withoutJsonLd, venue: e.venue, organizer: e.organizer }).toEqual(e);
  });

  it('creates a minimal event with the defaults of sample 11: permalink website, no venue, flags false, site zone', async () => {
    const admin = await t().user('administrator');
    const res = await h.create({ title: 'Minimal', start_date: '2027-04-01 08:00:00', end_date: '2027-04-01 09:00:00' });
    expect(res.statusCode).toBe(201);
    expect(Object.keys(res.json)).toEqual(EVENT_KEYS);
    expect(res.json).toMatchObject({
      author: String(admin.id), status: 'publish', url: `${PUBLIC_URL}/event/minimal/`, title: 'Minimal', description: '',
      excerpt: '', slug: 'minimal', image: false, all_day: false, start_date: '2027-04-01 08:00:00', end_date: '2027-04-01 09:00:00',
      utc_start_date: '2027-04-01 08:00:00', utc_end_date: '2027-04-01 09:00:00', timezone: 'UTC', timezone_abbr: 'UTC',
      cost: '', cost_details: noCostDetails, website: `${PUBLIC_URL}/event/minimal/`,
      show_map: false, show_map_link: false, hide_from_listings: false, sticky: false, featured: false,
      categories: [], tags: [], venue: [], organizer: [], custom_fields: [],
    });
    const again = await h.make({ title: 'Minimal' });
    expect(again.slug).toBe('minimal-2');
    expect(again.url).toBe(`${PUBLIC_URL}/event/minimal-2/`);
  });

  it('answers 400 rest_missing_callback_param naming every missing required parameter, and stores nothing', async () => {
    const none = await h.create({ description: 'x' });
    expect(none.statusCode).toBe(400);
    expect(none.json).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): title, start_date, end_date',
      data: { status: 400, params: ['title', 'start_date', 'end_date'] },
    });
    const one = await h.create({ title: 'x', start_date: '2027-01-01' });
    expect(one.json).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['end_date'] } });
    expect(await h.totals()).toEqual(NOTHING);
  });

  it('answers 400 rest_invalid_param naming the parameter for each bad value, and stores nothing', async () => {
    const bad: Array<[string, unknown]> = [
      ['start_date', 'not a strtotime parsable string'], ['end_date', 'before my birthday'], ['start_date', '2027-13-45'],
      ['date', 'foo'], ['date_utc', 'foo'], ['timezone', 'Mars/Olympus_Mons'], ['timezone', 'CEST'], ['timezone', 'UTC+99'],
      ['timezone', 'UTC+0530'], ['website', 'foo'], ['website', 'javascript:alert(1)'], ['author', 'foo'], ['author', 999999],
      ['status', 'kinda_thinking_about_it'], ['all_day', 'perhaps'], ['show_map', 'maybe'], ['show_map_link', 2],
      ['hide_from_listings', 'y'], ['sticky', 'nope'], ['featured', 'sure'],
      ['cost', { amount: 10 }], ['cost', [['10']]], ['cost', true], ['cost', null], ['title', ''], ['title', '   '], ['slug', ''],
    ];
    for (const [name, value] of bad) {
      const res = await h.create({ ...GIG, [name]: value });
      expect(res.statusCode, `${name}=${JSON.stringify(value)}`).toBe(400);
      expect(res.json, name).toEqual(invalid(name));
    }
    const several = await h.create({ ...GIG, start_date: 'nope', website: 'foo', status: 'maybe', featured: 'x' });
    expect(Object.keys(several.json.data.params).sort()).toEqual(['featured', 'start_date', 'status', 'website']);
    expect(await h.totals()).toEqual(NOTHING);
  });

  it('stores the cost as sent: string, number or array, with cost_details', async () => {
    const cases: Array<[unknown, string, Record<string, unknown>]> = [
      ['15', '$15', { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['15'] }],
      [15, '$15', { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['15'] }],
      ['20$', '20$', { currency_symbol: '$', currency_code: 'USD', currency_position: 'postfix', values: ['20'] }],
      [['0$', '20$', '30$'], `Free${DASH}30$`, { currency_symbol: '$', currency_code: 'USD', currency_position: 'postfix', values: ['0', '20', '30'] }],
      [['10', 25.5], `$10${DASH}$25.5`, { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['10', '25.5'] }],
      ['10 - 20 EUR', `10 EUR${DASH}20 EUR`, { currency_symbol: 'EUR', currency_code: 'USD', currency_position: 'postfix', values: ['10', '20'] }],
      ['Donation', 'Donation', { currency_symbol: '', currency_code: 'USD', currency_position: '', values: [] }],
      ['', '', noCostDetails],
      [[], '', noCostDetails],
    ];
    for (const [cost, shown, costDetails] of cases) {
      const created = await h.make({ cost });
      expect({ cost: created.cost, cost_details: created.cost_details }, JSON.stringify(cost)).toEqual({ cost: shown, cost_details: costDetails });
      const stored = await h.get(created.id);
      expect(stored.json.cost).toBe(shown);
    }
  });

  it('shows the permalink as website until one is set; "" on create keeps the permalink', async () => {
    const plain = await h.make({ title: 'Site' });
    expect(plain.website).toBe(`${PUBLIC_URL}/event/site/`);
    const empty = await h.make({ title: 'Empty', website: '' });
    expect(empty.website).toBe(`${PUBLIC_URL}/event/empty/`);
    const set = await h.make({ title: 'Set', website: 'https://example.test/a?b=1&c=2' });
    expect(set.website).toBe('https://example.test/a?b=1&c=2');
  });

  it('reads yes/no/on/off/1/0/true/false for every flag; all default to false', async () => {
    const FLAGS = ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'all_day'];
    const off = await h.make();
    for (const flag of FLAGS) expect(off[flag], flag).toBe(false);
    for (const [word, value] of [['yes', true], ['no', false], ['on', true], ['off', false], ['1', true], ['0', false],
      [1, true], [0, false], ['true', true], ['FALSE', false], [true, true]] as const) {
      const created = await h.make(Object.fromEntries(FLAGS.map((flag) => [flag, word])));
      const stored = await h.get(created.id, 'administrator');
      for (const flag of FLAGS) expect(stored.json[flag], `${flag}=${word}`).toBe(value);
    }
  });

  it('stores an image URL as an image record, reused by URL, by id and by its GET object; other ids are 400', async () => {
    const a = await h.make({ image: 'https://img.test/poster.JPG' });
    expect(a.image).toEqual({ url: 'https://img.test/poster.JPG', id: expect.any(Number), extension: 'jpg', sizes: {} });
    const byUrl = await h.make({ image: 'https://img.test/poster.JPG' });
    const byId = await h.make({ image: a.image.id });
    const byIdText = await h.make({ image: String(a.image.id) });
    const byObject = await h.make({ image: a.image });
    for (const other of [byUrl, byId, byIdText, byObject]) expect(other.image).toEqual(a.image);
    expect((await h.get(byObject.id)).json.image).toEqual(a.image);
    const venue = await t().request({
      method: 'POST', url: `${API}/venues`, headers: (await t().user('administrator')).headers, payload: { venue: 'Not an image' },
    });
    for (const image of [venue.json.id, a.id, 999999, 'foo bar', 'ftp://img.test/a.png']) {
      const res = await h.create({ ...GIG, image });
      expect(res.statusCode, String(image)).toBe(400);
      expect(res.json).toEqual(invalid('image'));
    }
  });
});

describeEachDialect('POST /events dates', (t) => {
  const h = helpers(t);
  const times = (e: Record<string, string>) => ({
    start_date: e.start_date, end_date: e.end_date, utc_start_date: e.utc_start_date, utc_end_date: e.utc_end_date,
    timezone: e.timezone, timezone_abbr: e.timezone_abbr,
  });

  it('reads dates as wall-clock time in the event time zone, with UTC right across DST changes', async () => {
    const cases: Array<[string, string, string, string, string, string]> = [
      // zone, start, end, utc start, utc end, abbreviation of the start
      ['America/New_York', '2026-03-08 01:00:00', '2026-03-08 04:00:00', '2026-03-08 06:00:00', '2026-03-08 08:00:00', 'EST'],
      ['America/New_York', '2026-03-08 10:00:00', '2026-03-08 11:00:00', '2026-03-08 14:00:00', '2026-03-08 15:00:00', 'EDT'],
      ['America/New_York', '2026-11-01 00:30:00', '2026-11-01 03:00:00', '2026-11-01 04:30:00', '2026-11-01 08:00:00', 'EDT'],
      ['America/New_York', '2026-11-01 09:00:00', '2026-11-01 10:00:00', '2026-11-01 14:00:00', '2026-11-01 15:00:00', 'EST'],
      ['Europe/Berlin', '2026-03-29 01:00:00', '2026-03-29 12:00:00', '2026-03-29 00:00:00', '2026-03-29 10:00:00', 'CET'],
      ['Europe/Berlin', '2026-03-29 12:00:00', '2026-03-29 13:00:00', '2026-03-29 10:00:00', '2026-03-29 11:00:00', 'CEST'],
      ['Australia/Darwin', '2027-01-10 10:00:00', '2027-01-10 12:00:00', '2027-01-10 00:30:00', '2027-01-10 02:30:00', 'ACST'],
      ['Asia/Kolkata', '2027-01-10 10:00:00', '2027-01-10 12:00:00', '2027-01-10 04:30:00', '2027-01-10 06:30:00', 'IST'],
      // The tz database's letters, which Intl does not give (it printed "+08" and "+03" for these).
      ['Asia/Hong_Kong', '2027-01-10 10:00:00', '2027-01-10 12:00:00', '2027-01-10 02:00:00', '2027-01-10 04:00:00', 'HKT'],
      ['Asia/Hong_Kong', '2027-07-10 10:00:00', '2027-07-10 12:00:00', '2027-07-10 02:00:00', '2027-07-10 04:00:00', 'HKT'],
      ['Europe/Moscow', '2027-07-10 10:00:00', '2027-07-10 12:00:00', '2027-07-10 07:00:00', '2027-07-10 09:00:00', 'MSK'],
      ['Europe/London', '2027-01-10 10:00:00', '2027-01-10 12:00:00', '2027-01-10 10:00:00', '2027-01-10 12:00:00', 'GMT'],
      ['Europe/London', '2027-07-10 10:00:00', '2027-07-10 12:00:00', '2027-07-10 09:00:00', '2027-07-10 11:00:00', 'BST'],
      ['Australia/Sydney', '2027-01-10 10:00:00', '2027-01-10 12:00:00', '2027-01-09 23:00:00', '2027-01-10 01:00:00', 'AEDT'],
      ['Australia/Sydney', '2027-07-10 10:00:00', '2027-07-10 12:00:00', '2027-07-10 00:00:00', '2027-07-10 02:00:00', 'AEST'],
      // Zones whose tzdb entry has numbers only keep them, as PHP prints them.
      ['America/Sao_Paulo', '2027-01-10 10:00:00', '2027-01-10 12:00:00', '2027-01-10 13:00:00', '2027-01-10 15:00:00', '-03'],
      ['America/Sao_Paulo', '2027-07-10 10:00:00', '2027-07-10 12:00:00', '2027-07-10 13:00:00', '2027-07-10 15:00:00', '-03'],
      ['Asia/Kathmandu', '2027-07-10 10:00:00', '2027-07-10 12:00:00', '2027-07-10 04:15:00', '2027-07-10 06:15:00', '+0545'],
      ['Asia/Dubai', '2027-01-10 10:00:00', '2027-01-10 12:00:00', '2027-01-10 06:00:00', '2027-01-10 08:00:00', '+04'],
    ];
    for (const [timezone, start, end, utcStart, utcEnd, abbr] of cases) {
      const created = await h.make({ start_date: start, end_date: end, timezone });
      const expected = { start_date: start, end_date: end, utc_start_date: utcStart, utc_end_date: utcEnd, timezone, timezone_abbr: abbr };
      expect(times(created), `${timezone} ${start}`).toEqual(expected);
      const stored = await h.get(created.id);
      expect(times(stored.json)).toEqual(expected);
      expect(stored.json.utc_start_date_details).toEqual(details(utcStart));
    }
  });

  it('moves a time skipped by DST forward and reads a repeated one in the first offset, as PHP does', async () => {
    const skipped = await h.make({ start_date: '2026-03-08 02:30:00', end_date: '2026-03-08 02:45:00', timezone: 'America/New_York' });
    expect(times(skipped)).toMatchObject({ start_date: '2026-03-08 03:30:00', utc_start_date: '2026-03-08 07:30:00', timezone_abbr: 'EDT' });
    const repeated = await h.make({ start_date: '2026-11-01 01:30:00', end_date: '2026-11-01 01:45:00', timezone: 'America/New_York' });
    expect(times(repeated)).toMatchObject({ start_date: '2026-11-01 01:30:00', utc_start_date: '2026-11-01 05:30:00', timezone_abbr: 'EDT' });
  });

  it('takes UTC offsets and zone names in any case, shown in their IANA spelling', async () => {
    const cases: Array<[string, string, string, string]> = [
      // sent, shown, abbreviation, utc of 2027-01-10 20:00
      ['UTC+5', 'UTC+5', '+05', '2027-01-10 15:00:00'],
      ['UTC-03:30', 'UTC-03:30', '-0330', '2027-01-10 23:30:00'],
      ['UTC+14', 'UTC+14', '+14', '2027-01-10 06:00:00'],
      ['america/new_york', 'America/New_York', 'EST', '2027-01-11 01:00:00'],
      ['utc', 'UTC', 'UTC', '2027-01-10 20:00:00'],
      ['US/Eastern', 'US/Eastern', 'EST', '2027-01-11 01:00:00'],
    ];
    for (const [sent, timezone, abbr, utc] of cases) {
      const created = await h.make({ start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 21:00:00', timezone: sent });
      expect(times(created), sent).toMatchObject({ timezone, timezone_abbr: abbr, start_date: '2027-01-10 20:00:00', utc_start_date: utc });
    }
  });

  it('reads natural-language dates in the event time zone', async () => {
    for (const timezone of ['America/New_York', 'Asia/Tokyo', 'Pacific/Auckland', 'UTC']) {
      const expected = () => {
        const today = DateTime.now().setZone(timezone).startOf('day');
        const nextWednesday = today.plus({ days: (3 - today.weekday + 7) % 7 || 7 });
        return [today.plus({ days: 1 }).set({ hour: 9 }), nextWednesday.set({ hour: 16 })].map((d) => d.toFormat(SQL));
      };
      const before = expected();
      const created = await h.make({ start_date: 'tomorrow 9am', end_date: 'next wednesday 4pm', timezone });
      // A day may turn between the two computations; the result must match one of them.
      expect([before, expected()], timezone).toContainEqual([created.start_date, created.end_date]);
      const utc = DateTime.fromFormat(created.start_date, SQL, { zone: timezone }).toUTC().toFormat(SQL);
      expect(created.utc_start_date).toBe(utc);
    }
  });

  it('reads relative amounts (+1 week) from now', async () => {
    for (const timezone of ['Europe/Berlin', 'America/Los_Angeles']) {
      // A week is seven local days: across a DST change it is not 168 hours.
      const aWeekFromNow = () => DateTime.now().setZone(timezone).plus({ weeks: 1 }).toUTC();
      const from = aWeekFromNow().startOf('second');
      const created = await h.make({ start_date: '+1 week', end_date: '+1 week 2 hours', timezone });
      const to = aWeekFromNow();
      const start = DateTime.fromFormat(created.utc_start_date, SQL, { zone: 'UTC' });
      expect(start >= from && start <= to, created.utc_start_date).toBe(true);
      const end = DateTime.fromFormat(created.utc_end_date, SQL, { zone: 'UTC' });
      expect(end.diff(start, 'hours').hours).toBe(2);
      expect(DateTime.fromFormat(created.start_date, SQL, { zone: timezone }).toUTC().toFormat(SQL)).toBe(created.utc_start_date);
    }
  });

  it('takes ISO 8601 with an offset and Unix timestamps as instants, shown in the event time zone', async () => {
    const iso = await h.make({ start_date: '2027-03-05T19:00:00+02:00', end_date: '2027-03-05T18:00:00Z', timezone: 'Europe/Berlin' });
    expect(times(iso)).toEqual({
      start_date: '2027-03-05 18:00:00', end_date: '2027-03-05 19:00:00', utc_start_date: '2027-03-05 17:00:00',
      utc_end_date: '2027-03-05 18:00:00', timezone: 'Europe/Berlin', timezone_abbr: 'CET',
    });
    const tokyo = await h.make({ start_date: '2027-03-05T18:00:00Z', end_date: '2027-03-05T20:00:00.000Z', timezone: 'Asia/Tokyo' });
    expect(times(tokyo)).toMatchObject({ start_date: '2027-03-06 03:00:00', end_date: '2027-03-06 05:00:00', timezone_abbr: 'JST' });
    const stamp = await h.make({ start_date: '1800000000', end_date: '1800003600', timezone: 'America/New_York' });
    const instant = DateTime.fromSeconds(1800000000, { zone: 'UTC' });
    expect(stamp.utc_start_date).toBe(instant.toFormat(SQL));
    expect(stamp.start_date).toBe(instant.setZone('America/New_York').toFormat(SQL));
  });

  it('runs all-day events from 00:00:00 of the first day to 23:59:59 of the last, local', async () => {
    const dst = await h.make({ start_date: '2026-03-08 15:00', end_date: '2026-03-08', all_day: true, timezone: 'America/New_York' });
    expect(times(dst)).toEqual({
      start_date: '2026-03-08 00:00:00', end_date: '2026-03-08 23:59:59', utc_start_date: '2026-03-08 05:00:00',
      utc_end_date: '2026-03-09 03:59:59', timezone: 'America/New_York', timezone_abbr: 'EST',
    });
    expect(dst.all_day).toBe(true);
    const multi = await h.make({ start_date: '2027-03-10', end_date: '2027-03-12 10:00', all_day: 'yes' });
    expect(times(multi)).toMatchObject({
      start_date: '2027-03-10 00:00:00', end_date: '2027-03-12 23:59:59', utc_start_date: '2027-03-10 00:00:00', utc_end_date: '2027-03-12 23:59:59',
    });
    expect(multi.end_date_details).toEqual(details('2027-03-12 23:59:59'));
  });

  it('moves an end before the start to the start, local and UTC', async () => {
    const created = await h.make({ start_date: '2027-01-02 10:00:00', end_date: '2027-01-01 09:00:00', timezone: 'America/New_York' });
    expect(times(created)).toMatchObject({
      start_date: '2027-01-02 10:00:00', end_date: '2027-01-02 10:00:00', utc_start_date: '2027-01-02 15:00:00', utc_end_date: '2027-01-02 15:00:00',
    });
    const moved = await h.update(created.id, { end_date: '2026-12-31 10:00:00' });
    expect(times(moved.json)).toMatchObject({ end_date: '2027-01-02 10:00:00', utc_end_date: '2027-01-02 15:00:00' });
  });

  it('keeps the wall-clock time and moves UTC when only the time zone changes (Australia/Darwin, then Europe/Paris)', async () => {
    const created = await h.make({ start_date: '2027-01-10 10:00:00', end_date: '2027-01-10 12:00:00', timezone: 'Australia/Darwin' });
    expect(created.utc_start_date).toBe('2027-01-10 00:30:00');
    const moved = await h.update(created.id, { timezone: 'Europe/Paris' });
    expect(moved.statusCode).toBe(200);
    expect(times(moved.json)).toEqual({
      start_date: '2027-01-10 10:00:00', end_date: '2027-01-10 12:00:00', utc_start_date: '2027-01-10 09:00:00',
      utc_end_date: '2027-01-10 11:00:00', timezone: 'Europe/Paris', timezone_abbr: 'CET',
    });
    // The reference's own test sends the same start string along with the zone.
    const back = await h.update(created.id, { start_date: '2027-01-10 10:00:00', timezone: 'Australia/Darwin' });
    expect(times(back.json)).toMatchObject({ start_date: '2027-01-10 10:00:00', utc_start_date: '2027-01-10 00:30:00', utc_end_date: '2027-01-10 02:30:00' });
    expect(times((await h.get(created.id)).json)).toEqual(times(back.json));
  });
});

describeEachDialect('POST /events in a site time zone', (t) => {
  const h = helpers(t);

  it('reads dates without a timezone in the site zone and saves the event with it', async () => {
    const winter = await h.make({ start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00' });
    expect(winter).toMatchObject({ timezone: 'America/New_York', timezone_abbr: 'EST', utc_start_date: '2027-01-11 01:00:00', utc_end_date: '2027-01-11 04:00:00' });
    const summer = await h.make({ start_date: '2027-07-10 20:00:00', end_date: '2027-07-10 23:00:00', timezone: '' });
    expect(summer).toMatchObject({ timezone: 'America/New_York', timezone_abbr: 'EDT', utc_start_date: '2027-07-11 00:00:00' });
    const other = await h.make({ start_date: '2027-07-10 20:00:00', end_date: '2027-07-10 23:00:00', timezone: 'Europe/Berlin' });
    expect(other).toMatchObject({ timezone: 'Europe/Berlin', timezone_abbr: 'CEST', utc_start_date: '2027-07-10 18:00:00' });
  });

  it('reads natural-language dates in the site zone', async () => {
    const expected = () => DateTime.now().setZone('America/New_York').startOf('day').plus({ days: 1 }).set({ hour: 9 }).toFormat(SQL);
    const before = expected();
    const created = await h.make({ start_date: 'tomorrow 9am', end_date: 'tomorrow 5pm' });
    expect([before, expected()]).toContain(created.start_date);
    expect(created.end_date.slice(11)).toBe('17:00:00');
  });

  it('shows date and modified in site time and reads date input in the site zone', async () => {
    const created = await h.make({ date: '2026-01-15 10:00:00' });
    expect(created).toMatchObject({ date: '2026-01-15 10:00:00', date_utc: '2026-01-15 15:00:00' });
    const utc = DateTime.fromFormat(created.modified_utc, SQL, { zone: 'UTC' });
    expect(created.modified).toBe(utc.setZone('America/New_York').toFormat(SQL));
    const byUtc = await h.make({ date_utc: '2026-07-15 10:00:00' });
    expect(byUtc).toMatchObject({ date: '2026-07-15 06:00:00', date_utc: '2026-07-15 10:00:00' });
  });

  it('changes nothing when a GET body is sent back', async () => {
    const created = await h.make({ date: '2026-07-15 22:30:00', all_day: true, organizer: { organizer: 'O' } });
    await t().database.db.updateTable('event').set({ modified_local: '2001-01-01 00:00:00', modified_utc: '2001-01-01 05:00:00' }).execute();
    const before = (await h.get(created.id)).json;
    expect((await h.update(created.id, before, 'administrator', 'PUT')).statusCode).toBe(200);
    expect((await h.get(created.id)).json).toEqual(before);
  });
}, { CAL_TIMEZONE: 'America/New_York' });

describeEachDialect('POST /events categories and tags', (t) => {
  const h = helpers(t);
  const names = (terms: Array<{ name: string }>) => terms.map((term) => term.name);

  it('takes terms by id, slug or name, as an array or CSV; unknown names are created once and reused', async () => {
    const first = await h.make({ categories: ['Live Music', 'Outdoor'], tags: 'jazz, Late Night' });
    expect(names(first.categories)).toEqual(['Live Music', 'Outdoor']);
    expect(first.categories.map((c: { slug: string }) => c.slug)).toEqual(['live-music', 'outdoor']);
    expect(names(first.tags)).toEqual(['jazz', 'Late Night']);
    const [music, outdoor] = first.categories;
    const reused = [
      { categories: [music.id, outdoor.id] },
      { categories: `${music.id},${outdoor.id}` },
      { categories: ['live-music', 'OUTDOOR'] },
      { categories: 'live music,outdoor' },
      { categories: [String(music.id), 'Outdoor', 'outdoor'] },
      { categories: first.categories },
    ];
    for (const body of reused) {
      const created = await h.make(body);
      expect(created.categories.map((c: { id: number }) => c.id), JSON.stringify(body.categories)).toEqual([music.id, outdoor.id]);
    }
    const both = await h.make({ tags: ['JAZZ', 'late-night', 'jazz'] });
    expect(both.tags.map((c: { id: number }) => c.id)).toEqual(first.tags.map((c: { id: number }) => c.id));
    const totals = await h.totals();
    expect([totals.categories, totals.tags]).toEqual([2, 2]);
  });

  it('orders embedded terms by name and counts published events only', async () => {
    const first = await h.make({ tags: ['zeta', 'Alpha', 'mid'], categories: ['B', 'a'] });
    expect(names(first.tags)).toEqual(['Alpha', 'mid', 'zeta']);
    expect(names(first.categories)).toEqual(['a', 'B']);
    expect(first.tags.map((tag: { count: number }) => tag.count)).toEqual([1, 1, 1]);
    await h.make({ tags: ['zeta'] });
    await h.make({ tags: ['zeta', 'mid'], status: 'draft' });
    const stored = await h.get(first.id);
    expect(stored.json.tags.map((tag: { name: string; count: number }) => [tag.name, tag.count])).toEqual([['Alpha', 1], ['mid', 1], ['zeta', 2]]);
  });

  it('takes term objects by id, slug or name; an object naming none is 400', async () => {
    const first = await h.make({ categories: ['Music'] });
    const created = await h.make({ categories: [{ slug: 'music' }, { name: 'Outdoor' }, { id: first.categories[0].id }] });
    expect(names(created.categories)).toEqual(['Music', 'Outdoor']);
    const res = await h.create({ ...GIG, categories: [{ description: 'x' }] });
    expect(res.json).toEqual(invalid('categories'));
  });

  it('answers 400 for an id that is no term of the taxonomy, and creates nothing', async () => {
    const tagged = await h.make({ tags: ['kept'] });
    const before = await h.totals();
    for (const body of [{ categories: [999999] }, { categories: 'New one,999999' }, { tags: [tagged.tags[0].id + 1000] }, { categories: [tagged.tags[0].id] }]) {
      const res = await h.create({ ...GIG, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json).toEqual(invalid(Object.keys(body)[0]));
    }
    // The ids are checked together; the first unknown one is named.
    const res = await h.create({ ...GIG, categories: ['Newer', 999998, tagged.tags[0].id, 999997] });
    expect(res.json.data.params).toEqual({ categories: 'No categories term has the id 999998.' });
    expect(await h.totals()).toEqual(before);
  });

  it('keeps terms an update does not send and clears them with an empty value', async () => {
    const created = await h.make({ categories: ['Music'], tags: ['a', 'b'] });
    const kept = await h.update(created.id, { title: 'Renamed' });
    expect([names(kept.json.categories), names(kept.json.tags)]).toEqual([['Music'], ['a', 'b']]);
    const replaced = await h.update(created.id, { tags: 'c' });
    expect([names(replaced.json.categories), names(replaced.json.tags)]).toEqual([['Music'], ['c']]);
    const cleared = await h.update(created.id, { categories: '', tags: [] });
    expect([cleared.json.categories, cleared.json.tags]).toEqual([[], []]);
    expect((await h.get(created.id)).json.categories).toEqual([]);
  });
});

describeEachDialect('POST /events venue and organizers', (t) => {
  const h = helpers(t);
  const linked = async (plural: 'venues' | 'organizers', payload: Record<string, unknown>) => {
    const admin = await t().user('administrator');
    const res = await t().request({ method: 'POST', url: `${API}/${plural}`, headers: admin.headers, payload });
    expect(res.statusCode).toBe(201);
    return res.json as { id: number };
  };
  const ids = (organizers: Array<{ id: number }>) => organizers.map((o) => o.id);

  it('links a venue by id, {id} or its GET object, creates one from fields and reuses a duplicate', async () => {
    const hall = await linked('venues', { venue: 'Hall', city: 'Bonn' });
    for (const venue of [hall.id, String(hall.id), { id: hall.id }, [hall.id], hall]) {
      const created = await h.make({ venue });
      expect(created.venue, JSON.stringify(venue)).toEqual(hall);
    }
    const inline = await h.make({ venue: { venue: 'Blue Room', address: 'Hauptstr. 1' } });
    expect(inline.venue).toMatchObject({ venue: 'Blue Room', address: 'Hauptstr. 1', slug: 'blue-room', status: 'publish' });
    const duplicate = await h.make({ venue: { venue: 'blue room' } });
    expect(duplicate.venue.id).toBe(inline.venue.id);
    expect((await h.totals()).venues).toBe(2);
  });

  it('keeps the venue an update does not send and removes it with 0, "" or []', async () => {
    const hall = await linked('venues', { venue: 'Hall' });
    for (const empty of [0, '', [], '0']) {
      const created = await h.make({ venue: hall.id });
      const kept = await h.update(created.id, { title: 'Other' });
      expect(kept.json.venue.id).toBe(hall.id);
      const removed = await h.update(created.id, { venue: empty });
      expect(removed.statusCode).toBe(200);
      expect(removed.json.venue, JSON.stringify(empty)).toEqual([]);
      expect((await h.get(created.id)).json.venue).toEqual([]);
    }
    expect((await h.totals()).venues).toBe(1);
  });

  it('answers 400 for a venue id that is no venue, a trashed venue, or fields without a name', async () => {
    const organizer = await linked('organizers', { organizer: 'Not a venue' });
    const trashed = await linked('venues', { venue: 'Gone' });
    const admin = await t().user('administrator');
    await t().request({ method: 'DELETE', url: `${API}/venues/${trashed.id}`, headers: admin.headers });
    for (const venue of [999999, organizer.id, trashed.id, { id: 999999 }, { city: 'Bonn' }, { venue: '' }, -1]) {
      const res = await h.create({ ...GIG, venue });
      expect(res.statusCode, JSON.stringify(venue)).toBe(400);
      expect(res.json).toEqual(invalid('venue'));
    }
    expect((await h.totals()).events).toBe(0);
  });

  it('is atomic: an invalid inline venue, organizer or term creates no event, venue, organizer or term', async () => {
    const payloads = [
      { venue: { venue: 'V', website: 'not a url' }, organizer: [{ organizer: 'O' }], categories: ['C'], tags: ['T'] },
      { venue: { venue: 'V' }, organizer: [{ organizer: 'O' }, { organizer: 'P', website: 'nope' }], categories: ['C'] },
      { venue: { venue: 'V' }, organizer: [{ organizer: 'O' }], categories: ['C'], tags: ['T', 999999] },
      { venue: { venue: 'V' }, organizer: [{ organizer: 'O' }], categories: ['C'], cost: { bad: 1 } },
    ];
    for (const payload of payloads) {
      const res = await h.create({ ...GIG, image: 'https://img.test/a.png', ...payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json.code).toBe('rest_invalid_param');
      expect(await h.totals()).toEqual(NOTHING);
    }
  });

  it('links organizers from ids, CSV, {id} objects, field objects, one object or a mix, in the order given', async () => {
    const a = await linked('organizers', { organizer: 'A' });
    const b = await linked('organizers', { organizer: 'B' });
    const cases: Array<[unknown, number[] | string[]]> = [
      [a.id, [a.id]],
      [`${b.id},${a.id}`, [b.id, a.id]],
      [[b.id, a.id], [b.id, a.id]],
      [[String(a.id), String(b.id)], [a.id, b.id]],
      [[{ id: b.id }, { id: a.id }], [b.id, a.id]],
      [{ id: a.id }, [a.id]],
      [[a, b], [a.id, b.id]],
      [[b.id, a.id, b.id], [b.id, a.id]],
    ];
    for (const [organizer, expected] of cases) {
      const created = await h.make({ organizer });
      expect(ids(created.organizer), JSON.stringify(organizer)).toEqual(expected);
      expect(ids((await h.get(created.id)).json.organizer)).toEqual(expected);
    }
    const solo = await h.make({ organizer: { organizer: 'Solo', email: 'solo@example.test' } });
    expect(solo.organizer).toEqual([expect.objectContaining({ organizer: 'Solo', email: 'solo@example.test' })]);
    const mix = await h.make({ organizer: [{ organizer: 'C' }, a.id, { id: b.id }, { organizer: 'solo' }] });
    expect(mix.organizer.map((o: { organizer: string }) => o.organizer)).toEqual(['C', 'A', 'B', 'Solo']);
    expect((await h.totals()).organizers).toBe(4);
  });

  it('answers 400 for an unknown organizer id or an entry without id and name', async () => {
    const a = await linked('organizers', { organizer: 'A' });
    for (const organizer of [999999, `${a.id},999999`, [{ phone: '1' }], [{ id: 999999 }], { email: 'x@example.test' }]) {
      const res = await h.create({ ...GIG, organizer });
      expect(res.statusCode, JSON.stringify(organizer)).toBe(400);
      expect(res.json).toEqual(invalid('organizer'));
    }
    // The ids are checked together; the first that is no live organizer is named, and nothing is stored.
    const b = await linked('organizers', { organizer: 'B' });
    await t().request({ method: 'DELETE', url: `${API}/organizers/${b.id}`, headers: (await t().user('administrator')).headers });
    const before = await h.totals();
    const res = await h.create({ ...GIG, organizer: [{ organizer: 'New' }, a.id, b.id, 999998, a.id] });
    expect(res.json.data.params).toEqual({ organizer: `No organizer has the id ${b.id}.` });
    expect(await h.totals()).toEqual(before);
  });

  it('keeps organizers an update does not send, replaces or removes them, and loses only a trashed one', async () => {
    const a = await linked('organizers', { organizer: 'A' });
    const b = await linked('organizers', { organizer: 'B' });
    const c = await linked('organizers', { organizer: 'C' });
    const created = await h.make({ organizer: [a.id, b.id, c.id] });
    expect(ids((await h.update(created.id, { title: 'Kept' })).json.organizer)).toEqual([a.id, b.id, c.id]);
    const admin = await t().user('administrator');
    const trashed = await t().request({ method: 'DELETE', url: `${API}/organizers/${b.id}`, headers: admin.headers });
    expect(trashed.statusCode).toBe(200);
    expect(ids((await h.get(created.id)).json.organizer)).toEqual([a.id, c.id]);
    expect(ids((await h.update(created.id, { organizer: [c.id, a.id] })).json.organizer)).toEqual([c.id, a.id]);
    const removed = await h.update(created.id, { organizer: [] });
    expect(removed.json.organizer).toEqual([]);
    expect((await h.get(created.id)).json.organizer).toEqual([]);
  });
});

describeEachDialect('POST /events form-encoded', (t) => {
  const h = helpers(t);

  it('reads PHP brackets for venue, organizers, cost and terms', async () => {
    const admin = await t().user('administrator');
    const body = [
      'title=Form+Night', 'start_date=2027-05-01+19:00', 'end_date=2027-05-01+22:00', 'timezone=Europe/Berlin',
      'venue[venue]=Hall&venue[city]=Bonn', 'organizer[0][organizer]=A&organizer[1][organizer]=B&organizer[1][phone]=555',
      'cost[]=0$&cost[]=20$', 'categories[]=Music&categories[]=Outdoor', 'tags=x,y', 'featured=yes&show_map=on&sticky=0',
    ].join('&');
    const res = await t().request({ method: 'POST', url: EVENTS, headers: { ...admin.headers, ...FORM }, payload: body });
    expect(res.statusCode, JSON.stringify(res.json)).toBe(201);
    expect(res.json).toMatchObject({
      title: 'Form Night', start_date: '2027-05-01 19:00:00', utc_start_date: '2027-05-01 17:00:00', cost: `Free${DASH}20$`,
      featured: true, show_map: true, sticky: false, venue: { venue: 'Hall', city: 'Bonn' },
      organizer: [{ organizer: 'A' }, { organizer: 'B', phone: '555' }],
    });
    expect(res.json.cost_details.values).toEqual(['0', '20']);
    expect(res.json.categories.map((c: { name: string }) => c.name)).toEqual(['Music', 'Outdoor']);
    expect(res.json.tags.map((c: { name: string }) => c.name)).toEqual(['x', 'y']);
    const update = await t().request({
      method: 'POST', url: `${EVENTS}/${res.json.id}`, headers: { ...admin.headers, ...FORM },
      payload: `organizer[]=${res.json.organizer[1].id}&venue=&cost=`,
    });
    expect(update.json).toMatchObject({ venue: [], cost: '', organizer: [{ organizer: 'B' }], featured: true });
  });

  it('takes write parameters from the query string, the body winning', async () => {
    const admin = await t().user('administrator');
    const res = await t().request({
      method: 'POST', url: `${EVENTS}?title=Query&start_date=2027-05-01&end_date=2027-05-02&featured=1`,
      headers: { ...admin.headers, ...FORM }, payload: 'title=Body',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json).toMatchObject({ title: 'Body', start_date: '2027-05-01 00:00:00', featured: true });
  });
});

describeEachDialect('POST/PUT/PATCH /events/{id} and /events/by-slug/{slug}', (t) => {
  const h = helpers(t);
  const RICH = {
    title: 'Rich', description: 'About it', excerpt: 'Short', start_date: '2027-03-10', end_date: '2027-03-11',
    all_day: true, timezone: 'America/New_York', cost: ['10$', '25$'], website: 'https://example.test/rich',
    show_map: true, show_map_link: true, hide_from_listings: true, sticky: true, featured: true,
    status: 'draft', image: 'https://img.test/rich.png', venue: { venue: 'Hall' },
    organizer: [{ organizer: 'A' }, { organizer: 'B' }], categories: ['Music'], tags: ['x', 'y'],
  };
  /** Backdates `modified`, so that a write that touches the row shows (stamps have whole seconds). */
  const age = (id: number) =>
    t().database.db.updateTable('event').set({ modified_local: '2001-01-01 00:00:00', modified_utc: '2001-01-01 00:00:00' }).where('id', '=', id).execute();
  const without = (record: Record<string, unknown>, ...keys: string[]) =>
    Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
  /** A single read without its json_ld parts: what a write answers. */
  const asWritten = (record: Record<string, any>) => ({
    ...without(record, 'json_ld'),
    venue: Array.isArray(record.venue) ? record.venue : without(record.venue, 'json_ld'),
    organizer: record.organizer.map((o: Record<string, unknown>) => without(o, 'json_ld')),
  });

  it('changes only what was sent, by id and by slug, with POST, PUT and PATCH (API.md §5.1)', async () => {
    const created = await h.make(RICH);
    const before = (await h.get(created.id, 'administrator')).json;
    let n = 0;
    for (const ref of [created.id, created.slug]) {
      for (const method of ['POST', 'PUT', 'PATCH'] as const) {
        n += 1;
        const res = await h.update(ref, { title: `Rich ${n}` }, 'administrator', method);
        expect(res.statusCode, `${method} ${ref}`).toBe(200);
        expect(res.json).not.toHaveProperty('json_ld');
        const stored = (await h.get(created.id, 'administrator')).json;
        expect(stored.title).toBe(`Rich ${n}`);
        const ignored = ['title', 'modified', 'modified_utc', 'json_ld'];
        expect(without(stored, ...ignored), `${method} ${ref}`).toEqual(without(before, ...ignored));
        expect(without(res.json, ...ignored)).toEqual(without(asWritten(before), ...ignored));
      }
    }
    expect(before).toMatchObject({ status: 'draft', all_day: true, sticky: true, hide_from_listings: true, cost: `10$${DASH}25$` });
  });

  it('updates each field on its own and clears with explicit empty values', async () => {
    const created = await h.make(RICH);
    const steps: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ status: 'publish' }, { status: 'publish' }],
      [{ featured: 'no', sticky: 0 }, { featured: false, sticky: false, show_map: true, hide_from_listings: true }],
      [{ all_day: false }, { all_day: false, start_date: '2027-03-10 00:00:00', end_date: '2027-03-11 23:59:59' }],
      [{ start_date: '2027-03-10 18:00' }, { start_date: '2027-03-10 18:00:00', end_date: '2027-03-11 23:59:59', utc_start_date: '2027-03-10 23:00:00' }],
      [{ cost: 'Free' }, { cost: 'Free', cost_details: { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['0'] } }],
      [{ website: '' }, { website: '' }],
      [{ cost: '' }, { cost: '', cost_details: noCostDetails }],
      [{ description: '', excerpt: '' }, { description: '', excerpt: '' }],
      [{ image: false }, { image: false }],
      [{ venue: 0, organizer: [], categories: '', tags: [] }, { venue: [], organizer: [], categories: [], tags: [] }],
      [{ slug: 'New Slug' }, { slug: 'new-slug', url: `${PUBLIC_URL}/event/new-slug/` }],
      [{ timezone: '' }, { timezone: 'UTC', start_date: '2027-03-10 18:00:00', utc_start_date: '2027-03-10 18:00:00' }],
    ];
    for (const [body, expected] of steps) {
      const res = await h.update(created.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
      expect(res.json, JSON.stringify(body)).toMatchObject(expected);
      expect((await h.get(created.id)).json).toMatchObject(expected);
    }
    expect((await h.get('new-slug')).json.id).toBe(created.id);
  });

  it('keeps its own slug when renamed to a taken one, and takes a free one', async () => {
    await h.make({ title: 'Same' });
    const second = await h.make({ title: 'Same' });
    expect(second.slug).toBe('same-2');
    expect((await h.update(second.id, { slug: 'same' })).json.slug).toBe('same-2');
    expect((await h.update(second.id, { slug: 'Other Name' })).json.slug).toBe('other-name');
    expect((await h.update(second.id, { title: 'Renamed' })).json.slug).toBe('other-name');
  });

  it('changes nothing, modified included, when a GET body is sent back (API.md §5.2)', async () => {
    for (const payload of [RICH, { ...RICH, status: 'publish', all_day: false, website: undefined, cost: '15', timezone: 'Asia/Kolkata' }, GIG]) {
      const created = await h.make(payload);
      await age(created.id);
      const before = (await h.get(created.id, 'administrator')).json;
      for (const method of ['PUT', 'POST', 'PATCH'] as const) {
        const res = await h.update(created.id, before, 'administrator', method);
        expect(res.statusCode, method).toBe(200);
        expect((await h.get(created.id, 'administrator')).json, `${method} ${payload.title}`).toEqual(before);
      }
      // The record a write answers with round-trips too.
      const written = asWritten(before);
      expect((await h.update(created.id, written)).json).toEqual(written);
    }
  });

  it('moves modified when only links change, and only then', async () => {
    const created = await h.make({ tags: ['a'], organizer: [{ organizer: 'A' }] });
    for (const body of [{ tags: ['b'] }, { organizer: [] }, { categories: 'New' }, { venue: { venue: 'Hall' } }]) {
      await age(created.id);
      const res = await h.update(created.id, body);
      expect(res.json.modified_utc, JSON.stringify(body)).not.toBe('2001-01-01 00:00:00');
      expect((await h.get(created.id)).json.modified_utc).toBe(res.json.modified_utc);
    }
    await age(created.id);
    const same = await h.update(created.id, { tags: 'b', organizer: '', categories: ['new'], venue: { venue: 'hall' } });
    expect(same.json.modified_utc).toBe('2001-01-01 00:00:00');
  });

  it('ignores generated fields a client sends', async () => {
    const created = await h.make({ timezone: 'Europe/Berlin', cost: '15' });
    await age(created.id);
    const before = (await h.get(created.id)).json;
    const res = await h.update(created.id, {
      id: 999, url: 'https://evil.test/', rest_url: 'https://evil.test/', global_id: 'evil.test?id=1', global_id_lineage: [],
      utc_start_date: '2000-01-01 00:00:00', utc_end_date: '2000-01-01 00:00:00', timezone_abbr: 'XYZ',
      start_date_details: { year: '1999' }, cost_details: { currency_symbol: '€', values: ['99'] }, modified: '1999-01-01 00:00:00',
      json_ld: { name: 'x' }, custom_fields: { a: 1 },
    });
    expect(res.statusCode).toBe(200);
    expect((await h.update(created.id, {}, 'administrator', 'PATCH')).statusCode).toBe(200);
    expect((await h.get(created.id)).json).toEqual(before);
  });

  it('answers 404 rest-event-not-found for an unknown id or slug', async () => {
    const byId = await h.update(999999, { title: 'x' });
    expect(byId.statusCode).toBe(404);
    expect(byId.json).toEqual({ code: 'rest-event-not-found', message: 'Event with ID 999999 does not exist.', data: { status: 404 } });
    const bySlug = await h.update('no-such-event', { title: 'x' }, 'administrator', 'PATCH');
    expect(bySlug.statusCode).toBe(404);
    expect(bySlug.json.code).toBe('rest-event-not-found');
  });

  it('validates update values like create ones and keeps the stored record', async () => {
    const created = await h.make();
    const before = (await h.get(created.id)).json;
    for (const [name, value] of [['title', ''], ['start_date', 'whenever'], ['timezone', 'Nowhere/City'], ['website', 'foo'],
      ['status', 'archived'], ['featured', 'maybe'], ['cost', { a: 1 }], ['venue', 999999], ['organizer', [999999]],
      ['categories', [999999]], ['author', 999999], ['image', 'nope']] as const) {
      const res = await h.update(created.id, { title: 'Changed', [name]: value });
      expect(res.statusCode, name).toBe(400);
      expect(res.json).toEqual(invalid(name));
    }
    expect((await h.get(created.id)).json).toEqual(before);
  });
});
