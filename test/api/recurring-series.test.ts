import type ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { parseFeed, unfolded, unixOf } from '../helpers/ical.ts';
import { API, describeEachDialect, type TestContext } from '../helpers/test-app.ts';

interface Listed {
  id: number;
  title: string;
  slug: string;
  status: string;
  start_date: string;
  utc_start_date: string;
  categories: Array<{ id: number; count: number }>;
  series: { id: number; original_start: string; override: boolean } | null;
  recurrence: { rules: string[]; rdates?: string[]; exdates?: string[] } | null;
}

/** Calls as an editor, with the helpers every series test needs. */
function seriesHelpers(t: () => TestContext) {
  const call = async (method: string, url: string, payload?: Record<string, unknown>) =>
    t().request({ method: method as 'GET', url: `${API}${url}`, headers: (await t().user('editor')).headers, payload });
  const ok = async (method: string, url: string, payload?: Record<string, unknown>) => {
    const res = await call(method, url, payload);
    expect(res.statusCode, JSON.stringify(res.json)).toBeLessThan(300);
    return res.json;
  };
  /** A series' occurrences (every status but trash), in start order. */
  const occurrences = async (seriesId: number, status = 'any'): Promise<Listed[]> =>
    (await ok('GET', `/events?post_parent=${seriesId}&start_date=2000-01-01&per_page=50&status=${status}`)).events;
  const weekly = (rules: string[], more: Record<string, unknown> = {}) => ok('POST', '/events', {
    title: 'Choir', start_date: '2027-03-14 19:00:00', end_date: '2027-03-14 21:00:00', timezone: 'Europe/Berlin', recurrence: { rules }, ...more,
  });
  return { call, ok, occurrences, weekly };
}

describeEachDialect('recurring series: occurrences stored as events', (t) => {
  const { call, ok, occurrences, weekly } = seriesHelpers(t);

  it('a weekly series across a change of daylight-saving time: each occurrence an event naming its series', async () => {
    const series = await weekly(['FREQ=WEEKLY;COUNT=4'], { categories: ['Singing'] });
    expect(series.recurrence).toEqual({ rules: ['FREQ=WEEKLY;COUNT=4'] });
    expect(series.series).toEqual({ id: series.id, rest_url: `http://cal.test${API}/events/${series.id}`, original_start: '2027-03-14 19:00:00', override: false });
    const listed = await occurrences(series.id);
    expect(listed.map((e) => [e.start_date, e.utc_start_date, e.title, e.slug])).toEqual([
      ['2027-03-21 19:00:00', '2027-03-21 18:00:00', 'Choir', 'choir-2027-03-21'],
      ['2027-03-28 19:00:00', '2027-03-28 17:00:00', 'Choir', 'choir-2027-03-28'],
      ['2027-04-04 19:00:00', '2027-04-04 17:00:00', 'Choir', 'choir-2027-04-04'],
    ]);
    expect(listed.map((e) => e.series)).toEqual(listed.map((e) => ({ id: series.id, rest_url: series.series.rest_url, original_start: e.start_date, override: false })));
    expect(listed.every((e) => e.recurrence === null)).toBe(true);
    // Each occurrence is an event: read by id and slug, counted in its category (WordPress counts posts).
    expect((await ok('GET', `/events/by-slug/choir-2027-03-28`)).id).toBe(listed[1].id);
    expect(listed[2].categories[0].count).toBe(4);
    // A series event takes no post_parent; a single event names no series.
    const single = await ok('POST', '/events', { title: 'Once', start_date: '2027-03-14 10:00', end_date: '2027-03-14 11:00' });
    expect([single.series, single.recurrence]).toEqual([null, null]);
  });

  it('an edit of the series reaches every occurrence and keeps their ids; its rules grow and shrink in place', async () => {
    const series = await weekly(['FREQ=WEEKLY;COUNT=4']);
    const ids = (await occurrences(series.id)).map((e) => e.id);
    await ok('POST', `/events/${series.id}`, { title: 'Choir rehearsal', venue: { venue: 'Hall' }, tags: ['weekly'] });
    let listed = await occurrences(series.id);
    expect(listed.map((e) => [e.id, e.title])).toEqual(ids.map((id) => [id, 'Choir rehearsal']));
    expect((await ok('GET', `/events/${ids[0]}`)).venue.venue).toBe('Hall');
    // A new time: the same events, moved.
    await ok('POST', `/events/${series.id}`, { start_date: '2027-03-14 20:00:00', end_date: '2027-03-14 22:00:00' });
    listed = await occurrences(series.id);
    expect(listed.map((e) => [e.id, e.start_date])).toEqual([[ids[0], '2027-03-21 20:00:00'], [ids[1], '2027-03-28 20:00:00'], [ids[2], '2027-04-04 20:00:00']]);
    // Another weekday: still the same events, in order.
    await ok('POST', `/events/${series.id}`, { recurrence: { rules: ['FREQ=WEEKLY;BYDAY=MO;COUNT=4'] } });
    listed = await occurrences(series.id);
    expect(listed.map((e) => e.start_date)).toEqual(['2027-03-15 20:00:00', '2027-03-22 20:00:00', '2027-03-29 20:00:00', '2027-04-05 20:00:00']);
    expect(listed.slice(0, 3).map((e) => e.id)).toEqual(ids);
    expect(ids).not.toContain(listed[3].id);
    // Fewer: the last ones go, for good.
    // (The series' Sunday start is not a Monday: it stays the first occurrence, and COUNT counts the Mondays.)
    await ok('POST', `/events/${series.id}`, { recurrence: { rules: ['FREQ=WEEKLY;BYDAY=MO;COUNT=2'] } });
    expect((await occurrences(series.id)).map((e) => e.id)).toEqual([ids[0], ids[1]]);
    expect((await call('GET', `/events/${ids[2]}`)).statusCode).toBe(404);
    // A series edit sent back as it was read changes nothing, its occurrences included.
    const before = await occurrences(series.id);
    const read = await ok('GET', `/events/${series.id}`);
    await ok('POST', `/events/${series.id}`, read);
    expect(await occurrences(series.id)).toEqual(before);
  });

  it('an occurrence edited on its own is an override: series edits leave it alone, and it keeps its place', async () => {
    const series = await weekly(['FREQ=WEEKLY;COUNT=4']);
    const [first, second] = await occurrences(series.id);
    const edited = await ok('POST', `/events/${second.id}`, { title: 'Choir (guest conductor)', start_date: '2027-03-29 18:00:00', end_date: '2027-03-29 20:00:00' });
    expect(edited.series).toEqual({ id: series.id, rest_url: series.series.rest_url, original_start: '2027-03-28 19:00:00', override: true });
    await ok('POST', `/events/${series.id}`, { title: 'Choir, new season', start_date: '2027-03-14 19:30:00', end_date: '2027-03-14 21:30:00' });
    const listed = await occurrences(series.id);
    expect(listed.map((e) => [e.id, e.title, e.start_date])).toEqual([
      [first.id, 'Choir, new season', '2027-03-21 19:30:00'],
      [second.id, 'Choir (guest conductor)', '2027-03-29 18:00:00'],
      [listed[2].id, 'Choir, new season', '2027-04-04 19:30:00'],
    ]);
    // It still stands for its occurrence, now at the series' new time (its RECURRENCE-ID).
    expect(listed[1].series?.original_start).toBe('2027-03-28 19:30:00');
    // The rules are the series': an occurrence cannot take its own.
    const refused = await call('POST', `/events/${first.id}`, { recurrence: { rules: ['FREQ=DAILY'] } });
    expect([refused.statusCode, refused.json.code, Object.keys(refused.json.data.params)]).toEqual([400, 'rest_invalid_param', ['recurrence']]);
  });

  it('deleting an occurrence makes it an exception; restoring it undoes that; deleting the series deletes them all', async () => {
    const series = await weekly(['FREQ=WEEKLY;COUNT=4'], { categories: ['Singing'] });
    const categoryId = series.categories[0].id;
    const [first, second, third] = await occurrences(series.id);
    await ok('DELETE', `/events/${second.id}`);
    expect((await ok('GET', `/events/${series.id}`)).recurrence).toEqual({ rules: ['FREQ=WEEKLY;COUNT=4'], exdates: ['2027-03-28 19:00:00'] });
    // An edit of the series does not bring it back, nor does a new time: the exception moves with it.
    await ok('POST', `/events/${series.id}`, { title: 'Choir!', start_date: '2027-03-14 19:30:00', end_date: '2027-03-14 21:30:00' });
    expect((await occurrences(series.id)).map((e) => e.id)).toEqual([first.id, third.id]);
    expect((await ok('GET', `/events/${series.id}`)).recurrence.exdates).toEqual(['2027-03-28 19:30:00']);
    expect((await ok('GET', `/categories/${categoryId}`)).count).toBe(3);
    // Restored, it is an occurrence again (an override: it was edited on its own), and no exception.
    await ok('POST', `/events/${second.id}`, { status: 'publish' });
    expect((await ok('GET', `/events/${series.id}`)).recurrence).toEqual({ rules: ['FREQ=WEEKLY;COUNT=4'] });
    expect((await occurrences(series.id)).map((e) => [e.id, e.series?.override])).toEqual([[first.id, false], [second.id, true], [third.id, false]]);
    // Deleted for good: an exception again.
    await ok('DELETE', `/events/${third.id}?force=true`);
    expect((await ok('GET', `/events/${series.id}`)).recurrence.exdates).toEqual(['2027-04-04 19:30:00']);
    // The series to the trash takes its occurrences; restored, the rules' ones come back.
    await ok('DELETE', `/events/${series.id}`);
    expect((await occurrences(series.id, 'trash')).map((e) => e.id)).toEqual([first.id, second.id]);
    await ok('POST', `/events/${series.id}`, { status: 'publish' });
    expect((await occurrences(series.id)).map((e) => [e.id, e.status])).toEqual([[first.id, 'publish']]);
    await ok('DELETE', `/events/${series.id}?force=true`);
    for (const id of [series.id, first.id, second.id]) expect((await call('GET', `/events/${id}`)).statusCode).toBe(404);
    expect((await ok('GET', `/categories/${categoryId}`)).count).toBe(0);
  });

  it('a split with nothing else changed: the following occurrences, kept or not, name their new series', async () => {
    const series = await weekly(['FREQ=WEEKLY;COUNT=5']);
    const ids = (await occurrences(series.id)).map((e) => e.id);
    // Read twice, so that the process keeps it (a record is kept from its second read).
    for (let i = 0; i < 2; i++) expect((await ok('GET', `/events/${ids[3]}`)).series.id).toBe(series.id);
    await ok('POST', `/events/${ids[2]}`, { recurrence_scope: 'following' });
    expect((await ok('GET', `/events/${ids[3]}`)).series).toMatchObject({ id: ids[2], override: false });
    expect((await occurrences(ids[2])).map((e) => [e.id, e.series?.id])).toEqual([[ids[3], ids[2]]]);
  });

  it('"this and the following" splits the series: the occurrences keep their ids, the old series ends before', async () => {
    const series = await weekly(['FREQ=WEEKLY;COUNT=6']);
    const ids = (await occurrences(series.id)).map((e) => e.id);
    const split = await ok('POST', `/events/${ids[2]}`, { recurrence_scope: 'following', title: 'Choir (summer)', start_date: '2027-04-04 18:00:00', end_date: '2027-04-04 20:00:00' });
    expect([split.id, split.recurrence, split.series.id]).toEqual([ids[2], { rules: ['FREQ=WEEKLY;COUNT=3'] }, ids[2]]);
    expect((await ok('GET', `/events/${series.id}`)).recurrence).toEqual({ rules: ['FREQ=WEEKLY;UNTIL=20270404T185959'] });
    expect((await occurrences(series.id)).map((e) => [e.id, e.title, e.start_date])).toEqual([[ids[0], 'Choir', '2027-03-21 19:00:00'], [ids[1], 'Choir', '2027-03-28 19:00:00']]);
    expect((await occurrences(ids[2])).map((e) => [e.id, e.title, e.start_date])).toEqual([[ids[3], 'Choir (summer)', '2027-04-11 18:00:00'], [ids[4], 'Choir (summer)', '2027-04-18 18:00:00']]);
  });

  it('open-ended rules reach the horizon and move on with time; the cap refuses more', async () => {
    // Begun an hour ago, so that its horizon runs from now both times (one that starts later today would run
    // from its start at first, and the move by five days would add four occurrences: the test failed before 09:00 UTC).
    const begun = DateTime.utc().minus({ hours: 1 }).startOf('minute');
    const series = await ok('POST', '/events', {
      title: 'Standup', start_date: begun.toFormat('yyyy-MM-dd HH:mm:00'), end_date: begun.plus({ minutes: 15 }).toFormat('yyyy-MM-dd HH:mm:00'),
      recurrence: { rules: ['FREQ=DAILY'] },
    });
    // The horizon is 45 days in this suite (see below): the days after today through the 45th, whatever the hour.
    const first = await occurrences(series.id);
    expect(first.length).toBeGreaterThanOrEqual(44);
    expect(first.length).toBeLessThanOrEqual(45);
    // Every process moves the horizon: two services (and one twice) at once make each new occurrence once.
    const other = await buildApp({ config: t().config, database: t().database, logger: false });
    try {
      const moved = DateTime.utc().plus({ days: 5 });
      await Promise.all([t().app.extendSeries(moved), other.extendSeries(moved), t().app.extendSeries(moved)]);
    } finally {
      await other.close();
    }
    const later = await occurrences(series.id);
    expect(later.length).toBe(first.length + 5);
    expect(new Set(later.map((e) => e.series?.original_start)).size).toBe(later.length);
    expect(later.slice(0, first.length).map((e) => e.id)).toEqual(first.map((e) => e.id));
    // Moving on again the same day finds nothing to do.
    await t().app.extendSeries(DateTime.utc().plus({ days: 5 }));
    expect((await occurrences(series.id)).length).toBe(later.length);

    // Over the cap (70 in this suite) within the horizon, or by a COUNT beyond it: refused, nothing stored.
    const extra = Array.from({ length: 30 }, (_, i) => `2027-01-${String(i + 1).padStart(2, '0')} 18:00`);
    for (const recurrence of [{ rules: ['FREQ=DAILY'], rdates: extra }, { rules: ['FREQ=YEARLY;COUNT=71'] }]) {
      const capped = await call('POST', '/events', { title: 'Too many', start_date: '2027-01-01 09:00', end_date: '2027-01-01 10:00', recurrence });
      expect([capped.statusCode, capped.json.code, Object.keys(capped.json.data?.params ?? {})]).toEqual([400, 'rest_invalid_param', ['recurrence']]);
    }
    expect((await ok('GET', '/events?search=Too+many&start_date=2000-01-01')).events).toEqual([]);
  });

  it('hide_subsequent_recurrences lists only the first matching event of each series', async () => {
    const choir = await weekly(['FREQ=WEEKLY;COUNT=4']);
    const yoga = await ok('POST', '/events', { title: 'Yoga', start_date: '2027-03-15 08:00', end_date: '2027-03-15 09:00', recurrence: { rules: ['FREQ=WEEKLY;COUNT=3'] } });
    const once = await ok('POST', '/events', { title: 'Once', start_date: '2027-03-20 10:00', end_date: '2027-03-20 11:00' });
    const all = await ok('GET', '/events?start_date=2027-01-01&per_page=50');
    expect(all.total).toBe(8);
    const first = await ok('GET', '/events?start_date=2027-01-01&hide_subsequent_recurrences=true');
    expect([first.total, first.events.map((e: Listed) => e.id)]).toEqual([3, [choir.id, yoga.id, once.id]]);
    expect(first.rest_url).toContain('hide_subsequent_recurrences=1');
    // From a later day, the next occurrence of each series stands for it.
    const later = await ok('GET', '/events?start_date=2027-03-25&hide_subsequent_recurrences=true');
    const occurrenceIds = (await occurrences(choir.id)).map((e) => e.id);
    const yogaIds = (await occurrences(yoga.id)).map((e) => e.id);
    expect(later.events.map((e: Listed) => [e.id, e.start_date])).toEqual([[yogaIds[1], '2027-03-29 08:00:00'], [occurrenceIds[1], '2027-03-28 19:00:00']].sort((a, b) => String(a[1]).localeCompare(String(b[1]))));
    const bad = await call('GET', '/events?hide_subsequent_recurrences=maybe');
    expect([bad.statusCode, Object.keys(bad.json.data.params)]).toEqual([400, ['hide_subsequent_recurrences']]);
  });

  it('recurrence null makes the series a single event again; bad rules are refused and nothing is stored', async () => {
    const series = await weekly(['FREQ=WEEKLY;COUNT=3']);
    const [first] = await occurrences(series.id);
    await ok('POST', `/events/${first.id}`, { title: 'Kept' });
    const single = await ok('POST', `/events/${series.id}`, { recurrence: null });
    expect([single.recurrence, single.series]).toEqual([null, null]);
    expect(await occurrences(series.id)).toEqual([]);
    expect((await ok('GET', `/events/${first.id}`)).series).toBeNull();

    // Values RFC 5545 does not allow, which rrule would take without a word (WKST=XX, BYWEEKNO=60, COUNT=0).
    const outOfRange = ['FREQ=WEEKLY;WKST=XX', 'FREQ=YEARLY;BYWEEKNO=60', 'FREQ=DAILY;COUNT=0', 'FREQ=DAILY;INTERVAL=0', 'FREQ=MONTHLY;BYMONTHDAY=32', 'FREQ=YEARLY;BYMONTH=13', 'FREQ=MONTHLY;BYDAY=0MO'];
    for (const recurrence of [{ rules: ['FREQ=HOURLY'] }, { rules: [] }, { rules: ['FREQ=WEEKLY;BYDAY=XX'] }, 'weekly', { rules: ['FREQ=WEEKLY'], exdates: ['soon'] }, ...outOfRange.map((rule) => ({ rules: [rule] }))]) {
      const res = await call('POST', '/events', { title: 'Bad', start_date: '2027-01-01 09:00', end_date: '2027-01-01 10:00', recurrence });
      expect([res.statusCode, res.json.code, Object.keys(res.json.data.params)], JSON.stringify(recurrence)).toEqual([400, 'rest_invalid_param', ['recurrence']]);
    }
    // A series at the end of the calendar stops with the year 9999.
    const last = await ok('POST', '/events', { title: 'Last days', start_date: '9999-12-20 10:00', end_date: '9999-12-20 11:00', recurrence: { rules: ['FREQ=DAILY'] } });
    const lastDays = (await ok('GET', `/events?post_parent=${last.id}&start_date=9999-01-01&end_date=9999-12-31&per_page=50`)).events as Listed[];
    expect([lastDays.length, lastDays.at(-1)?.start_date]).toEqual([11, '9999-12-31 10:00:00']);
    await ok('DELETE', `/events/${last.id}?force=true`);
    const scope = await call('POST', `/events/${series.id}`, { recurrence_scope: 'all' });
    expect([scope.statusCode, Object.keys(scope.json.data.params)]).toEqual([400, ['recurrence_scope']]);
    expect((await ok('GET', '/events?search=Bad&start_date=2000-01-01')).events).toEqual([]);
  });
}, { CAL_RECURRENCE_HORIZON_DAYS: '45', CAL_RECURRENCE_MAX_OCCURRENCES: '70' });

describeEachDialect('recurring series in iCalendar feeds', (t) => {
  const { ok, occurrences, weekly } = seriesHelpers(t);
  const feed = async (query: string) => {
    const res = await t().request({ url: `${API}/events?${query}`, headers: { accept: 'text/calendar' } });
    expect(res.statusCode, res.body).toBe(200);
    return parseFeed(res.body);
  };

  it('a series is one VEVENT with RRULE and EXDATE, its edited occurrences exceptions with RECURRENCE-ID', async () => {
    const series = await weekly(['FREQ=WEEKLY;COUNT=6']);
    const [, second, third, fourth] = await occurrences(series.id);
    await ok('DELETE', `/events/${second.id}`);
    await ok('POST', `/events/${third.id}`, { title: 'Choir (guest)', start_date: '2027-04-05 18:00:00', end_date: '2027-04-05 20:00:00' });
    await ok('POST', `/events/${fourth.id}`, { status: 'private' }); // an exception anonymous callers do not see
    const single = await ok('POST', '/events', { title: 'Once', start_date: '2027-03-20 10:00', end_date: '2027-03-20 11:00' });

    const parsed = await feed('start_date=2027-01-01&end_date=2027-12-31');
    const uid = `${series.id}@cal.test`;
    expect(parsed.events.map((e) => [e.uid, e.isRecurrenceException()]).sort()).toEqual([[uid, false], [uid, true], [`${single.id}@cal.test`, false]].sort());
    const master = parsed.events.find((e) => e.uid === uid && !e.isRecurrenceException()) as ICAL.Event;
    const lines = unfolded(await (await t().app.inject({ url: `${API}/events?start_date=2027-01-01&end_date=2027-12-31`, headers: { accept: 'text/calendar' } })).body);
    expect(lines).toContain('RRULE:FREQ=WEEKLY;COUNT=6');
    expect(lines).toContain('EXDATE;TZID=Europe/Berlin:20270328T190000,20270411T190000');
    expect(lines).toContain('RECURRENCE-ID;TZID=Europe/Berlin:20270404T190000');
    for (const exception of parsed.events.filter((e) => e.isRecurrenceException())) master.relateException(exception);

    // A calendar app expanding the feed meets exactly what the API lists to the same caller.
    const expanded: Array<[number, string]> = [];
    const iterator = master.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      const details = master.getOccurrenceDetails(next);
      expanded.push([details.startDate.toUnixTime(), details.item.summary]);
    }
    const listed = (await t().request({ url: `${API}/events?start_date=2027-01-01&search=Choir` })).json.events as Listed[];
    expect(expanded.sort()).toEqual(listed.map((e) => [unixOf(e.utc_start_date), e.title]).sort());
  });

  it('UNTIL is written in UTC beside a DTSTART with a time zone; an all-day series stays as its occurrences', async () => {
    await weekly(['FREQ=WEEKLY;UNTIL=20270404'], { title: 'Until' });
    const allDay = await ok('POST', '/events', { title: 'Fair', start_date: '2027-05-01', end_date: '2027-05-01', all_day: true, recurrence: { rules: ['FREQ=DAILY;COUNT=3'] } });
    const lines = unfolded((await t().app.inject({ url: `${API}/events?start_date=2027-01-01&end_date=2027-12-31`, headers: { accept: 'text/calendar' } })).body);
    expect(lines).toContain('RRULE:FREQ=WEEKLY;UNTIL=20270404T215959Z');
    const parsed = await feed('start_date=2027-01-01&end_date=2027-12-31');
    expect(parsed.events.filter((e) => e.summary === 'Fair').map((e) => e.uid)).toEqual([allDay.id, allDay.id + 1, allDay.id + 2].map((id) => `${id}@cal.test`));
  });
});
