import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import { cacheBytes } from '../db/cache-budget.ts';
import { createVersionedCache } from '../db/versioned-cache.ts';
import { todayIn } from '../time/clock.ts';
import { sendHtml } from './site-render.tsx';

// Rendered pages of ~5-60 kB each, bounded by size (the service runs with a small heap, see
// db/cache-budget.ts): with `npm start`'s, about 1500 event pages, enough for what a crowd is reading.
// Kept as their UTF-8 bytes: half what V8 takes for a text with one character past Latin-1 (an en dash in
// every page's dates), out of the collected heap, and sent as they are.
// A page is kept from its second rendering, and once full only over one asked for less often
// (db/frequency-sketch.ts): one asked for once (a crawler's) does not push out the others, nor does a walk
// over more pages than fit.
const PAGE_BYTES = cacheBytes(0.25);

const versions = new WeakMap<FastifyRequest, { key: string; version: number }>();

/**
 * Pages as anonymous visitors see them, reused until the next write (the data version, read before the
 * page's data is, see versioned-cache.ts) or the next day (default windows start today). Signed-in
 * callers, password cookies and feeds are never served from here.
 */
export function createPageCache(options: { dataVersion(): Promise<number>; timezone: string; cookie: string }) {
  const pages = createVersionedCache<Buffer>(PAGE_BYTES, (page) => page.length, 'pages', { admitByFrequency: true });
  const cacheable = (request: FastifyRequest) =>
    (request.method === 'GET' || request.method === 'HEAD') &&
    request.headers.authorization === undefined &&
    !(request.headers.cookie ?? '').includes(`${options.cookie}=`) &&
    !/[?&]ical=/.test(request.url);

  const lookup: preHandlerHookHandler = (request, reply, done) => {
    if (!cacheable(request)) return done();
    const key = `${request.language}|${todayIn(options.timezone)}|${request.originalUrl}`;
    options.dataVersion().then((version) => {
      const page = pages.get(key, version);
      if (page !== undefined) {
        void sendHtml(reply, page);
        return;
      }
      versions.set(request, { key, version });
      done();
    }, done);
  };

  const keep: onSendHookHandler = (request, reply: FastifyReply, payload, done) => {
    const entry = versions.get(request);
    if (entry && reply.statusCode === 200 && typeof payload === 'string') pages.offer(entry.key, entry.version, () => Buffer.from(payload));
    done(null, payload);
  };

  return { lookup, keep };
}
