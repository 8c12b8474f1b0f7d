import { CompiledQuery, type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import { DateTime } from 'luxon';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { SeriesKey } from '../../src/events/event.repository.ts';
import { createRepositories } from '../../src/store.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const ONE_MILLION_STATS = [
  ['event', 'event_recurrence_next_idx', '1000477 1001'], ['event', 'event_series_idx', '1000477 18 2 2'],
  ['event', 'event_venue_window_idx', '1000477 501 286 251 1 1 1 1'], ['event', 'event_modified_idx', '1000477 1 1'],
  ['event', 'event_window_utc_idx', '1000477 1001 1001 2 1 1'], ['event', 'event_window_local_idx', '1000477 1001 1001 3 1 1'],
  ['event', 'event_start_local_idx', '1000477 16 1'], ['event', 'event_start_utc_idx', '1000477 9 1'], ['event', 'event_slug_idx', '1000477 1'],
  ['event', 'event_id_idx', '1000477 1'], ['event_text', 'event_text_fingerprint_idx', '1000477 1001 1'],
];

// Two walks look at every event: the one that stores the texts of those without one, at every start
// (events/stored-texts.ts), and the one that finds the series due to grow, at start and hourly. Each reads
// an index a page at a time: the first a range of ids, the second past the last series it read (`SeriesKey`).
describeEachDialect('the walks over every event', (t) => {
  const db = () => t().database.db;
  const repos = () => createRepositories(db(), t().dialect);
  const create = async (title: string, start: string, extra: Record<string, unknown> = {}) => {
    const res = await t().request({
      method: 'POST', url: `${API}/events`, headers: (await t().user('administrator')).headers,
      payload: { title, start_date: start, end_date: start.replace(/ \d\d:/, ' 23:'), ...extra },
    });
    expect(res.statusCode, JSON.stringify(res.json)).toBe(201);
    return res.json.id as number;
  };

  it('the text walk reads ranges of ids, and stores the texts of all but the trash', async () => {
    const tied = [];
    for (let i = 0; i < 5; i++) tied.push(await create(`Tied ${i}`, '2027-05-01 10:00:00'));
    const earlier = await create('Earlier', '2027-04-01 10:00:00');
    const later = await create('Later', '2027-06-01 10:00:00');
    const trashed = await create('Trashed', '2027-05-01 09:00:00');
    expect((await t().request({ method: 'DELETE', url: `${API}/events/${trashed}`, headers: (await t().user('administrator')).headers })).statusCode).toBe(200);
    const all = [...tied, earlier, later, trashed];
    expect(await repos().eventTexts.lastId()).toBe(Math.max(...all));
    // Ids from a range, in id order, the trash among them (the service leaves it out); none past the range.
    expect(await repos().eventTexts.unstored('walk-test', tied[1], earlier)).toEqual([tied[2], tied[3], tied[4], earlier]);

    const app = await buildApp({ config: t().config, database: t().database, logger: false });
    try {
      expect(await app.storeEventTexts(() => false, 2)).toBe(7);
      const rows = await db().selectFrom('event_text').select('event_id').orderBy('event_id').execute();
      expect(rows.map((row) => row.event_id)).toEqual([...tied, earlier, later]);
      // A text of another fingerprint (other settings, other code) is one to store.
      await db().updateTable('event_text').set({ fingerprint: 'other' }).where('event_id', '=', tied[3]).execute();
      expect(await app.storeEventTexts(() => false, 2)).toBe(1);
      expect(await app.storeEventTexts(() => false, 2)).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('series due come in pages of their next start, ties by id, each once, none past the horizon', async () => {
    const rules = { recurrence: { rules: ['FREQ=DAILY'] } };
    const series = [];
    for (let i = 0; i < 4; i++) series.push(await create(`Daily ${i}`, '2027-05-01 08:00:00', rules));
    // The next starts as the database has them: two tied, one after, one beyond what is asked for.
    const next = ['2027-06-10 08:00:00', '2027-06-02 08:00:00', '2027-06-02 08:00:00', '2027-09-01 08:00:00'];
    for (const [i, id] of series.entries()) await db().updateTable('event').set({ recurrence_next: next[i] }).where('id', '=', id).execute();

    const seen: number[] = [];
    let after: SeriesKey | undefined;
    for (let page = await repos().events.seriesDue('2027-07-01 00:00:00', after, 1); page.length > 0; page = await repos().events.seriesDue('2027-07-01 00:00:00', after, 1)) {
      expect(page.length).toBe(1);
      seen.push(page[0].id);
      after = page.at(-1);
    }
    expect(seen).toEqual([series[1], series[2], series[0]]);
  });

  // What SQLite's plans do with a big file: with nothing left to do, neither walk reads an event's row (at
  // 1M events, the text walk read the whole 6 GB file and the series' walk 2 GB, 0.4 s of the process even
  // warm, because SQLite walked the event table in id order to spare a sort).
  it('on SQLite, with nothing left to do, both walks read indexes alone', async ({ skip }) => {
    if (t().dialect !== 'sqlite') skip('the plans are SQLite\'s');
    const statements: CompiledQuery[] = [];
    const capture: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => {
        statements.push(db().getExecutor().compileQuery(node as RootOperationNode, queryId));
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    // A series that has ended: an open-ended one is looked at again each time (its next start is in the margin).
    await create('Thrice', DateTime.utc().toFormat('yyyy-MM-dd 08:00:00'), { recurrence: { rules: ['FREQ=DAILY;COUNT=3'] } });
    for (let i = 0; i < 3; i++) await create(`Plain ${i}`, '2027-05-01 10:00:00');
    // SQLite plans by its statistics: these are a 1M-event file's (read off the benchmark's; the id index's as
    // any unique index's), where no event is a series (a next start of NULL, 1M times, reads as ~1000 a value).
    await sql`analyze`.execute(db());
    await sql`delete from sqlite_stat1`.execute(db());
    for (const [table, index, stat] of ONE_MILLION_STATS) await sql`insert into sqlite_stat1 (tbl, idx, stat) values (${table}, ${index}, ${stat})`.execute(db());
    await sql`analyze sqlite_schema`.execute(db());
    const app = await buildApp({ config: t().config, database: { ...t().database, db: db().withPlugin(capture) }, logger: false });
    try {
      await app.extendSeries();
      await app.storeEventTexts(() => false);
      statements.length = 0;
      expect(await app.storeEventTexts(() => false)).toBe(0);
      await app.extendSeries();
    } finally {
      await app.close();
    }
    const plans = [];
    for (const statement of statements.filter((s) => /\bfrom "event"/.test(s.sql))) {
      const plan = await db().executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]));
      plans.push(...plan.rows.map((row) => row.detail).filter((detail) => /\bevent(_text)?\b/.test(detail)));
    }
    // Both walks ran (the text walk's ranges are the events' id index with their texts' fingerprint index).
    expect(plans.some((detail) => detail.includes('event_recurrence_next_idx'))).toBe(true);
    expect(plans.some((detail) => detail.includes('event_id_idx'))).toBe(true);
    expect(plans.some((detail) => detail.includes('event_text_fingerprint_idx'))).toBe(true);
    expect(plans.filter((detail) => !detail.includes('USING COVERING INDEX'))).toEqual([]);
  });
});
