import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, type Metric, Registry } from 'prom-client';
import { cacheStats } from '../db/versioned-cache.ts';

/**
 * Prometheus metrics at /metrics (prom-client, a registry per app): requests by route pattern, method and
 * status with a latency histogram, the database pool, cache lookups by cache and result, rate-limit
 * refusals, and the process's own (memory, event loop, GC). Recording costs a few map lookups a request.
 */
export function registerMetrics(app: FastifyInstance, deps: { pool?: () => { total: number; idle: number; waiting: number } }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = requestTally(registry);
  const refusals = new Counter({ name: 'rate_limit_rejections_total', help: 'Requests refused with 429, by budget', labelNames: ['budget'], registers: [registry] });
  new Gauge({
    name: 'cache_lookups_total', help: 'Cache lookups since start, by cache and result (hit or miss)', labelNames: ['cache', 'result'], registers: [registry],
    collect() {
      for (const [cache, stats] of cacheStats) {
        this.set({ cache, result: 'hit' }, stats.hits);
        this.set({ cache, result: 'miss' }, stats.misses);
      }
    },
  });
  const { pool } = deps;
  if (pool) {
    new Gauge({
      name: 'db_pool_connections', help: 'PostgreSQL pool connections, by state (total, idle, waiting requests)', labelNames: ['state'], registers: [registry],
      collect() {
        const state = pool();
        this.set({ state: 'total' }, state.total);
        this.set({ state: 'idle' }, state.idle);
        this.set({ state: 'waiting' }, state.waiting);
      },
    });
  }

  // Counted by the route's pattern, never the raw URL (unbounded label values), from a hook of each route's
  // own bound to its pattern: one hook of the app's found it through `request.routeOptions`, which Fastify
  // builds anew at each access (~1.5% of a kept single read's instructions). Only routes added after this are
  // counted so: it is registered before any route. Requests no route matched count as one.
  app.addHook('onRoute', (options) => {
    const counted = requests.route(options.url);
    const count: onResponseHookHandler = (request, reply, done) => {
      counted(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    options.onResponse = [count, ...[options.onResponse ?? []].flat()];
  });
  const unmatched = requests.route('unmatched');
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unmatched(request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { config: { hidden: true } }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
  return { rejected: (budget: string) => refusals.inc({ budget }) };
}

const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

/** What one route pattern answered to one method: counts by status, and the latency histogram. */
interface MethodTally {
  labels: { route: string; method: string };
  statuses: Map<number, number>;
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * Requests by route, method and status, and their latency histogram by route and method, counted in plain
 * numbers and handed to prom-client in its metric shape only when scraped: prom-client's own counter and
 * histogram hash their label set at every call, ~6% of a cached single read. Each route's counter is bound
 * to its pattern, so a request builds no key to find its tally.
 */
function requestTally(registry: Registry) {
  const tallies: MethodTally[] = [];
  const metric = (name: string, help: string, type: 'counter' | 'histogram', values: () => object[]) =>
    // prom-client's registry formats any metric that says its name, help and type and gives its values.
    registry.registerMetric({ name, help, type, aggregator: 'sum', get: async () => ({ name, help, type, aggregator: 'sum', values: values() }) } as unknown as Metric);
  metric('http_requests_total', 'Requests answered, by route pattern, method and status', 'counter', () =>
    tallies.flatMap(({ labels, statuses }) => [...statuses].map(([status, value]) => ({ labels: { ...labels, status: String(status) }, value }))));
  metric('http_request_duration_seconds', 'Time to answer, by route pattern and method', 'histogram', () =>
    tallies.flatMap(({ labels, buckets, sum, count }) => {
      let below = 0;
      return [
        ...DURATION_BUCKETS.map((le, i) => ({ metricName: 'http_request_duration_seconds_bucket', labels: { le, ...labels }, value: (below += buckets[i]) })),
        { metricName: 'http_request_duration_seconds_bucket', labels: { le: '+Inf', ...labels }, value: count },
        { metricName: 'http_request_duration_seconds_sum', labels, value: sum },
        { metricName: 'http_request_duration_seconds_count', labels, value: count },
      ];
    }));
  return {
    /** Counts the answers of the route `route` (a pattern): by method, status and time taken. */
    route(route: string) {
      const methods = new Map<string, MethodTally>();
      return (method: string, status: number, seconds: number) => {
        let tally = methods.get(method);
        if (!tally) {
          tally = { labels: { route, method }, statuses: new Map(), buckets: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 };
          methods.set(method, tally);
          tallies.push(tally);
        }
        tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
        let bucket = 0;
        while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket++;
        if (bucket < DURATION_BUCKETS.length) tally.buckets[bucket]++;
        tally.sum += seconds;
        tally.count++;
      };
    },
  };
}
