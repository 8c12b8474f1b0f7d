import type { FastifyReply, FastifyRequest } from 'fastify';
import { answeredNotModified } from '../http/conditional.ts';
import { varyOn } from '../http/vary.ts';
import type { Feed } from './feed.service.ts';

/**
 * Whether a request asks for iCalendar rather than JSON: `text/calendar` named in Accept with a quality
 * above zero and not below that of JSON. Requests naming no calendar cost one substring test.
 */
export function acceptsCalendar(accept: string | undefined): boolean {
  if (accept === undefined || !/text\/calendar/i.test(accept)) return false;
  let calendar = 0;
  let json = 0;
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2)) || 0;
    if (type === 'text/calendar') calendar = Math.max(calendar, quality);
    else if (type === 'application/json') json = Math.max(json, quality);
  }
  return calendar > 0 && calendar >= json;
}

/**
 * Whether the client has closed its connection before being answered (nobody would read the answer). A
 * response closes only when it is done or when its connection went first, so before it is sent a close means
 * the client left.
 */
export function clientGone(reply: FastifyReply): () => boolean {
  let closed = false;
  reply.raw.once('close', () => (closed = true));
  return () => closed;
}

/** Sends a feed with its validators, or 304 with no body when the caller's copy is current. */
export function sendCalendar(request: FastifyRequest, reply: FastifyReply, feed: Feed): FastifyReply {
  // The same URL answers JSON or iCalendar, and a caller's rights change what a feed holds.
  void varyOn(reply, 'Accept', 'Authorization').headers({
    'cache-control': request.headers.authorization ? 'private, no-cache' : 'no-cache',
    'x-robots-tag': 'noindex',
  });
  if (answeredNotModified(request, reply, { etag: feed.etag, lastModified: feed.lastModified })) return reply;
  return reply
    .type('text/calendar; charset=utf-8')
    .header('content-disposition', `attachment; filename="${feed.filename}"`)
    .send(feed.body);
}
