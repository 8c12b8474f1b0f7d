import { DateTime } from 'luxon';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { countingDb } from '../helpers/counting-db.ts';
import type { Role } from '../../src/users/roles.ts';
import { API, API_URL, describeEachDialect, PUBLIC_URL, type TestContext } from '../helpers/test-app.ts';

const EVENTS = `${API}/events`;
const EVENTS_URL = `${API_URL}/events/`;
const SQL = 'yyyy-MM-dd HH:mm:ss';
/** Far from today: lists of these events name their window, so the default one never matters. */
const IN_2040 = { start_date: '2040-01-01', end_date: '2040-12-31' };
const ECHO_2040 = { start_date: '2040-01-01 00:00:00', end_date: '2040-12-31 23:59:59' };

type Query = Record<string, string | number | boolean>;
type Fields = Record<string, unknown>;
type ListResponse = Awaited<ReturnType<TestContext['request']>>;

const sqlText = (dt: DateTime) => dt.toFormat(SQL);
/** `minutes` after a `YYYY-MM-DD HH:MM:SS` wall-clock time (wall-clock arithmetic, no zone). */
const after = (start: string, minutes: number) => sqlText(DateTime.fromFormat(start, SQL, { zone: 'UTC' }).plus({ minutes }));
const titles = (res: ListResponse): string[] => res.json.events.map((e: { title: string }) => e.title);

/** A list link as `{base, ...query}`, so assertions read every parameter without depending on their order. */
function linkOf(url: string | undefined): Record<string, string> | undefined {
  if (url === undefined) return undefined;
  const [base, query = ''] = url.split('?');
  return { base, ...Object.fromEntries(new URLSearchParams(query)) };
}

/** Path and query of an absolute link, to follow it through app.inject. */
const pathOf = (url: string) => url.slice(PUBLIC_URL.length);

function listing(res: ListResponse, expected: { titles: string[]; total?: number; pages?: number }) {
  expect(res.statusCode, JSON.stringify(res.json)).toBe(200);
  expect(titles(res)).toEqual(expected.titles);
  const total = expected.total ?? expected.titles.length;
  const pages = expected.pages ?? (total === 0 ? 0 : 1);
  expect(res.json.total).toBe(total);
  expect(res.json.total_pages).toBe(pages);
  expect(res.headers['x-tec-total']).toBe(String(total));
  expect(res.headers['x-tec-totalpages']).toBe(String(pages));
}

function invalid(res: ListResponse, params: string[], code = 'rest_invalid_param') {
  expect(res.statusCode, JSON.stringify(res.json)).toBe(400);
  expect(res.json.code).toBe(code);
  expect(res.json.data.status).toBe(400);
  expect(Object.keys(res.json.data.params).sort()).toEqual([...params].sort());
}

function helpers(t: () => TestContext) {
  async function create(fields: Fields, role: Role = 'administrator') {
    const user = await t().user(role);
    const res = await t().request({ method: 'POST', url: EVENTS, headers: user.headers, payload: fields });
    expect(res.statusCode, JSON.stringify(res.json)).toBe(201);
    return res.json as { id: number; title: string; [key: string]: any };
  }
  /** An event starting at `start` (wall-clock, site zone unless `timezone` is sent) lasting `minutes`. */
  const event = (title: string, start: string, minutes = 60, fields: Fields = {}) =>
    create({ title, start_date: start, end_date: after(start, minutes), ...fields });
  /** GET /events with the query given as an object (encoded) or as a raw, already encoded string. */
  const list = (query: Query | string = {}, headers: Record<string, string> = {}) => {
    const text = typeof query === 'string'
      ? query
      : new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return t().request({ url: text ? `${EVENTS}?${text}` : EVENTS, headers });
  };
  return { create, event, list };
}

describeEachDialect('GET /events: the default window (site UTC)', (t) => {
  const { event, list } = helpers(t);

  it('runs from 00:00:00 today to 23:59:59 two years later; earlier today is in, yesterday is out', async () => {
    const today = DateTime.utc().startOf('day');
    const last = today.plus({ years: 2 });
    await event('after the window', sqlText(last.plus({ days: 1, hours: 10 })));
    await event('last day', sqlText(last.set({ hour: 23 })), 59);
    await event('tomorrow', sqlText(today.plus({ days: 1, hours: 12 })));
    await event('yesterday, still running', sqlText(today.minus({ hours: 1 })), 120);
    await event('yesterday 23:59:59', sqlText(today.minus({ seconds: 1 })), 1);
    await event('ends past the window', sqlText(last.set({ hour: 23, minute: 30 })), 60);
    await event('today 00:00', sqlText(today), 30);

    const res = await list();
    listing(res, { titles: ['today 00:00', 'tomorrow', 'last day'] });
    const start = `${today.toISODate()} 00:00:00`;
    const end = `${last.toISODate()} 23:59:59`;
    expect(res.json.rest_url).toBe(
      `${EVENTS_URL}?${new URLSearchParams({ page: '1', per_page: '10', start_date: start, end_date: end, status: 'publish' })}`,
    );
    expect(res.json).not.toHaveProperty('next_rest_url');
    expect(res.json).not.toHaveProperty('previous_rest_url');
    expect(res.json.events[0]).toMatchObject({ start_date: sqlText(today), end_date: sqlText(today.plus({ minutes: 30 })) });
    expect(res.json.events[0]).not.toHaveProperty('json_ld');
  });

  it('starts exactly now with strict_dates=true and echoes both resolved bounds', async () => {
    const now = DateTime.utc();
    await event('a minute ago', sqlText(now.minus({ minutes: 1 })), 30);
    await event('in two minutes', sqlText(now.plus({ minutes: 2 })), 30);
    await event('in two years minus a minute', sqlText(now.plus({ years: 2 }).minus({ minutes: 2 })), 1);
    await event('in two years and a day', sqlText(now.plus({ years: 2, days: 1 })), 1);

    const before = sqlText(DateTime.utc());
    const res = await list({ strict_dates: true });
    const afterwards = sqlText(DateTime.utc());
    listing(res, { titles: ['in two minutes', 'in two years minus a minute'] });
    const link = linkOf(res.json.rest_url)!;
    expect(link.start_date >= before && link.start_date <= afterwards, link.start_date).toBe(true);
    const twoYears = sqlText(DateTime.fromFormat(link.start_date, SQL, { zone: 'UTC' }).plus({ years: 2 }));
    expect(link).toEqual({
      base: EVENTS_URL, page: '1', per_page: '10', start_date: link.start_date, end_date: twoYears, strict_dates: '1', status: 'publish',
    });
  });

  it('defaults only the side that is not given', async () => {
    const today = DateTime.utc().startOf('day');
    await event('next week', sqlText(today.plus({ days: 7, hours: 9 })));
    await event('in three years', sqlText(today.plus({ years: 3 })));
    await event('long ago', '2017-06-01 10:00:00');

    const fromPast = await list({ start_date: '2017-01-01' });
    listing(fromPast, { titles: ['long ago', 'next week'] });
    expect(linkOf(fromPast.json.rest_url)).toMatchObject({
      start_date: '2017-01-01 00:00:00', end_date: `${today.plus({ years: 2 }).toISODate()} 23:59:59`,
    });
    const toFuture = await list({ end_date: sqlText(today.plus({ years: 4 })) });
    listing(toFuture, { titles: ['next week', 'in three years'] });
    expect(linkOf(toFuture.json.rest_url)).toMatchObject({
      start_date: `${today.toISODate()} 00:00:00`, end_date: `${today.plus({ years: 4 }).toISODate()} 23:59:59`,
    });
  });
});

// West of UTC, east of UTC, and the zone most ahead: "today" is the site's today, not UTC's.
for (const zone of ['America/New_York', 'Asia/Tokyo', 'Pacific/Kiritimati']) {
  describeEachDialect(`GET /events: the default window in ${zone}`, (t) => {
    const { event, list } = helpers(t);

    it('starts at 00:00:00 of today in the site zone and echoes site-time bounds', async () => {
      const today = DateTime.now().setZone(zone).startOf('day');
      await event('site yesterday 23:30', sqlText(today.minus({ minutes: 30 })), 30);
      await event('site today 00:00', sqlText(today), 30);
      await event('site tomorrow', sqlText(today.plus({ days: 1, hours: 9 })));
      // Stored in UTC wall-clock terms: compared on its own local time (event mode), which is yesterday.
      await event('UTC zone, a day before', sqlText(today.minus({ days: 1 }).set({ hour: 12 })), 30, { timezone: 'UTC' });

      const res = await list();
      listing(res, { titles: ['site today 00:00', 'site tomorrow'] });
      expect(res.json.events[0]).toMatchObject({ timezone: zone, start_date: sqlText(today) });
      expect(linkOf(res.json.rest_url)).toEqual({
        base: EVENTS_URL, page: '1', per_page: '10', status: 'publish',
        start_date: `${today.toISODate()} 00:00:00`, end_date: `${today.plus({ years: 2 }).toISODate()} 23:59:59`,
      });

      const before = sqlText(DateTime.now().setZone(zone));
      const strict = await list({ strict_dates: 1 });
      const afterwards = sqlText(DateTime.now().setZone(zone));
      listing(strict, { titles: ['site tomorrow'] });
      const start = linkOf(strict.json.rest_url)!.start_date;
      expect(start >= before && start <= afterwards, `${before} <= ${start} <= ${afterwards}`).toBe(true);
    });

    it('reads natural-language dates in the site zone', async () => {
      const today = DateTime.now().setZone(zone).startOf('day');
      const day = (n: number) => today.plus({ days: n }).toISODate();
      await event('yesterday', sqlText(today.minus({ days: 1 }).set({ hour: 10 })));
      await event('today', sqlText(today));
      await event('tomorrow', sqlText(today.plus({ days: 1, hours: 10 })));
      await event('day after', sqlText(today.plus({ days: 2, hours: 10 })));
      await event('next week', sqlText(today.plus({ days: 8, hours: 10 })));

      // Widened to 23:59:59 of tomorrow: starting after tomorrow.
      const widened = await list({ starts_after: 'tomorrow' });
      listing(widened, { titles: ['day after', 'next week'] });
      expect(linkOf(widened.json.rest_url)).toEqual({
        base: EVENTS_URL, page: '1', per_page: '10', status: 'publish', starts_after: `${day(1)} 23:59:59`,
      });
      const strict = await list({ starts_after: 'tomorrow', strict_dates: 'yes' });
      listing(strict, { titles: ['tomorrow', 'day after', 'next week'] });
      expect(linkOf(strict.json.rest_url)).toMatchObject({ starts_after: `${day(1)} 00:00:00`, strict_dates: '1' });
      // No default lower bound next to a relative parameter: yesterday is back.
      const week = await list({ starts_before: '+1 week' });
      listing(week, { titles: ['yesterday', 'today', 'tomorrow', 'day after'] });
      expect(linkOf(week.json.rest_url)).toEqual({
        base: EVENTS_URL, page: '1', per_page: '10', status: 'publish', starts_before: `${day(7)} 23:59:59`,
      });
      const range = await list({ start_date: 'tomorrow', end_date: '+2 days' });
      listing(range, { titles: ['tomorrow', 'day after'] });
      expect(linkOf(range.json.rest_url)).toMatchObject({ start_date: `${day(1)} 00:00:00`, end_date: `${day(2)} 23:59:59` });
    });
  }, { CAL_TIMEZONE: zone });
}

describeEachDialect('GET /events: the default window in Asia/Tokyo with CAL_TIMEZONE_MODE=site', (t) => {
  const { event, list } = helpers(t);

  it('compares in UTC the instants of today 00:00 and two years later in the site zone', async () => {
    const today = DateTime.now().setZone('Asia/Tokyo').startOf('day');
    // 23:30 in Tokyo the day before, written in UTC wall-clock terms (14:30 UTC).
    await event('UTC zone, Tokyo yesterday', sqlText(today.minus({ minutes: 30 }).toUTC()), 60, { timezone: 'UTC' });
    await event('UTC zone, Tokyo today', sqlText(today.toUTC()), 60, { timezone: 'UTC' });
    await event('Tokyo today', sqlText(today.plus({ hours: 1 })), 60);
    const last = today.plus({ years: 2 }).endOf('day');
    await event('New York, Tokyo last day', sqlText(last.minus({ hours: 2 }).setZone('America/New_York')), 60, { timezone: 'America/New_York' });
    await event('New York, ends after', sqlText(last.minus({ minutes: 30 }).setZone('America/New_York')), 60, { timezone: 'America/New_York' });

    const res = await list();
    listing(res, { titles: ['UTC zone, Tokyo today', 'Tokyo today', 'New York, Tokyo last day'] });
    expect(linkOf(res.json.rest_url)).toMatchObject({
      start_date: `${today.toISODate()} 00:00:00`, end_date: `${today.plus({ years: 2 }).toISODate()} 23:59:59`,
    });
  });
}, { CAL_TIMEZONE: 'Asia/Tokyo', CAL_TIMEZONE_MODE: 'site' });

describeEachDialect('GET /events: the reference §5.3 worked examples (site UTC)', (t) => {
  const { create, event, list } = helpers(t);

  it('widens start_date/end_date to whole days unless strict_dates', async () => {
    await event('12-31 17:00', '2017-12-31 17:00:00', 120);
    await event('01-01 16:00', '2018-01-01 16:00:00', 30);
    await event('01-01 20:00', '2018-01-01 20:00:00', 30);
    await event('01-02 10:00', '2018-01-02 10:00:00', 120);
    const window = { start_date: '2018-01-01 15:00:00', end_date: '2018-01-01 18:00:00' };

    const widened = await list(window);
    listing(widened, { titles: ['01-01 16:00', '01-01 20:00'] });
    expect(linkOf(widened.json.rest_url)).toEqual({
      base: EVENTS_URL, page: '1', per_page: '10', status: 'publish',
      start_date: '2018-01-01 00:00:00', end_date: '2018-01-01 23:59:59',
    });
    const strict = await list({ ...window, strict_dates: true });
    listing(strict, { titles: ['01-01 16:00'] });
    expect(linkOf(strict.json.rest_url)).toEqual({
      base: EVENTS_URL, page: '1', per_page: '10', status: 'publish', strict_dates: '1', ...window,
    });
    const strictOff = await list({ ...window, strict_dates: 'false' });
    listing(strictOff, { titles: ['01-01 16:00', '01-01 20:00'] });
    expect(linkOf(strictOff.json.rest_url)).toMatchObject({ strict_dates: '0' });
  });

  it('finds an event whose local end is before its local start (across a DST fall-back) by its end', async () => {
    // 01:30 EDT to 01:10 EST: forty minutes on, the local clock twenty minutes back.
    const fallBack = await create({ title: 'the repeated hour', start_date: '2026-11-01T01:30:00-04:00', end_date: '2026-11-01T01:10:00-05:00', timezone: 'America/New_York' });
    expect(fallBack).toMatchObject({ start_date: '2026-11-01 01:30:00', end_date: '2026-11-01 01:10:00' });
    // Ends by 01:15 (compared on its own wall clock, event mode), though it starts at 01:30.
    listing(await list({ start_date: '2026-11-01 00:00:00', end_date: '2026-11-01 01:15:00', strict_dates: true }), { titles: ['the repeated hour'] });
    listing(await list({ start_date: '2026-11-01 00:00:00', ends_before: '2026-11-01 01:15:00', strict_dates: true }), { titles: ['the repeated hour'] });
    listing(await list({ start_date: '2026-11-01 00:00:00', end_date: '2026-11-01 01:05:00', strict_dates: true }), { titles: [] });
  });

  it('applies ends_after/starts_before alone, then with start_date/end_date', async () => {
    await event('e0', '2017-12-31 17:00:00', 120);
    await event('e1', '2018-01-01 16:00:00', 30);
    await event('e2', '2018-01-01 19:00:00', 30);
    await event('e3', '2018-01-02 10:00:00', 120);
    await event('e4', '2017-12-30 10:00:00', 3 * 24 * 60);
    await event('e5', '2017-12-29 10:00:00', 5 * 24 * 60);

    const relative = await list({ ends_after: '2017-12-31', starts_before: '2018-01-02' });
    listing(relative, { titles: ['e5', 'e4', 'e1', 'e2', 'e3'] });
    expect(linkOf(relative.json.rest_url)).toEqual({
      base: EVENTS_URL, page: '1', per_page: '10', status: 'publish',
      ends_after: '2017-12-31 23:59:59', starts_before: '2018-01-02 23:59:59',
    });
    const both = await list({ ends_after: '2017-12-31', starts_before: '2018-01-02', start_date: '2017-12-30', end_date: '2018-01-02' });
    listing(both, { titles: ['e4', 'e1', 'e2', 'e3'] });
    expect(linkOf(both.json.rest_url)).toEqual({
      base: EVENTS_URL, page: '1', per_page: '10', status: 'publish',
      start_date: '2017-12-30 00:00:00', end_date: '2018-01-02 23:59:59',
      ends_after: '2017-12-31 23:59:59', starts_before: '2018-01-02 23:59:59',
    });
  });

  it('compares starts_* and ends_* strictly, each widened to 23:59:59 of its day', async () => {
    await event('e0', '2017-12-31 17:00:00', 120);
    await event('e1', '2018-01-01 16:00:00', 30);
    await event('e3', '2018-01-02 10:00:00', 120);
    await event('e4', '2017-12-30 10:00:00', 3 * 24 * 60);

    listing(await list({ starts_after: '2018-01-01' }), { titles: ['e3'] });
    listing(await list({ starts_after: '2017-12-31' }), { titles: ['e1', 'e3'] });
    listing(await list({ ends_before: '2018-01-01' }), { titles: ['e0', 'e1'] });
    listing(await list({ ends_before: '2018-01-02' }), { titles: ['e4', 'e0', 'e1', 'e3'] });
    const strict = { strict_dates: true };
    listing(await list({ ...strict, starts_after: '2018-01-01 16:00:00' }), { titles: ['e3'] });
    listing(await list({ ...strict, starts_after: '2018-01-01 15:59:59' }), { titles: ['e1', 'e3'] });
    listing(await list({ ...strict, ends_before: '2017-12-31 19:00:00' }), { titles: [] });
    listing(await list({ ...strict, ends_before: '2017-12-31 19:00:01' }), { titles: ['e0'] });
    listing(await list({ ...strict, ends_after: '2018-01-02 10:00:00', starts_before: '2018-01-02 10:00:01' }), { titles: ['e3'] });
    listing(await list({ ...strict, ends_after: '2018-01-02 09:59:59', starts_before: '2018-01-02 10:00:01' }), { titles: ['e4', 'e3'] });
  });

  it('keeps the instant of a date with an offset and takes its day in the site zone', async () => {
    await event('evening', '2018-01-01 20:00:00');
    await event('small hours', '2018-01-02 03:00:00');
    await event('morning', '2018-01-02 10:00:00');
    const late = '2018-01-01T23:00:00-05:00';

    const widened = await list({ start_date: late, end_date: '2018-01-02' });
    listing(widened, { titles: ['small hours', 'morning'] });
    expect(linkOf(widened.json.rest_url)).toMatchObject({ start_date: '2018-01-02 00:00:00', end_date: '2018-01-02 23:59:59' });
    const strict = await list({ start_date: late, end_date: '2018-01-02 23:00', strict_dates: true });
    listing(strict, { titles: ['morning'] });
    expect(linkOf(strict.json.rest_url)).toMatchObject({ start_date: '2018-01-02 04:00:00', end_date: '2018-01-02 23:00:00' });
    listing(await list({ starts_before: '2018-01-02T05:00:00+02:00', strict_dates: true }), { titles: ['evening'] });
    listing(await list({ starts_after: '1514862000', strict_dates: true }), { titles: ['morning'] }); // 2018-01-02 03:00 UTC
  });
});

describeEachDialect('GET /events: site-zone dates read in New York', (t) => {
  const { event, list } = helpers(t);

  it('reads a strict value without offset in the site zone and an offset value at its instant', async () => {
    await event('before', '2017-12-21 08:00:00');
    await event('after', '2017-12-21 10:00:00');
    const strict = await list({ start_date: '2017-12-21 09:00', end_date: '2017-12-22', strict_dates: true });
    listing(strict, { titles: ['after'] });
    expect(linkOf(strict.json.rest_url)).toMatchObject({ start_date: '2017-12-21 09:00:00', end_date: '2017-12-22 00:00:00' });
    // 14:30 UTC is 09:30 in New York.
    const offset = await list({ start_date: '2017-12-21T14:30:00Z', end_date: '2017-12-22', strict_dates: true });
    listing(offset, { titles: ['after'] });
    expect(linkOf(offset.json.rest_url)).toMatchObject({ start_date: '2017-12-21 09:30:00' });
    // 04:00 UTC on the 22nd is still the 21st in New York: the widened day is the 21st.
    const day = await list({ start_date: '2017-12-22T04:00:00Z', end_date: '2017-12-22T04:00:00Z' });
    listing(day, { titles: ['before', 'after'] });
    expect(linkOf(day.json.rest_url)).toMatchObject({ start_date: '2017-12-21 00:00:00', end_date: '2017-12-21 23:59:59' });
  });
}, { CAL_TIMEZONE: 'America/New_York' });

// Tokyo 2018-01-02 08:00 is 2018-01-01 23:00 UTC; New York 2018-01-01 20:00 is 2018-01-02 01:00 UTC.
for (const [mode, dayTwo, order] of [
  ['event', ['in Tokyo'], ['in New York', 'in Tokyo']],
  ['site', ['in New York'], ['in Tokyo', 'in New York']],
] as const) {
  describeEachDialect(`GET /events: CAL_TIMEZONE_MODE=${mode}`, (t) => {
    const { event, list } = helpers(t);

    it(`compares ${mode === 'event' ? 'each event in its own local time' : 'in UTC'} and orders the same way`, async () => {
      await event('in Tokyo', '2018-01-02 08:00:00', 60, { timezone: 'Asia/Tokyo' });
      await event('in New York', '2018-01-01 20:00:00', 60, { timezone: 'America/New_York' });

      listing(await list({ start_date: '2018-01-02', end_date: '2018-01-02' }), { titles: [...dayTwo] });
      listing(await list({ start_date: '2018-01-01', end_date: '2018-01-03' }), { titles: [...order] });
      listing(await list({ starts_after: '2018-01-01 22:00', strict_dates: true }), {
        titles: mode === 'event' ? ['in Tokyo'] : [...order],
      });
      listing(await list({ ends_before: '2018-01-02 01:30', strict_dates: true }), {
        titles: mode === 'event' ? ['in New York'] : ['in Tokyo'],
      });
    });
  }, { CAL_TIMEZONE_MODE: mode });
}

describeEachDialect('GET /events: filters', (t) => {
  const { create, event, list } = helpers(t);
  const inYear = (query: Query | string = {}, headers: Record<string, string> = {}) =>
    typeof query === 'string' ? list(`${new URLSearchParams(IN_2040)}&${query}`, headers) : list({ ...IN_2040, ...query }, headers);

  it('search: title, description and excerpt, any case, with % and _ taken literally', async () => {
    await event('Jazz Night', '2040-03-05 19:00:00');
    await event('Evening', '2040-03-01 19:00:00', 60, { description: 'Live JAZZ music' });
    await event('Brunch', '2040-03-03 11:00:00', 60, { excerpt: 'with a jazz band' });
    await event('100% fun', '2040-03-04 11:00:00');
    await event('snake_case meetup', '2040-03-06 11:00:00');
    await event('snakeXcase', '2040-03-07 11:00:00');
    await event('Old jazz', '2017-03-07 11:00:00');
    await event('Über Night', '2040-03-08 11:00:00');

    const jazz = await inYear({ search: 'jAzZ' });
    listing(jazz, { titles: ['Evening', 'Brunch', 'Jazz Night'] });
    expect(linkOf(jazz.json.rest_url)).toEqual({ base: EVENTS_URL, page: '1', per_page: '10', status: 'publish', search: 'jAzZ', ...ECHO_2040 });
    listing(await inYear({ search: '%' }), { titles: ['100% fun'] });
    listing(await inYear({ search: '0% f' }), { titles: ['100% fun'] });
    listing(await inYear({ search: 'snake_' }), { titles: ['snake_case meetup'] });
    listing(await inYear({ search: '_' }), { titles: ['snake_case meetup'] });
    listing(await inYear({ search: 'nothing like it' }), { titles: [] });
    // Non-ASCII letters: the exact case always matches, on every dialect.
    listing(await inYear({ search: 'Über' }), { titles: ['Über Night'] });
    listing(await inYear({ search: 'ÜBER NIGHT' }), { titles: ['Über Night'] });
    invalid(await inYear({ search: '' }), ['search']);
  });

  it('search reads the text of descriptions and excerpts, not their HTML, also after an update', async () => {
    const linked = await event('Linked', '2040-03-01 19:00:00', 60, { description: '<p>See <a href="https://example.org/strong">the program</a></p>' });
    await event('Rocky', '2040-03-02 19:00:00', 60, { description: 'Rock &amp; Roll', excerpt: '<em>short</em>' });
    listing(await inYear({ search: 'p' }), { titles: ['Linked'] });
    listing(await inYear({ search: 'strong' }), { titles: [] });
    listing(await inYear({ search: 'em' }), { titles: [] });
    listing(await inYear({ search: 'the program' }), { titles: ['Linked'] });
    listing(await inYear({ search: 'Rock & Roll' }), { titles: ['Rocky'] });
    listing(await inYear({ search: 'amp' }), { titles: [] });
    listing(await inYear({ search: 'short' }), { titles: ['Rocky'] });
    const user = await t().user('administrator');
    const res = await t().request({ method: 'POST', url: `${EVENTS}/${linked.id}`, headers: user.headers, payload: { excerpt: '<p>New words</p>' } });
    expect(res.statusCode).toBe(200);
    listing(await inYear({ search: 'new words' }), { titles: ['Linked'] });
    listing(await inYear({ search: 'program' }), { titles: ['Linked'] });
  });

  it('categories and tags: ids or slugs, OR within a filter, AND across, in all three array forms', async () => {
    const e1 = await event('e1', '2040-02-01 10:00:00', 60, { categories: ['Music', 'Art'], tags: ['free'] });
    const e2 = await event('e2', '2040-02-02 10:00:00', 60, { categories: ['Music'], tags: ['paid'] });
    await event('e3', '2040-02-03 10:00:00', 60, { categories: ['Sport'], tags: ['free', 'paid'] });
    await event('e4', '2040-02-04 10:00:00');
    const music = e1.categories.find((c: { slug: string }) => c.slug === 'music').id;
    const paid = e2.tags[0].id;

    listing(await inYear({ categories: 'music' }), { titles: ['e1', 'e2'] });
    listing(await inYear({ categories: music }), { titles: ['e1', 'e2'] });
    for (const form of ['categories[]=art&categories[]=sport', 'categories=art&categories=sport', 'categories=art,sport']) {
      listing(await inYear(form), { titles: ['e1', 'e3'] });
    }
    for (const form of ['tags[]=free&tags[]=paid', 'tags=free&tags=paid', `tags=free,${paid}`]) {
      listing(await inYear(form), { titles: ['e1', 'e2', 'e3'] });
    }
    const both = await inYear(`categories=music&tags[]=free`);
    listing(both, { titles: ['e1'] });
    expect(linkOf(both.json.rest_url)).toMatchObject({ categories: 'music', tags: 'free' });
    listing(await inYear({ categories: 'sport', tags: paid }), { titles: ['e3'] });
    listing(await inYear({ categories: 'art', tags: 'paid' }), { titles: [] });

    listing(await inYear({ categories: 'MUSIC' }), { titles: ['e1', 'e2'] }); // by name, any case
    invalid(await inYear({ categories: 'music,nope' }), ['categories']);
    expect((await inYear({ categories: 'nope' })).json.data.params.categories).toContain('nope');
    invalid(await inYear({ tags: 99999 }), ['tags']);
    invalid(await inYear({ tags: 'music' }), ['tags']); // a category is not a tag
    invalid(await inYear({ categories: paid }), ['categories']);
  });

  it('categories: a slug wins over the same text as another term\'s name', async () => {
    const editor = (await t().user('editor')).headers;
    const term = async (name: string, slug: string) =>
      (await t().request({ method: 'POST', url: `${API}/categories`, headers: editor, payload: { name, slug } })).json.id;
    const named = await term('Jazz', 'jazz-by-name');
    const slugged = await term('Jazz Music', 'jazz');
    await event('named', '2040-02-01 10:00:00', 60, { categories: [named] });
    await event('slugged', '2040-02-02 10:00:00', 60, { categories: [slugged] });
    listing(await inYear({ categories: 'jazz' }), { titles: ['slugged'] });
    listing(await inYear({ categories: 'jazz-by-name' }), { titles: ['named'] });
    listing(await inYear({ categories: 'Jazz Music' }), { titles: ['slugged'] });
  });

  it('venue and organizer: ids, OR within; unknown or non-numeric ids are 400', async () => {
    const e1 = await event('e1', '2040-02-01 10:00:00', 60, { venue: { venue: 'Hall' }, organizer: [{ organizer: 'Ann' }] });
    const ann = e1.organizer[0].id;
    const e2 = await event('e2', '2040-02-02 10:00:00', 60, { venue: { venue: 'Club' }, organizer: [{ organizer: 'Bob' }, ann] });
    const bob = e2.organizer[0].id;
    await event('e3', '2040-02-03 10:00:00', 60, { organizer: [bob] });
    await event('e4', '2040-02-04 10:00:00');
    const [hall, club] = [e1.venue.id, e2.venue.id];

    listing(await inYear({ venue: hall }), { titles: ['e1'] });
    listing(await inYear(`venue[]=${hall}&venue[]=${club}`), { titles: ['e1', 'e2'] });
    listing(await inYear(`venue=${club}&venue=${hall}`), { titles: ['e1', 'e2'] });
    const anns = await inYear({ organizer: ann });
    listing(anns, { titles: ['e1', 'e2'] });
    expect(linkOf(anns.json.rest_url)).toMatchObject({ organizer: String(ann) });
    listing(await inYear({ organizer: `${ann},${bob}` }), { titles: ['e1', 'e2', 'e3'] });
    listing(await inYear({ organizer: bob, venue: club }), { titles: ['e2'] });

    invalid(await inYear({ venue: 99999 }), ['venue']);
    invalid(await inYear({ venue: `${hall},99999` }), ['venue']);
    invalid(await inYear({ venue: ann }), ['venue']); // an organizer is not a venue
    invalid(await inYear({ venue: 'hall' }), ['venue']);
    invalid(await inYear({ organizer: 99999 }), ['organizer']);
    invalid(await inYear({ organizer: 'ann' }), ['organizer']);
  });

  it('featured=true/false, in any boolean spelling', async () => {
    await event('plain', '2040-02-01 10:00:00');
    await event('star', '2040-02-02 10:00:00', 60, { featured: true });
    const yes = await inYear({ featured: 'true' });
    listing(yes, { titles: ['star'] });
    expect(linkOf(yes.json.rest_url)).toMatchObject({ featured: '1' });
    listing(await inYear({ featured: 1 }), { titles: ['star'] });
    const no = await inYear({ featured: 'no' });
    listing(no, { titles: ['plain'] });
    expect(linkOf(no.json.rest_url)).toMatchObject({ featured: '0' });
    invalid(await inYear({ featured: 'maybe' }), ['featured']);
  });

  it('status follows the read rules', async () => {
    await event('published', '2040-02-01 10:00:00');
    await event('drafted', '2040-02-02 10:00:00', 60, { status: 'draft' });
    await event('pending', '2040-02-03 10:00:00', 60, { status: 'pending' });
    await event('private', '2040-02-04 10:00:00', 60, { status: 'private' });
    const trashed = await event('trashed', '2040-02-05 10:00:00');
    const admin = await t().user('administrator');
    expect((await t().request({ method: 'DELETE', url: `${EVENTS}/${trashed.id}`, headers: admin.headers })).statusCode).toBe(200);

    const anonymous = await inYear();
    listing(anonymous, { titles: ['published'] });
    expect(linkOf(anonymous.json.rest_url)).toMatchObject({ status: 'publish' });
    listing(await inYear({ status: 'publish' }), { titles: ['published'] });
    invalid(await inYear({ status: 'draft' }), ['status']);
    invalid(await inYear({ status: 'publish,draft' }), ['status']);

    const editor = (await t().user('editor')).headers;
    const all = await inYear({}, editor);
    listing(all, { titles: ['published', 'drafted', 'pending', 'private'] });
    expect(linkOf(all.json.rest_url)).toMatchObject({ status: 'any' });
    const two = await inYear('status=publish,%20draft', editor);
    listing(two, { titles: ['published', 'drafted'] });
    expect(linkOf(two.json.rest_url)).toMatchObject({ status: 'publish,draft' });
    listing(await inYear('status[]=trash&status[]=pending', editor), { titles: ['pending', 'trashed'] });
    invalid(await inYear({ status: 'foo' }, editor), ['status']);
    invalid(await inYear({ status: 'foo, bar, publish' }, editor), ['status']);

    const subscriber = (await t().user('subscriber')).headers;
    listing(await inYear({}, subscriber), { titles: ['published'] });
    invalid(await inYear({ status: 'draft' }, subscriber), ['status']);
    listing(await inYear({}, (await t().user('contributor')).headers), { titles: ['published', 'drafted', 'pending', 'private'] });
  });

  it('post_parent must name an existing event', async () => {
    const parent = await event('parent', '2040-02-01 10:00:00');
    const withVenue = await event('venued', '2040-02-02 10:00:00', 60, { venue: { venue: 'Hall' } });
    const res = await inYear({ post_parent: parent.id });
    listing(res, { titles: [] });
    expect(linkOf(res.json.rest_url)).toMatchObject({ post_parent: String(parent.id) });
    invalid(await inYear({ post_parent: 99999 }), ['post_parent']);
    invalid(await inYear({ post_parent: withVenue.venue.id }), ['post_parent']);
    invalid(await inYear({ post_parent: 'abc' }), ['post_parent']);
  });

  it('include: no date window at all, ordered by post date then id; one bad item is 400', async () => {
    const late = await event('late post', '2040-02-01 10:00:00', 60, { date: '2020-01-03 10:00:00' });
    const past = await event('past event', '2017-02-01 10:00:00', 60, { date: '2020-01-02 10:00:00' });
    const far = await event('far future', '2045-02-01 10:00:00', 60, { date: '2020-01-01 10:00:00' });
    const tie = await event('same post date', '2039-02-01 10:00:00', 60, { date: '2020-01-01 10:00:00' });
    const hidden = await event('hidden', '2040-02-01 10:00:00', 60, { hide_from_listings: true });
    const draft = await event('draft', '2040-02-01 10:00:00', 60, { status: 'draft' });
    await event('not included', '2040-02-01 10:00:00');

    const ids = [late, past, far, tie, hidden, draft].map((e) => e.id).join(',');
    const res = await list({ include: ids });
    listing(res, { titles: ['far future', 'same post date', 'past event', 'late post'] });
    expect(linkOf(res.json.rest_url)).toEqual({ base: EVENTS_URL, page: '1', per_page: '10', status: 'publish', include: ids });
    const dated = await list({ include: ids, start_date: '2040-01-01', end_date: '2040-12-31', starts_after: '2041-01-01' });
    listing(dated, { titles: ['far future', 'same post date', 'past event', 'late post'] });
    expect(linkOf(dated.json.rest_url)).not.toHaveProperty('start_date');
    listing(await list(`include[]=${past.id}&include[]=${late.id}`), { titles: ['past event', 'late post'] });
    const editor = (await t().user('editor')).headers;
    listing(await list({ include: ids }, editor), { titles: ['far future', 'same post date', 'past event', 'late post', 'draft'] });
    const paged = await list({ include: ids, per_page: 3, page: 2 });
    listing(paged, { titles: ['late post'], total: 4, pages: 2 });

    invalid(await list({ include: `${late.id},abc` }), ['include']);
    invalid(await list({ include: '0' }), ['include']);
    invalid(await list({ include: ids, start_date: 'before my birthday' }), ['start_date']);
  });

  it('ticketed=false is accepted; ticketed=true and geoloc filters need modules that are not active', async () => {
    await event('one', '2040-02-01 10:00:00');
    listing(await inYear({ ticketed: 'false' }), { titles: ['one'] });
    listing(await inYear({ ticketed: 0 }), { titles: ['one'] });
    const ticketed = await inYear({ ticketed: 'true' });
    expect(ticketed.statusCode).toBe(400);
    // As WordPress files a validator's error: rest_invalid_param, the specific code under data.details.
    expect(ticketed.json).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): ticketed',
      data: {
        status: 400,
        params: { ticketed: 'The ticketing module is not active.' },
        details: { ticketed: { code: 'event-tickets-not-active', message: 'The ticketing module is not active.', data: { status: 400 } } },
      },
    });
    const inGerman = await inYear({ ticketed: 'true' }, { 'Accept-Language': 'de' });
    expect(inGerman.json.data.details.ticketed).toEqual({ code: 'event-tickets-not-active', message: 'Das Ticketmodul ist nicht aktiv.', data: { status: 400 } });
    // Geolocation filters work (test/api/geolocation.test.ts); without a located venue they find nothing.
    expect((await inYear({ geoloc: 'true' })).json.events).toEqual([]);
    invalid(await inYear({ ticketed: 'sometimes' }), ['ticketed']);
    invalid(await inYear({ geoloc_lat: 'north' }), ['geoloc_lat']);
  });

  it('never lists events hidden from listings, whoever asks', async () => {
    await event('shown', '2040-02-01 10:00:00');
    const hidden = await create({ title: 'hidden', start_date: '2040-02-02 10:00:00', end_date: '2040-02-02 11:00:00', hide_from_listings: true });
    const editor = (await t().user('editor')).headers;
    listing(await inYear(), { titles: ['shown'] });
    listing(await inYear({}, editor), { titles: ['shown'] });
    listing(await inYear({ search: 'hidden' }, editor), { titles: [] });
    expect((await t().request({ url: `${EVENTS}/${hidden.id}` })).statusCode).toBe(200);
  });
});

describeEachDialect('GET /events: password-protected events', (t) => {
  const { event, list } = helpers(t);
  const window = { start_date: '2040-01-01', end_date: '2040-12-31' };

  async function setUp() {
    await event('Open', '2040-02-01 10:00:00', 60, { description: 'Public' });
    return event('Locked', '2040-02-02 10:00:00', 60, {
      password: 'sesame', description: 'Secret plans', excerpt: 'Shh', cost: '$10', website: 'https://locked.test',
      featured: true, sticky: true, show_map: true, categories: ['Music'], tags: ['vip'],
      venue: { venue: 'Hidden Hall' }, organizer: [{ organizer: 'Mr X' }], image: 'https://img.test/locked.png',
    });
  }

  it('lists them blanked for anonymous callers (reference §1.1)', async () => {
    const locked = await setUp();
    const res = await list(window);
    listing(res, { titles: ['Open', 'Locked'] });
    const blanked = res.json.events[1];
    expect(blanked).toMatchObject({
      id: locked.id, title: 'Locked', slug: 'locked', status: 'publish',
      start_date: '2040-02-02 10:00:00', end_date: '2040-02-02 11:00:00', utc_start_date: '2040-02-02 10:00:00',
      description: '', excerpt: '', website: '', cost: '', image: false,
      all_day: null, show_map: null, show_map_link: null, hide_from_listings: null, sticky: null, featured: null,
      cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
      categories: [], tags: [], venue: [], organizer: [], custom_fields: [],
    });
    expect(res.json.events[0].description).toBe('<p>Public</p>');
    const wrong = await list({ ...window, password: 'open sesame' });
    expect(wrong.json.events[1]).toMatchObject({ description: '', venue: [], featured: null });
  });

  it('lists them whole with the right password, or for an editor with context=edit', async () => {
    const locked = await setUp();
    const whole = {
      description: '<p>Secret plans</p>', excerpt: '<p>Shh</p>', cost: '$10', website: 'https://locked.test',
      featured: true, sticky: true, show_map: true, all_day: false, hide_from_listings: false,
      venue: { venue: 'Hidden Hall' }, organizer: [{ organizer: 'Mr X' }], image: { url: 'https://img.test/locked.png' },
    };
    const right = await list({ ...window, password: 'sesame' });
    listing(right, { titles: ['Open', 'Locked'] });
    expect(right.json.events[1]).toMatchObject(whole);
    expect(right.json.events[1].categories.map((c: { name: string }) => c.name)).toEqual(['Music']);
    expect(right.json.events[1].tags.map((c: { name: string }) => c.name)).toEqual(['vip']);
    const editor = (await t().user('editor')).headers;
    expect((await list({ ...window, context: 'edit' }, editor)).json.events[1]).toMatchObject(whole);
    expect((await list(window, editor)).json.events[1]).toMatchObject({ description: '', featured: null });
    expect((await list({ ...window, context: 'edit' })).json.events[1]).toMatchObject({ description: '', featured: null });
    const author = (await t().user('author')).headers;
    expect((await list({ ...window, context: 'edit' }, author)).json.events[1]).toMatchObject({ description: '', featured: null });
    expect(locked.description).toBe('<p>Secret plans</p>');
  });

  it('leaves them out of anonymous searches unless the right password is sent', async () => {
    await setUp();
    await event('Plans for the open day', '2040-02-03 10:00:00');
    listing(await list({ ...window, search: 'plans' }), { titles: ['Plans for the open day'] });
    listing(await list({ ...window, search: 'locked' }), { titles: [] });
    listing(await list({ ...window, search: 'plans', password: 'wrong' }), { titles: ['Plans for the open day'] });
    const right = await list({ ...window, search: 'plans', password: 'sesame' });
    listing(right, { titles: ['Locked', 'Plans for the open day'] });
    expect(right.json.events[0].description).toBe('<p>Secret plans</p>');
    const editor = (await t().user('editor')).headers;
    listing(await list({ ...window, search: 'plans' }, editor), { titles: ['Locked', 'Plans for the open day'] });
  });
});

describeEachDialect('GET /events: ordering and paging', (t) => {
  const { event, list } = helpers(t);
  const window = { start_date: '2040-01-01', end_date: '2040-12-31' };

  it('orders by start then id, same-start ties in creation order', async () => {
    await event('third', '2040-05-01 10:00:00');
    await event('tie a', '2040-04-01 10:00:00', 30);
    await event('first', '2040-03-01 10:00:00');
    await event('tie b', '2040-04-01 10:00:00', 240);
    await event('tie c', '2040-04-01 10:00:00', 5);
    await event('second', '2040-03-31 23:59:59', 1);
    listing(await list(window), { titles: ['first', 'second', 'tie a', 'tie b', 'tie c', 'third'] });
  });

  it('pages with per_page=1; links keep every filter and lead to the next and previous pages', async () => {
    for (const [title, day] of [['Jazz one', '02'], ['Jazz two', '03'], ['Jazz three', '04'], ['Rock', '05'], ['Jazz untagged', '06']]) {
      await event(title, `2040-02-${day} 10:00:00`, 60, {
        categories: ['Music'], ...(title === 'Jazz untagged' ? {} : { tags: ['live'] }),
      });
    }
    const filters = {
      search: 'jazz', categories: 'music', tags: 'live', start_date: '2040-02-01 12:00', end_date: '2040-02-28', strict_dates: 'true',
    };
    const echoed = {
      base: EVENTS_URL, per_page: '1', status: 'publish', search: 'jazz', categories: 'music', tags: 'live',
      start_date: '2040-02-01 12:00:00', end_date: '2040-02-28 00:00:00', strict_dates: '1',
    };

    const first = await list({ ...filters, per_page: 1 });
    listing(first, { titles: ['Jazz one'], total: 3, pages: 3 });
    expect(linkOf(first.json.rest_url)).toEqual({ ...echoed, page: '1' });
    expect(linkOf(first.json.next_rest_url)).toEqual({ ...echoed, page: '2' });
    expect(first.json).not.toHaveProperty('previous_rest_url');

    const second = await t().request({ url: pathOf(first.json.next_rest_url) });
    listing(second, { titles: ['Jazz two'], total: 3, pages: 3 });
    expect(second.json.rest_url).toBe(first.json.next_rest_url);
    expect(linkOf(second.json.next_rest_url)).toEqual({ ...echoed, page: '3' });
    expect(linkOf(second.json.previous_rest_url)).toEqual(echoed);

    const third = await t().request({ url: pathOf(second.json.next_rest_url) });
    listing(third, { titles: ['Jazz three'], total: 3, pages: 3 });
    expect(third.json).not.toHaveProperty('next_rest_url');
    expect(linkOf(third.json.previous_rest_url)).toEqual({ ...echoed, page: '2' });
    const back = await t().request({ url: pathOf(third.json.previous_rest_url) });
    expect(titles(back)).toEqual(['Jazz two']);
    const start = await t().request({ url: pathOf(second.json.previous_rest_url) });
    expect(titles(start)).toEqual(['Jazz one']);
    expect(start.json.rest_url).toBe(first.json.rest_url);

    const past = await list({ ...filters, per_page: 1, page: 4 });
    expect(past.statusCode).toBe(404);
    expect(past.json).toEqual({
      code: 'event-archive-page-not-found', message: expect.any(String), data: { status: 404 },
    });
  });

  it('answers an empty page 1 with 200, zero totals and no links; later pages are 404', async () => {
    const res = await list(window);
    listing(res, { titles: [] });
    expect(res.json).toEqual({
      events: [], total: 0, total_pages: 0,
      rest_url: `${EVENTS_URL}?${new URLSearchParams({ page: '1', per_page: '10', ...ECHO_2040, status: 'publish' })}`,
    });
    const two = await list({ ...window, page: 2 });
    expect(two.statusCode).toBe(404);
    expect(two.json.code).toBe('event-archive-page-not-found');
  });

  it('clamps per_page over the cap to 50', async () => {
    for (let i = 0; i < 51; i++) await event(`e${i}`, sqlText(DateTime.fromISO('2040-03-01T00:00:00Z', { zone: 'UTC' }).plus({ hours: i })));
    const res = await list({ ...window, per_page: 100 });
    expect(res.json.events).toHaveLength(50);
    listing(res, { titles: Array.from({ length: 50 }, (_, i) => `e${i}`), total: 51, pages: 2 });
    expect(linkOf(res.json.rest_url)).toMatchObject({ per_page: '50' });
    expect(linkOf(res.json.next_rest_url)).toMatchObject({ per_page: '50', page: '2' });
    listing(await t().request({ url: pathOf(res.json.next_rest_url) }), { titles: ['e50'], total: 51, pages: 2 });
    listing(await list({ ...window }), { titles: Array.from({ length: 10 }, (_, i) => `e${i}`), total: 51, pages: 6 });
  });

  it('answers bad page and per_page with 400 naming them', async () => {
    const perPage = await list({ per_page: 0 });
    expect(perPage.statusCode).toBe(400);
    expect(perPage.json).toEqual({
      code: 'rest_invalid_param', message: 'Invalid parameter(s): per_page',
      data: { status: 400, params: { per_page: 'Invalid parameter.' }, details: [] },
    });
    for (const [query, params] of [
      ['page=0', ['page']], ['page=-1', ['page']], ['page=foo', ['page']], ['page=1.5', ['page']],
      ['per_page=-3', ['per_page']], ['per_page=foo%20bar', ['per_page']], ['page=0&per_page=0', ['page', 'per_page']],
    ] as const) {
      invalid(await list(query), [...params]);
    }
  });

  it('answers unparsable dates with 400 naming every bad parameter', async () => {
    const params = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'];
    for (const param of params) {
      for (const value of ['before my birthday', 'not a strtotime parsable string', '2018-13-45']) {
        const res = await list({ [param]: value });
        invalid(res, [param]);
        expect(res.json.message).toBe(`Invalid parameter(s): ${param}`);
      }
    }
    invalid(await list(Object.fromEntries(params.map((p) => [p, 'soonish']))), params);
    invalid(await list({ start_date: 'tomorrow', strict_dates: 'perhaps' }), ['strict_dates']);
  });
});

describeEachDialect('GET /events: query count', (t) => {
  const { create } = helpers(t);

  it('serves a page of events with venues, organizers, categories and tags in a fixed number of queries', async () => {
    const { db: counting, counter } = countingDb(t().database.db);
    // Each count on a fresh service: nothing kept yet, every record built (a kept one costs less, below).
    const apps: Array<Awaited<ReturnType<typeof buildApp>>> = [];
    const countedList = async (query: string, fresh = true) => {
      if (fresh || apps.length === 0) apps.push(await buildApp({ config: t().config, database: { ...t().database, db: counting }, logger: false }));
      counter.queries = 0;
      const res = await apps[apps.length - 1].inject({ url: `${EVENTS}?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return { queries: counter.queries, body: res.json() };
    };
    async function add(from: number, to: number) {
      for (let i = from; i < to; i++) {
        const start = DateTime.fromISO('2040-03-01T08:00:00', { zone: 'UTC' }).plus({ hours: i });
        await create({
          title: `Event ${i}`, start_date: sqlText(start), end_date: sqlText(start.plus({ hours: 1 })),
          venue: { venue: `Venue ${i}` }, organizer: [{ organizer: `Org ${i} a` }, { organizer: `Org ${i} b` }],
          categories: [`Cat ${i} a`, `Cat ${i} b`], tags: [`Tag ${i} a`, `Tag ${i} b`], image: `https://img.test/${i}.png`,
        });
      }
    }
    try {
      const query = `per_page=50&${new URLSearchParams(IN_2040)}&categories=cat-0-a,cat-1-a,cat-2-b&tags=tag-0-a`;
      await add(0, 5);
      const few = await countedList(`per_page=50&${new URLSearchParams(IN_2040)}`);
      expect(few.body.events).toHaveLength(5);
      await add(5, 50);
      const many = await countedList(`per_page=50&${new URLSearchParams(IN_2040)}`);
      expect(many.body.events).toHaveLength(50);
      const last = many.body.events[49];
      expect(last.venue.venue).toBe('Venue 49');
      expect(last.organizer.map((o: { organizer: string }) => o.organizer)).toEqual(['Org 49 a', 'Org 49 b']);
      expect(last.categories.map((c: { name: string }) => c.name)).toEqual(['Cat 49 a', 'Cat 49 b']);
      expect(last.tags.map((c: { name: string }) => c.name)).toEqual(['Tag 49 a', 'Tag 49 b']);
      expect(last.image.url).toBe('https://img.test/49.png');
      // The first page's five texts were stored behind it (events/stored-texts.ts): the second page takes them
      // from there and builds the rest, in as many statements as one built whole.
      expect(many.queries).toBe(few.queries);
      expect(many.queries).toBeLessThanOrEqual(13);
      // Every text stored (a service stopping writes what it offered): one statement for all of them in place
      // of their links and images.
      await (apps.pop() as (typeof apps)[number]).close();
      const stored = await countedList(`per_page=50&${new URLSearchParams(IN_2040)}`);
      expect(stored.body).toEqual(many.body);
      expect(stored.queries).toBeLessThan(many.queries);
      // Read again, the records are kept (a record is kept from its second read on, db/record-cache.ts), and
      // so are the page's ids and its total (events/event-pages.ts, event-totals.ts): no query at all.
      await countedList(`per_page=50&${new URLSearchParams(IN_2040)}`, false);
      const again = await countedList(`per_page=50&${new URLSearchParams(IN_2040)}`, false);
      expect(again.body).toEqual(many.body);
      expect(again.queries).toBe(0);
      // Filters cost one lookup per value given, never per event listed.
      const filtered = await countedList(query);
      expect(filtered.body.events.map((e: { title: string }) => e.title)).toEqual(['Event 0']);
    } finally {
      for (const app of apps) await app.close();
    }
  });
});
