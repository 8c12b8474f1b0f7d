import type { FastifyReply } from 'fastify';

/**
 * Adds header names to `Vary`, keeping those already there: an answer varies by language (i18n/http.ts), by
 * origin when CORS names one (http/cors.ts) and by `Accept` where it is negotiated (the feeds). Setting the
 * header outright dropped what another hook had put there, and a shared cache then served one origin's
 * `Access-Control-Allow-Origin` to another.
 */
export function varyOn(reply: FastifyReply, ...names: string[]): FastifyReply {
  const vary = reply.getHeader('vary');
  // The usual case, in every request's path (the language's hook): nothing there yet.
  if (vary === undefined) return reply.header('vary', names.join(', '));
  const present = String(vary).split(',').map((name) => name.trim()).filter(Boolean);
  const missing = names.filter((name) => !present.some((p) => p.toLowerCase() === name.toLowerCase()));
  return missing.length > 0 ? reply.header('vary', [...present, ...missing].join(', ')) : reply;
}
