import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminAuth, postgresSchema, SERVICE_START_MS, startService, type ServiceProcess } from '../helpers/spawn-service.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const EVENT = { start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' };
const N = 40;

/** What every scenario checks afterwards: one record per name, every event linked to it, counts right. */
async function expectConverged(read: (path: string) => Promise<any>, events: any[]) {
  const venues = (await read('/venues?per_page=100&search=Brand')).venues;
  expect(venues.map((v: { venue: string }) => v.venue)).toEqual(['Brand New Hall']);
  const organizers = (await read('/organizers?per_page=100&search=Brand')).organizers;
  expect(organizers.map((o: { organizer: string }) => o.organizer)).toEqual(['Brand New Club']);
  const categories = (await read('/categories?hide_empty=false&per_page=100')).categories.filter((c: { name: string }) => c.name === 'Brand New Cat');
  expect(categories).toHaveLength(1);
  expect(categories[0].count).toBe(events.length);
  const tags = (await read('/tags?hide_empty=false&per_page=100')).tags.filter((c: { name: string }) => c.name === 'brand-new-tag');
  expect(tags).toHaveLength(1);
  for (const event of events) {
    expect(event.venue.id).toBe(venues[0].id);
    expect(event.organizer.map((o: { id: number }) => o.id)).toEqual([organizers[0].id]);
  }
  // Events of one title made at once get distinct slugs, as one after another would.
  const slugs = events.map((e) => e.slug);
  expect(new Set(slugs).size).toBe(slugs.length);
}

type Call = (method: string, path: string, payload?: unknown) => Promise<{ status: number; json: any }>;

/**
 * Writers racing on one recurring series (issue 12): edits moving its time (each rewriting every
 * occurrence), an edit of one occurrence (an override), and deletes of three others (each adding an
 * exception to the series' rules), all at once. Afterwards each occurrence is at the series' last time,
 * no start twice, no exception lost, the override kept, counts right.
 */
async function raceOnOneSeries(call: (i: number) => Call) {
  const made = await call(0)('POST', '/events', {
    title: 'Raced series', start_date: '2027-05-03 18:00', end_date: '2027-05-03 19:00', timezone: 'Europe/Paris',
    categories: ['Series Cat'], recurrence: { rules: ['FREQ=WEEKLY;COUNT=10'] },
  });
  expect(made.status).toBe(201);
  const series = made.json;
  const list = async () => (await call(0)('GET', `/events?post_parent=${series.id}&start_date=2000-01-01&per_page=50`)).json.events;
  const [edited, ...doomed] = (await list()).slice(0, 4);
  const answers = await Promise.all([
    ...Array.from({ length: 12 }, (_, i) => call(i)('POST', `/events/${series.id}`, {
      start_date: `2027-05-03 18:${String(i).padStart(2, '0')}`, end_date: '2027-05-03 20:00', description: `Edit ${i}`,
    })),
    call(1)('POST', `/events/${edited.id}`, { title: 'Raced, edited alone' }),
    ...doomed.map((occurrence: { id: number }, i: number) => call(i + 1)('DELETE', `/events/${occurrence.id}`)),
  ]);
  expect(answers.map((a) => a.status), JSON.stringify(answers.find((a) => a.status !== 200)?.json)).toEqual(Array(answers.length).fill(200));
  const final = (await call(0)('GET', `/events/${series.id}`)).json;
  // The exceptions moved with the series' time, as every occurrence did.
  const time = final.start_date.slice(11);
  expect(final.recurrence.exdates).toEqual(doomed.map((o: { start_date: string }) => `${o.start_date.slice(0, 10)} ${time}`));
  const left = await list();
  const starts = left.map((o: { series: { original_start: string } }) => o.series.original_start);
  expect(new Set(starts).size).toBe(starts.length);
  expect(left).toHaveLength(10 - 1 - 3);
  const generated = left.filter((o: { id: number }) => o.id !== edited.id);
  expect(generated.every((o: { start_date: string; description: string }) => o.start_date.endsWith(time) && o.description === final.description)).toBe(true);
  expect(left.find((o: { id: number }) => o.id === edited.id)?.title).toBe('Raced, edited alone');
  const category = (await call(0)('GET', `/categories/${series.categories[0].id}`)).json;
  expect(category.count).toBe(1 + left.length);
}

const body = (i: number) => ({
  ...EVENT, title: 'Same Title', venue: { venue: 'Brand New Hall' }, organizer: [{ organizer: 'Brand New Club' }],
  categories: ['Brand New Cat'], tags: ['brand-new-tag'], description: `Writer ${i}`,
});

// Parallel writers can race only where several transactions run at once: PostgreSQL. (SQLite writes one
// transaction at a time; its run of these cases checks that the retry and lock paths change nothing there.)
describeEachDialect('parallel writers in one process', (t) => {
  let headers: Record<string, string>;
  beforeEach(async () => {
    headers = (await t().user('administrator')).headers; // made once, before the writers start
  });
  const call = async (method: string, url: string, payload?: unknown) =>
    t().request({ method, url: `${API}${url}`, headers, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });

  it(`${N} creates naming the same new venue, organizer, category and tag converge on one of each, with no 5xx`, async () => {
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => call('POST', '/events', body(i))));
    expect(answers.map((a) => a.statusCode), JSON.stringify(answers.find((a) => a.statusCode !== 201)?.json)).toEqual(Array(N).fill(201));
    await expectConverged(async (path) => (await call('GET', path)).json, answers.map((a) => a.json));
  });

  it(`${N} updates assigning the same new categories converge, and direct term creates of one name make one`, async () => {
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => call('POST', '/events', { ...EVENT, title: `Event ${i}` })));
    const updates = await Promise.all(made.flatMap((m) => [1, 2, 3, 4].map(() => call('POST', `/events/${m.json.id}`, { categories: ['Fresh Cat', 'Other Cat'] }))));
    expect(updates.every((u) => u.statusCode === 200)).toBe(true);
    const categories = (await call('GET', '/categories?hide_empty=false&per_page=100')).json.categories;
    expect(categories.map((c: { name: string; count: number }) => [c.name, c.count]).sort()).toEqual([['Fresh Cat', 10], ['Other Cat', 10]]);
    const direct = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/tags', { name: 'Direct' })));
    expect(direct.map((d) => d.statusCode).sort()).toEqual([201, ...Array(9).fill(400)]);
    expect(direct.filter((d) => d.statusCode === 400).every((d) => d.json.code === 'term_exists')).toBe(true);
  });

  it('edits of a recurring series, of one occurrence and deletes of others at once converge', async () => {
    await raceOnOneSeries(() => async (method, path, payload) => {
      const res = await call(method, path, payload);
      return { status: res.statusCode, json: res.json };
    });
  });
});

// Two service processes on one database: PostgreSQL (writers side by side), and one SQLite file (each process
// commits its writes in groups, db/store.ts; a group that loses the file to the other process runs again).
const pgUrl = process.env.TEST_DATABASE_URL;
const shared: Array<{ label: string; open(): Promise<{ url: string; drop(): Promise<void> }> }> = [
  {
    label: 'one SQLite file',
    async open() {
      const folder = mkdtempSync(join(tmpdir(), 'cal-two-'));
      return { url: `sqlite:${join(folder, 'cal.db')}`, drop: async () => rmSync(folder, { recursive: true, force: true }) };
    },
  },
  ...(pgUrl ? [{
    label: 'one PostgreSQL',
    async open() {
      const schema = await postgresSchema(pgUrl, `parallel_${process.pid}_${Date.now()}`);
      return { url: schema.url, drop: () => schema.drop() };
    },
  }] : []),
];
for (const target of shared) {
  describe(`parallel writers in two processes on ${target.label}`, { timeout: 120_000 }, () => {
    let database: Awaited<ReturnType<typeof target.open>>;
    let services: ServiceProcess[];
    beforeAll(async () => {
      database = await target.open();
      // One after the other: the first migrates the empty database.
      services = [await startService({ DATABASE_URL: database.url }), await startService({ DATABASE_URL: database.url })];
    }, 2 * SERVICE_START_MS);
    afterAll(async () => {
      await Promise.all((services ?? []).map((s) => s.stop()));
      await database.drop();
    });
    const fetchJson = async (base: string, method: string, path: string, payload?: unknown) => {
      const response = await fetch(`${base}${API}${path}`, { method, headers: { ...adminAuth, 'content-type': 'application/json' }, ...(payload ? { body: JSON.stringify(payload) } : {}) });
      return { status: response.status, json: await response.json() };
    };

    it(`${N} creates spread over both converge on one venue, organizer, category and tag; no 5xx; no stale read`, async () => {
      const answers = await Promise.all(Array.from({ length: N }, (_, i) => fetchJson(services[i % 2].url, 'POST', '/events', body(i))));
      expect(answers.map((a) => a.status), JSON.stringify(answers.find((a) => a.status !== 201)?.json)).toEqual(Array(N).fill(201));
      await expectConverged(async (path) => (await fetchJson(services[0].url, 'GET', path)).json, answers.map((a) => a.json));
      // A write acknowledged by one process is what the other reads next, at once.
      for (let i = 0; i < 20; i++) {
        const [writer, reader] = i % 2 === 0 ? services : [...services].reverse();
        const id = answers[i].json.id;
        expect((await fetchJson(writer.url, 'POST', `/events/${id}`, { title: `Renamed ${i}` })).status).toBe(200);
        expect((await fetchJson(reader.url, 'GET', `/events/${id}`)).json.title).toBe(`Renamed ${i}`);
      }
    });

    it('edits of one recurring series and deletes of its occurrences spread over both converge', async () => {
      await raceOnOneSeries((i) => (method, path, payload) => fetchJson(services[i % 2].url, method, path, payload));
    });
  });
}
