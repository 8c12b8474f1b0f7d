import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { countingApp, countingDb } from '../helpers/counting-db.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const EVENT = { start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' };

// An event's write checks the organizers, categories and tags it names by id in one statement each (one per
// id before): a create naming three of each asks the database no more than one naming one of each.
// (Counted where the counter sees them: on SQLite a compiled read runs on its statement, past it.)
describeEachDialect('an event write checks the records it names by id together', (t) => {
  const there = countingApp(t);

  const post = async (url: string, payload: Record<string, unknown>) => {
    const res = await there.app.inject({ method: 'POST', url: `${API}${url}`, headers: (await t().user('administrator')).headers, payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json() as { id: number };
  };
  /** The queries a create costs, once the caller is known and the records it names exist. */
  const createCost = async (title: string, names: { organizer: number[]; categories: number[]; tags: number[] }) => {
    there.counter.queries = 0;
    const created = await post('/events', { ...EVENT, title, ...names });
    return { queries: there.counter.queries, id: created.id };
  };

  it('three organizers, categories and tags cost what one of each does', async () => {
    await t().user('administrator');
    const ids = async (url: string, field: string) => Promise.all(['A', 'B', 'C'].map(async (name) => (await post(url, { [field]: name })).id));
    const organizers = await ids('/organizers', 'organizer');
    const categories = await ids('/categories', 'name');
    const tags = await ids('/tags', 'name');
    await createCost('Warm-up', { organizer: organizers, categories, tags });
    const one = await createCost('One each', { organizer: organizers.slice(0, 1), categories: categories.slice(0, 1), tags: tags.slice(0, 1) });
    const three = await createCost('Three each', { organizer: organizers, categories, tags });
    expect(three.queries).toBe(one.queries);
    const stored = (await there.app.inject({ url: `${API}/events/${three.id}` })).json();
    expect([stored.organizer.length, stored.categories.length, stored.tags.length]).toEqual([3, 3, 3]);
  });
});

// A create's answer is built from the links it wrote, not read back: its terms put in the order a record
// embeds them (by name) as they are checked, its organizers as given. Read back, they were one more statement
// a create (seen by the counter where reads pass it: PostgreSQL's).
describeEachDialect('an event create answers with the links it wrote', (t) => {
  it('answers terms by name and organizers as given, as a read of the event does, without reading them back', async () => {
    const headers = (await t().user('administrator')).headers;
    const linkReads = countingDb(t().database.db, /^(?!\{"kind":"(RawNode|SelectQueryNode)"[\s\S]*"event_organizer")/);
    const app = await buildApp({ config: t().config, database: { ...t().database, db: linkReads.db }, logger: false });
    try {
      const post = async (url: string, payload: Record<string, unknown>) => {
        const res = await app.inject({ method: 'POST', url: `${API}${url}`, headers, payload });
        expect(res.statusCode, res.body).toBe(201);
        return res.json();
      };
      const [zeta, alpha, mid] = await Promise.all(['zeta', 'Alpha', 'mid'].map(async (name) => (await post('/categories', { name })).id));
      const [second, first] = await Promise.all(['Second', 'First'].map(async (organizer) => (await post('/organizers', { organizer })).id));
      const creates = [
        { categories: [zeta, alpha, mid, zeta], tags: [], organizer: [second, first, second] },
        // Named ones (one new) among ids: put in order once all are known.
        { categories: [zeta, 'Beta', alpha], tags: 'b-tag,A-tag', organizer: [first] },
      ];
      for (const body of creates) {
        linkReads.counter.queries = 0;
        const created = await post('/events', { ...EVENT, title: 'Linked', ...body });
        if (t().dialect === 'postgres') expect(linkReads.counter.queries).toBe(0);
        const read = (await t().app.inject({ url: `${API}/events/${created.id}` })).json();
        // The answer is the list form (a single read's organizers carry json_ld too): their ids and order compared.
        const ids = (records: Array<{ id: number }>) => records.map((record) => record.id);
        for (const field of ['categories', 'tags', 'organizer'] as const) expect(ids(created[field]), field).toEqual(ids(read[field]));
        expect(created.categories).toEqual(read.categories);
      }
      const [plain, named] = await Promise.all(['Linked', 'linked-2'].map(async (slug) => (await t().app.inject({ url: `${API}/events/by-slug/${slug}` })).json()));
      expect(plain.categories.map((term: { name: string }) => term.name)).toEqual(['Alpha', 'mid', 'zeta']);
      expect(plain.organizer.map((organizer: { id: number }) => organizer.id)).toEqual([second, first]);
      expect(named.categories.map((term: { name: string }) => term.name)).toEqual(['Alpha', 'Beta', 'zeta']);
      expect(named.tags.map((term: { name: string }) => term.name)).toEqual(['A-tag', 'b-tag']);
    } finally {
      await app.close();
    }
  });
});

// The store binds new repositories to every transaction; the reads an event's write runs (the venue's status,
// the organizers', the slugs taken) are compiled once per database, not again in every transaction.
describeEachDialect('an event write compiles its reads once', (t) => {
  it('builds the venue and organizer status reads once for three creates in three transactions', async () => {
    const headers = (await t().user('administrator')).headers;
    let compiles = 0;
    const statusReads = t().database.db.withPlugin({
      transformQuery: ({ node }) => {
        const text = JSON.stringify(node);
        if (node.kind === 'SelectQueryNode' && /"(venue|organizer)"/.test(text) && text.includes('"status"') && !text.includes('"date_utc"')) compiles++;
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const app = await buildApp({ config: t().config, database: { ...t().database, db: statusReads }, logger: false });
    try {
      const post = async (url: string, payload: Record<string, unknown>) => {
        const res = await app.inject({ method: 'POST', url: `${API}${url}`, headers, payload });
        expect(res.statusCode, res.body).toBe(201);
        return res.json();
      };
      const venue = (await post('/venues', { venue: 'Hall' })).id;
      const organizers = [(await post('/organizers', { organizer: 'One' })).id, (await post('/organizers', { organizer: 'Two' })).id];
      compiles = 0;
      for (const title of ['First', 'Second', 'Third']) await post('/events', { ...EVENT, title, venue, organizer: organizers });
      // At most once each (another app on this database may have compiled them first).
      expect(compiles).toBeLessThanOrEqual(2);
    } finally {
      await app.close();
    }
  });
});
