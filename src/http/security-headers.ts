import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Headers every answer carries: no content sniffing, no framing of the API, no referrer leaking a query to
 * other sites, and HSTS when the service is public over https. The site's pages add their own CSP
 * (`default-src 'none'`, frame-ancestors 'none'); the API is meant to be read cross-origin (CORS), so its
 * resources are `cross-origin`.
 */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): (reply: FastifyReply) => void {
  const fixed: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'cross-origin',
    ...(publicUrl.startsWith('https:') ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
  const headers = (reply: FastifyReply) => void reply.headers(fixed);
  app.addHook('onRequest', (_request, reply, done) => {
    headers(reply);
    done();
  });
  // What the router refuses runs no hook: app.ts sets them on those answers with this.
  return headers;
}
