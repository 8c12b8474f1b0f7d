import type { Kysely } from 'kysely';

/**
 * The database as an app sees it, counting the queries it runs (as their results come back, so a query
 * compiled once and run again counts each time). Queries on the tables `skip` matches are not counted:
 * the data version's read, which concurrent reads may share or not, and the webhook dispatcher's look for
 * due deliveries, on a timer that may fall inside a measured request.
 */
export function countingDb<D>(db: Kysely<D>, skip = /"name":"(data_version|webhook\w*)"/) {
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
