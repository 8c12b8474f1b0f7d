import type { FastifyReply, FastifyRequest } from 'fastify';
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

/** Adds header names to Vary, keeping those already there (Accept-Language, and Origin from CORS). */
export function varyOn(reply: FastifyReply, ...names: string[]): FastifyReply {
  const present = String(reply.getHeader('vary') ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const missing = names.filter((name) => !present.some((p) => p.toLowerCase() === name.toLowerCase()));
  return missing.length > 0 ? reply.header('vary', [...present, ...missing].join(', ')) : reply;
}

/** The entity tags of If-None-Match; `*` matches any. */
const tagsOf = (header: string) => header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));

// A write committing within the same second as the one a Last-Modified names would carry the same date:
// while that second is this close, the date is sent a second earlier and If-Modified-Since answers in
// full, so such a write can never hide behind a 304 (the margin also covers clocks a little apart).
const SETTLING_MS = 6000;

/**
 * Sends a feed with its validators, or 304 with no body when the caller's copy is current: If-None-Match
 * first (RFC 9110 §13.2.2; weak comparison), If-Modified-Since only without it.
 */
export function sendCalendar(request: FastifyRequest, reply: FastifyReply, feed: Feed): FastifyReply {
  const settling = Date.now() - feed.lastModified.getTime() < SETTLING_MS;
  const lastModified = settling ? new Date(feed.lastModified.getTime() - 1000) : feed.lastModified;
  // The same URL answers JSON or iCalendar, and a caller's rights change what a feed holds.
  void varyOn(reply, 'Accept', 'Authorization').headers({
    etag: feed.etag,
    'last-modified': lastModified.toUTCString(),
    'cache-control': request.headers.authorization ? 'private, no-cache' : 'no-cache',
    'x-robots-tag': 'noindex',
  });
  const noneMatch = request.headers['if-none-match'];
  const modifiedSince = request.headers['if-modified-since'];
  const bare = feed.etag.replace(/^W\//, '');
  let current = false;
  if (noneMatch !== undefined) current = tagsOf(noneMatch).some((tag) => tag === '*' || tag === bare);
  else if (modifiedSince !== undefined && !settling) {
    const since = Date.parse(modifiedSince);
    current = !Number.isNaN(since) && lastModified.getTime() <= since;
  }
  if (current) return reply.code(304).send();
  return reply
    .type('text/calendar; charset=utf-8')
    .header('content-disposition', `attachment; filename="${feed.filename}"`)
    .send(feed.body);
}
