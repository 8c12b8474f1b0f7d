import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { TestContext } from './test-app.ts';

/**
 * The database as an app sees it, counting the queries it runs (as their results come back, so a query
 * compiled once and run again counts each time). Queries on the tables `skip` matches are not counted:
 * the data version's read, which concurrent reads may share or not, and the timers' looks for due work (the
 * webhook dispatcher's deliveries, series due to extend: `recurrence_next`) and the writes they make (the
 * event texts reads offered, stored ~20 ms later in one statement: events/stored-texts.ts), which may fall
 * inside a measured request. A query is matched when it starts: one that started before a count was reset
 * and ends inside the next measured request would be counted there otherwise.
 */
export const TIMER_QUERIES = /"name":"(webhook\w*|recurrence_next)"|insert into event_text/;
export function countingDb<D>(db: Kysely<D>, skip = /"name":"(data_version|webhook\w*|recurrence_next)"|insert into event_text/) {
  const skipped = new WeakSet<object>();
  const counter = { queries: 0 };
  const counted = db.withPlugin({
    transformQuery: (args) => {
      if (skip.test(JSON.stringify(args.node))) skipped.add(args.queryId);
      return args.node;
    },
    transformResult: async (args) => {
      if (!skipped.has(args.queryId)) counter.queries++;
      return args.result;
    },
  });
  return { db: counted, counter };
}

/**
 * A second app on the test's database, for each test of the block, counting the queries it runs (the
 * timers' aside): another process as far as caches go, whose statements a test can count.
 */
export function countingApp(t: () => TestContext) {
  const there = {} as { app: FastifyInstance; counter: { queries: number } };
  beforeEach(async () => {
    const counting = countingDb(t().database.db, TIMER_QUERIES);
    there.counter = counting.counter;
    there.app = await buildApp({ config: t().config, database: { ...t().database, db: counting.db }, logger: false });
  });
  afterEach(() => there.app.close());
  return there;
}
