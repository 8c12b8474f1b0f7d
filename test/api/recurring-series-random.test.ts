import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const STEPS = Number(process.env.SERIES_STEPS ?? 80);
const SEED = Number(process.env.SERIES_SEED ?? 20261123);

/** A small seeded random source (the same run every time for a seed). */
function randomOf(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return { int: (n: number) => Math.floor(next() * n), pick: <T>(items: T[]): T => items[Math.floor(next() * items.length)] };
}

// Random edits of series and their occurrences, one after another; after each, what must always hold of
// the stored series. Every answer is a success or a 4xx in the contract's shape, never a 5xx.
describeEachDialect('recurring series under random edits', (t) => {
  it(`${STEPS} random series edits keep every series whole (seed ${SEED})`, async () => {
    const random = randomOf(SEED);
    const headers = (await t().user('editor')).headers;
    const statuses: number[] = [];
    const call = async (method: string, url: string, payload?: Record<string, unknown>) => {
      const res = await t().request({ method: method as 'GET', url: `${API}${url}`, headers, payload });
      statuses.push(res.statusCode);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode >= 400) expect(Object.keys(res.json)).toEqual(['code', 'message', 'data']);
      return res;
    };
    const db = t().database.db;
    const rules = () => random.pick(['FREQ=WEEKLY;COUNT=5', 'FREQ=DAILY;COUNT=4', 'FREQ=WEEKLY;BYDAY=MO,TH;COUNT=6', 'FREQ=WEEKLY', 'FREQ=MONTHLY;BYMONTHDAY=3;COUNT=3']);
    const day = () => `2027-0${3 + random.int(3)}-${String(1 + random.int(27)).padStart(2, '0')}`;
    const hour = () => String(8 + random.int(12)).padStart(2, '0');
    for (let i = 0; i < 3; i++) {
      const at = `${day()} ${hour()}:00`;
      await call('POST', '/events', { title: `Series ${i}`, start_date: at, end_date: at, timezone: 'Europe/Berlin', categories: [random.pick(['A', 'B'])], recurrence: { rules: [rules()] } });
    }

    const events = () => db.selectFrom('event').select(['id', 'parent_id', 'original_start', 'override', 'status', 'title', 'recurrence', 'start_local']).execute();
    for (let step = 0; step < STEPS; step++) {
      const all = await events();
      const heads = all.filter((e) => e.recurrence !== null);
      const occurrences = all.filter((e) => e.parent_id !== 0 && e.original_start !== null);
      const head = random.pick(heads.length > 0 ? heads : all);
      const occurrence = occurrences.length > 0 ? random.pick(occurrences) : head;
      const at = `${day()} ${hour()}:${random.pick(['00', '30'])}`;
      switch (random.int(11)) {
        case 0: await call('POST', `/events/${head.id}`, { title: `Series ${step}` }); break;
        case 1: await call('POST', `/events/${head.id}`, { start_date: at, end_date: at }); break;
        case 2: await call('POST', `/events/${head.id}`, { recurrence: { rules: [rules()] } }); break;
        case 3: await call('POST', `/events/${head.id}`, { categories: [random.pick(['A', 'B', 'C'])] }); break;
        case 4: await call('POST', `/events/${occurrence.id}`, { title: `Alone ${step}`, ...(random.int(2) ? { start_date: at, end_date: at } : {}) }); break;
        case 5: await call('POST', `/events/${occurrence.id}`, { recurrence_scope: 'following', title: `Split ${step}` }); break;
        case 6: await call('DELETE', `/events/${occurrence.id}${random.int(2) ? '?force=true' : ''}`); break;
        case 7: await call('POST', `/events/${random.pick(all).id}`, { status: 'publish' }); break;
        case 8: await call('DELETE', `/events/${head.id}${random.int(3) === 0 ? '?force=true' : ''}`); break;
        case 9: if (random.int(3) === 0) await call('POST', `/events/${head.id}`, { recurrence: null }); break;
        default: {
          const again = `${day()} ${hour()}:00`;
          await call('POST', '/events', { title: `Series new ${step}`, start_date: again, end_date: again, categories: ['A'], recurrence: { rules: [rules()] } });
        }
      }

      const now = await events();
      const byId = new Map(now.map((e) => [e.id, e]));
      const where = `after step ${step}`;
      for (const e of now.filter((row) => row.parent_id !== 0)) {
        const series = byId.get(e.parent_id);
        // An occurrence's series exists and is a series; an occurrence the series made (not edited alone) is
        // like it, but for its dates (and the trash, where a deleted occurrence stays).
        expect(series?.recurrence, `${where}: ${e.id} of ${e.parent_id}`).toBeTypeOf('string');
        expect(e.original_start, where).not.toBeNull();
        if (e.override === 0 && e.status !== 'trash') expect([e.title, e.status], `${where}: ${e.id}`).toEqual([series?.title, series?.status]);
      }
      const slots = now.filter((e) => e.parent_id !== 0).map((e) => `${e.parent_id} ${e.original_start}`);
      expect(new Set(slots).size, `${where}: an occurrence twice`).toBe(slots.length);
      const counts = await sql<{ n: number }>`select count(*) as n from term t where t.count <> (select count(*) from event_term et join event e on e.id = et.event_id where et.term_id = t.id and e.status = 'publish')`.execute(db);
      expect(Number(counts.rows[0].n), `${where}: term counts`).toBe(0);
    }
    // The run did edit series (most edits succeed; the rest are a deleted record's 404, a second trash's 410).
    expect(statuses.filter((status) => status < 300).length, JSON.stringify(statuses)).toBeGreaterThan(STEPS / 2);
    expect((await events()).filter((e) => e.parent_id !== 0).length).toBeGreaterThan(0);
  });
}, { CAL_RECURRENCE_HORIZON_DAYS: '120', CAL_RECURRENCE_MAX_OCCURRENCES: '200' });
