import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { render } from 'preact-render-to-string';
import type { Config } from '../config.ts';
import type { ApiError } from '../errors.ts';
import type { ErrorPresenter } from '../http/error-handler.ts';
import { languageSegment } from '../i18n/http.ts';
import { type Language, SHIPPED_LANGUAGES } from '../i18n/language.ts';
import { WORDS } from './site-words.ts';
import { MessagePage } from './views/layout.tsx';
import type { PageContext } from './views/page-context.ts';

/** The first path segments the site answers under (after an optional language segment). */
export const SITE_ROOTS = ['events', 'event', 'venue', 'organizer', 'tag'];
const SITE_PATH = new RegExp(`^/(?:${SITE_ROOTS.join('|')})(?:[/?]|$)`);

// Pages load nothing from elsewhere: no script runs, styles come from this service only, images from the
// URLs events name. JSON-LD is a data block, not a script, so `script-src 'none'` leaves it alone.
const CSP = "default-src 'none'; style-src 'self'; img-src 'self' https: http: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export function pageContext(request: FastifyRequest, config: Config): PageContext {
  // What the router rejects before any route has not been through the language hook.
  const language = request.language ?? 'en';
  const segment = languageSegment(request.raw);
  const prefix = segment ? `/${language}` : '';
  return {
    language,
    words: WORDS[language],
    siteName: config.siteName,
    languages: SHIPPED_LANGUAGES.filter((code) => config.locales.some((l) => l.toLowerCase().split('-')[0] === code)),
    path: request.url,
    href: (path) => `${prefix}${path}`,
  };
}

export const renderDocument = (node: VNode) => `<!doctype html>${render(node)}`;

export function sendHtml(reply: FastifyReply, html: string | Buffer, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', CSP)
    .header('Referrer-Policy', 'strict-origin-when-cross-origin')
    .send(html);
}

/** Errors on a page as a page: what the visitor may know (a hidden record is simply not found), in HTML. */
function errorPage(ctx: PageContext, error: ApiError): { status: number; node: VNode } {
  const w = ctx.words;
  if (error.code === 'event-no-longer-available' || error.status === 410) {
    return { status: 410, node: <MessagePage ctx={ctx} title={w.goneTitle} text={w.goneText} /> };
  }
  // Drafts, pending and private records do not exist for whoever may not read them.
  if (error.status === 404 || error.status === 403) {
    return { status: 404, node: <MessagePage ctx={ctx} title={w.notFoundTitle} text={w.notFoundText} /> };
  }
  // The database unavailable (a restart, a full disk): not broken, and soon back; its Retry-After says when.
  if (error.status === 503) return { status: 503, node: <MessagePage ctx={ctx} title={w.unavailableTitle} text={w.unavailableText} /> };
  if (error.status >= 500) return { status: error.status, node: <MessagePage ctx={ctx} title={w.errorTitle} text={w.errorText} /> };
  const params = error.data.params;
  const names = params && typeof params === 'object' ? (Array.isArray(params) ? params.map(String) : Object.keys(params)) : [];
  return { status: error.status, node: <MessagePage ctx={ctx} title={w.badRequestTitle} text={w.badRequestText} items={names.length ? names : [error.message]} /> };
}

export function sitePresenter(config: Config): ErrorPresenter {
  return {
    matches: (request) => SITE_PATH.test(request.url),
    send(request, reply, error) {
      const { status, node } = errorPage(pageContext(request, config), error);
      return sendHtml(reply, renderDocument(node), status);
    },
  };
}

export type { Language };
