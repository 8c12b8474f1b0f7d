import { expect, it } from 'vitest';
import { createChangeService } from '../../src/changes/change.service.ts';
import { createChangeWatch, type Forget } from '../../src/changes/change-watch.ts';
import { createStore } from '../../src/store.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const EVENT = { start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' };

// The watch another process's caches hang on (changes/change-watch.ts), on the database the app writes to.
describeEachDialect('the change watch', (t) => {
  const create = async (title: string) => {
    const res = await t().request({ method: 'POST', url: `${API}/events`, headers: (await t().user('administrator')).headers, payload: { ...EVENT, title } });
    expect(res.statusCode).toBe(201);
    return res.json.id as number;
  };

  it('learns a write from the log\'s new entries; asks where the log was pruned only when they do not follow the last one seen', async () => {
    const asked: string[] = [];
    const db = t().database.db.withPlugin({
      transformQuery: ({ node }) => (asked.push(JSON.stringify(node)), node),
      transformResult: async ({ result }) => result,
    });
    const watch = createChangeWatch(createStore(db, t().database.dialect));
    const told: Forget[] = [];
    watch.onForget((forget) => told.push(forget));
    await watch.sync();
    const askedHorizon = () => asked.some((query) => query.includes('change_log_horizon'));

    const a = await create('A');
    asked.length = 0;
    await watch.sync();
    expect(told).toEqual([[{ kind: 'event', id: a, action: 'create', seq: expect.any(Number) }]]);
    expect(askedHorizon()).toBe(false);

    // B and C pruned away (past the retention) before this watch looked: it cannot know what they changed.
    const [b, c] = [await create('B'), await create('C')];
    await t().database.db.updateTable('change_log').set({ changed_utc: '2020-01-01 00:00:00' }).where('record_id', 'in', [a, b, c]).execute();
    await createChangeService({ store: createStore(t().database.db, t().database.dialect), config: t().config, sources: {} as never }).prune();
    await create('D');
    asked.length = 0;
    await watch.sync();
    expect(askedHorizon()).toBe(true);
    expect(told.at(-1)).toBe('all');
  });
});
