import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NAMESPACE } from '../http/urls.ts';
import { varyOn } from '../http/vary.ts';
import { type Language, pickLanguage } from './language.ts';

declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
  }
}

const segments = new WeakMap<IncomingMessage, string>();
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * `/{lang}/cal/events/v1/...` serves the same API with texts in that language, and `/{lang}/events/...`
 * the same pages: the segment is taken off before routing (for each language in CAL_LOCALES, in front of
 * the namespace or one of `prefixes`) and remembered for the request.
 */
export function languageRewriter(locales: string[], prefixes: string[] = []) {
  const served = new Set(locales.map((l) => l.toLowerCase()));
  const roots = [NAMESPACE, ...prefixes].map(escape).join('|');
  const segment = new RegExp(`^/([A-Za-z]{2}(?:-[A-Za-z]{2})?)(/(?:${roots})(?:[/?].*)?)$`);
  return (request: IncomingMessage): string => {
    const url = request.url ?? '/';
    const match = segment.exec(url);
    if (!match || !served.has(match[1].toLowerCase())) return url;
    segments.set(request, match[1]);
    return match[2];
  };
}

/** The language segment the request came in with (`fr` for `/fr/events/`), if any. */
export const languageSegment = (request: IncomingMessage): string | undefined => segments.get(request);

/** The language a request is answered in: its URL's segment, else its Accept-Language, among `locales`. */
const languageOf = (request: FastifyRequest, locales: string[]): Language =>
  pickLanguage(segments.get(request.raw), request.headers['accept-language'], locales);

export function registerLanguage(app: FastifyInstance, locales: string[]): (request: FastifyRequest, reply: FastifyReply) => void {
  app.decorateRequest('language', 'en');
  const pick = (request: FastifyRequest, reply: FastifyReply) => {
    request.language = languageOf(request, locales);
    // (X-Content-Type-Options, which this hook set as well, is the security headers' own: http/security-headers.ts.)
    void varyOn(reply, 'Accept-Language');
  };
  // Callback style, as every hook on the hot path: an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    pick(request, reply);
    done();
  });
  // What the router refuses runs no hook: app.ts picks the language of those answers with this.
  return pick;
}
