import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { cacheStats } from '../db/versioned-cache.ts';

/**
 * Prometheus metrics at /metrics (prom-client, a registry per app): requests by route pattern, method and
 * status with a latency histogram, the database pool, cache lookups by cache and result, rate-limit
 * refusals, and the process's own (memory, event loop, GC). Recording costs a few map lookups a request.
 */
export function registerMetrics(app: FastifyInstance, deps: { pool?: () => { total: number; idle: number; waiting: number } }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'http_requests_total', help: 'Requests answered, by route pattern, method and status', labelNames: ['route', 'method', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'http_request_duration_seconds', help: 'Time to answer, by route pattern and method', labelNames: ['route', 'method'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5], registers: [registry],
  });
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

  // Each label set's child is looked up once: prom-client hashes a label object on every call otherwise,
  // which cost a quarter of a cached single read.
  const children = new Map<string, { count: Counter; time: ReturnType<Histogram['labels']> }>();
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern, never the raw URL (unbounded label values); unmatched requests count as one.
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${route}\0${request.method}\0${reply.statusCode}`;
    let child = children.get(key);
    if (!child) {
      child = { count: requests.labels(route, request.method, String(reply.statusCode)) as unknown as Counter, time: latency.labels(route, request.method) };
      children.set(key, child);
    }
    child.count.inc();
    child.time.observe(reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { config: { hidden: true } }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
  return { rejected: (budget: string) => refusals.inc({ budget }) };
}
