import type { Kysely } from 'kysely';

/**
 * The database as an app sees it, counting the queries it runs (as their results come back, so a query
 * compiled once and run again counts each time). Queries on the tables `skip` matches are not counted:
 * the data version's read, which concurrent reads may share or not, and the timers' looks for due work (the
 * webhook dispatcher's deliveries, series due to extend: `recurrence_next`), which may fall inside a
 * measured request.
 */
export const TIMER_QUERIES = /"name":"(webhook\w*|recurrence_next)"/;
export function countingDb<D>(db: Kysely<D>, skip = /"name":"(data_version|webhook\w*|recurrence_next)"/) {
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
