import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { NAMESPACE, type Urls } from './urls.ts';

/** The reference's own API path: clients that hard-code it keep working after changing only the host. */
export const WP_ROOT = 'wp-json';
export const WP_NAMESPACE = 'tribe/events/v1';

const viaWordPressPath = new WeakSet<IncomingMessage>();
const API_PATH = new RegExp(`^/${WP_ROOT}/${WP_NAMESPACE.replaceAll('/', '\\/')}(?=[/?]|$)`);
const INDEX_PATH = new RegExp(`^/${WP_ROOT}/?(?=\\?|$)`);

/**
 * `/wp-json/tribe/events/v1/...` is routed as `/cal/events/v1/...` and `/wp-json/` as `/` (the REST index):
 * one set of routes serves both, and the request is remembered as having come in on the WordPress path.
 */
export function wpJsonRewriter() {
  return (request: IncomingMessage, url: string): string => {
    const api = API_PATH.exec(url);
    const rest = api ? `/${NAMESPACE}${url.slice(api[0].length)}` : INDEX_PATH.test(url) ? `/${url.replace(INDEX_PATH, '')}` : undefined;
    if (rest === undefined) return url;
    viaWordPressPath.add(request);
    return rest;
  };
}

/** Whether the request came in on `/wp-json/...` (so what it is answered with names that path). */
export const cameViaWpJson = (request: IncomingMessage): boolean => viaWordPressPath.has(request);

/** The namespace and REST root a request's answer names: the WordPress ones on the WordPress path. */
export function apiNames(request: IncomingMessage, urls: Urls) {
  return cameViaWpJson(request)
    ? { namespace: WP_NAMESPACE, root: `${urls.origin}/${WP_ROOT}/` }
    : { namespace: NAMESPACE, root: `${urls.origin}/` };
}

/**
 * Links in answers to the WordPress path stay on it. Records and lists are built (and cached, as JSON
 * text) with the canonical API URL, so the one place to swap it is the outgoing body, once, here.
 */
export function registerWpJsonLinks(app: FastifyInstance, urls: Urls) {
  const canonical = urls.api;
  const wordpress = `${urls.origin}/${WP_ROOT}/${WP_NAMESPACE}`;
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!viaWordPressPath.has(request.raw)) return done(null, payload);
    const location = reply.getHeader('location');
    if (typeof location === 'string') void reply.header('location', location.replaceAll(canonical, wordpress));
    // JSON only: a feed's lines are folded at 75 octets, which a longer URL put in afterwards would break.
    const json = String(reply.getHeader('content-type') ?? '').includes('json');
    // Reads send their JSON as bytes (conditional.ts): decoded here, on this path only.
    const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
    done(null, json && typeof text === 'string' ? text.replaceAll(canonical, wordpress) : payload);
  });
}
