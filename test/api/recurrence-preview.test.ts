import { expect, it } from 'vitest';
import { API, describeEachDialect } from '../helpers/test-app.ts';

describeEachDialect('POST /recurrence/preview: the dates a rule gives, writing nothing', (t) => {
  const preview = async (body: Record<string, unknown>, role: 'administrator' | 'contributor' | 'subscriber' | null = 'contributor') =>
    t().request({ method: 'POST', url: `${API}/recurrence/preview`, headers: role ? (await t().user(role)).headers : {}, payload: body });
  const starts = async (body: Record<string, unknown>) => {
    const res = await preview(body);
    expect(res.statusCode, JSON.stringify(res.json)).toBe(200);
    return res.json.occurrences.map((o: { start_date: string }) => o.start_date);
  };
  const badParam = async (body: Record<string, unknown>, param: string) => {
    const res = await preview(body);
    expect([res.statusCode, res.json.code, Object.keys(res.json.data?.params ?? {})], JSON.stringify(res.json)).toEqual([400, 'rest_invalid_param', [param]]);
    return res.json;
  };

  it('keeps the wall-clock time across a change of daylight-saving time, weekly and monthly', async () => {
    const weekly = await preview({
      start_date: '2027-03-21 19:00:00', end_date: '2027-03-21 21:00:00', timezone: 'Europe/Berlin', recurrence: { rules: ['FREQ=WEEKLY;COUNT=3'] },
    });
    expect(weekly.json).toEqual({
      occurrences: [
        { start_date: '2027-03-21 19:00:00', end_date: '2027-03-21 21:00:00', utc_start_date: '2027-03-21 18:00:00', utc_end_date: '2027-03-21 20:00:00', timezone_abbr: 'CET' },
        { start_date: '2027-03-28 19:00:00', end_date: '2027-03-28 21:00:00', utc_start_date: '2027-03-28 17:00:00', utc_end_date: '2027-03-28 19:00:00', timezone_abbr: 'CEST' },
        { start_date: '2027-04-04 19:00:00', end_date: '2027-04-04 21:00:00', utc_start_date: '2027-04-04 17:00:00', utc_end_date: '2027-04-04 19:00:00', timezone_abbr: 'CEST' },
      ],
      total: 3, capped: false, warnings: [],
    });
    const monthly = (await preview({
      start_date: '2027-02-10 09:00:00', end_date: '2027-02-10 10:00:00', timezone: 'America/New_York', recurrence: { rules: ['FREQ=MONTHLY;COUNT=3'] },
    })).json.occurrences;
    expect(monthly.map((o: { utc_start_date: string }) => o.utc_start_date)).toEqual(['2027-02-10 14:00:00', '2027-03-10 14:00:00', '2027-04-10 13:00:00']);
  });

  it('BYSETPOS, months without the day, UNTIL (a date, a UTC time) against COUNT', async () => {
    const base = { start_date: '2027-01-29 19:00:00', end_date: '2027-01-29 20:00:00', timezone: 'UTC' };
    expect(await starts({ ...base, recurrence: { rules: ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=4'] } }))
      .toEqual(['2027-01-29 19:00:00', '2027-02-26 19:00:00', '2027-03-31 19:00:00', '2027-04-30 19:00:00']);
    const day31 = { start_date: '2027-01-31 19:00:00', end_date: '2027-01-31 20:00:00', timezone: 'UTC' };
    expect(await starts({ ...day31, recurrence: { rules: ['FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4'] } }))
      .toEqual(['2027-01-31 19:00:00', '2027-03-31 19:00:00', '2027-05-31 19:00:00', '2027-07-31 19:00:00']);
    const daily = { start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00', timezone: 'Europe/Berlin' };
    expect(await starts({ ...daily, recurrence: { rules: ['FREQ=DAILY;UNTIL=20270105'] } })).toHaveLength(5);
    expect(await starts({ ...daily, recurrence: { rules: ['FREQ=DAILY;COUNT=5'] } })).toHaveLength(5);
    // 09:00 UTC is 10:00 in Berlin in January: the third day's 10:00 is the last.
    expect((await starts({ ...daily, recurrence: { rules: ['FREQ=DAILY;UNTIL=20270103T090000Z'] } })).at(-1)).toBe('2027-01-03 10:00:00');
    await badParam({ ...daily, recurrence: { rules: ['FREQ=DAILY;UNTIL=20270105;COUNT=3'] } }, 'recurrence');
  });

  it('exception and extra dates; a time the clocks skip is moved, and said', async () => {
    const res = await preview({
      start_date: '2027-03-14 02:30:00', end_date: '2027-03-14 04:00:00', timezone: 'Europe/Berlin',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=5'], exdates: ['2027-03-21', '2027-04-04 02:30:00', '2027-05-01'], rdates: ['2027-03-24 18:00'] },
    });
    expect(res.json.occurrences.map((o: { start_date: string }) => o.start_date))
      .toEqual(['2027-03-14 02:30:00', '2027-03-24 18:00:00', '2027-03-28 03:30:00', '2027-04-11 02:30:00']);
    expect(res.json.warnings).toEqual([
      'The exception 2027-05-01 02:30:00 matches no occurrence.',
      '2027-03-28 02:30:00 does not exist in Europe/Berlin (the clocks go forward then): that occurrence starts at 2027-03-28 03:30:00.',
    ]);
  });

  it('a limit caps the list; an open rule stops at `through`', async () => {
    const base = { start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00', timezone: 'UTC', recurrence: { rules: ['FREQ=DAILY'] } };
    const capped = await preview({ ...base, limit: 3 });
    expect([capped.json.total, capped.json.capped]).toEqual([3, true]);
    const through = await preview({ ...base, through: '2027-01-10' });
    expect([through.json.total, through.json.capped, through.json.occurrences.at(-1).start_date]).toEqual([10, false, '2027-01-10 10:00:00']);
    expect((await preview(base)).json.total).toBe(366); // a year after the start, both ends included
  });

  it('refuses what is not a usable rule with a 400 naming recurrence, a rule that never matches within the deadline', async () => {
    const base = { start_date: '2027-01-29 19:00:00', end_date: '2027-01-29 20:00:00', timezone: 'UTC' };
    await badParam({ ...base, recurrence: { rules: ['FREQ=WEEKLY;FOO=BAR'] } }, 'recurrence');
    await badParam({ ...base, recurrence: { rules: ['FREQ=HOURLY'] } }, 'recurrence');
    await badParam({ ...base, recurrence: { rules: ['FREQ=WEEKLY;BYDAY=XX'] } }, 'recurrence');
    await badParam({ ...base, recurrence: { rules: ['FREQ=WEEKLY'], exdates: ['next tuesday'] } }, 'recurrence');
    await badParam({ ...base, start_date: 'whenever', recurrence: { rules: ['FREQ=WEEKLY'] } }, 'start_date');
    await badParam({ ...base, through: 'some day', recurrence: { rules: ['FREQ=WEEKLY'] } }, 'through');
    await badParam({ ...base, limit: 0, recurrence: { rules: ['FREQ=WEEKLY'] } }, 'limit');
    await badParam({ ...base, timezone: 'Mars/Olympus', recurrence: { rules: ['FREQ=WEEKLY'] } }, 'timezone');
    expect((await preview({ ...base, recurrence: {} })).statusCode).toBe(400);
    const began = Date.now();
    const never = await badParam({ ...base, recurrence: { rules: ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30'] } }, 'recurrence');
    expect(never.data.params.recurrence).toMatch(/too long/);
    expect(Date.now() - began).toBeLessThan(5000);
    // The expander is back for the next caller.
    expect(await starts({ ...base, recurrence: { rules: ['FREQ=YEARLY;COUNT=2'] } })).toEqual(['2027-01-29 19:00:00', '2028-01-29 19:00:00']);
  });

  it('is for those who may write events (401 anonymous, 403 a subscriber), and writes nothing', async () => {
    const body = { start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00', recurrence: { rules: ['FREQ=DAILY;COUNT=2'] } };
    const version = async () => (await t().database.db.selectFrom('data_version').select('version').executeTakeFirstOrThrow()).version;
    const before = await version();
    expect((await preview(body, null)).statusCode).toBe(401);
    expect((await preview(body, 'subscriber')).statusCode).toBe(403);
    expect((await preview(body, 'administrator')).statusCode).toBe(200);
    expect(await version()).toBe(before);
  });
});
