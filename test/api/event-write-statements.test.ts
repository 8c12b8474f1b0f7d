import { expect, it } from 'vitest';
import { countingApp } from '../helpers/counting-db.ts';
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
