import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { varyOn } from './vary.ts';

const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept-Language';
// The list's totals, which a browser script may read only when they are exposed.
const EXPOSED = 'X-TEC-Total, X-TEC-TotalPages';
// Methods a plain OPTIONS looks for at its path (HEAD answers wherever GET does).
const LOOKED_UP = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * CORS, so that scripts on other sites can read the API, the pages and the feeds: any origin (`*`, the
 * default) or only those of CAL_CORS_ORIGINS, each answered with its own name and `Vary: Origin`.
 *
 * Our own rather than @fastify/cors: that plugin spread its options and built `request.routeOptions` twice for
 * every request (~12k instructions, 4% of a cold single read and 6% of a kept one, counted with callgrind),
 * answered an OPTIONS that was no preflight with a `text/plain` 400 before any other hook had run (no
 * security headers, not the contract's error shape), and its `Vary: Origin` was overwritten by the language's.
 * What is needed is a few fixed headers and the preflight's answer.
 */
export function registerCors(app: FastifyInstance, origins: string[] | '*'): (request: FastifyRequest, reply: FastifyReply) => void {
  const allowed = origins === '*' ? undefined : new Set(origins);
  const fixed = { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
  const headers = (request: FastifyRequest, reply: FastifyReply) => {
    if (allowed === undefined) reply.headers(fixed);
    else {
      const origin = request.headers.origin;
      if (origin !== undefined && allowed.has(origin)) reply.header('access-control-allow-origin', origin);
      reply.header('access-control-expose-headers', EXPOSED);
      varyOn(reply, 'Origin');
    }
  };
  app.addHook('onRequest', (request, reply, done) => {
    headers(request, reply);
    done();
  });

  // Every OPTIONS request: a browser's preflight (it names an origin and the method it means to send) is told
  // what it may send; any other is told which methods the path answers (`Allow`), or 404 where none does.
  app.options('*', { config: { hidden: true } }, (request, reply) => {
    if (request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined) {
      // Content-Length 0: some browsers wait for a body after a 204 without one. The answer is kept by the
      // browser for ten minutes (Chrome's default is 5 s: a preflight before nearly every cross-origin write).
      return reply.code(204).headers({
        'access-control-allow-methods': METHODS, 'access-control-allow-headers': ALLOWED_HEADERS, 'access-control-max-age': '600', 'content-length': '0',
      }).send();
    }
    const path = request.url.split('?')[0];
    const methods = LOOKED_UP.filter((method) => app.findRoute({ method, url: path }) !== null);
    if (methods.length === 0) return reply.callNotFound();
    const allow = methods.includes('GET') ? ['GET', 'HEAD', ...methods.slice(1)] : methods;
    return reply.code(204).header('allow', [...allow, 'OPTIONS'].join(', ')).send();
  });
  // What the router refuses runs no hook: app.ts sets them on those answers with this, so a script can read why.
  return headers;
}
