import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createAdmission } from '../db/admission.ts';
import { FifoMap } from '../db/fifo-map.ts';
import { ApiError } from '../errors.ts';
import { answerBytes } from './answer-bytes.ts';
import { jsonText } from './json-text.ts';

/**
 * Conditional requests (RFC 9110 §13): validators on reads, 304 when the caller's copy is current, and
 * If-Match on writes so two editors cannot silently overwrite each other.
 *
 * A record's entity tag is a digest of its JSON as the API builds it (`JSON.stringify` of the record), the
 * same whether a read sends it or a write checks it inside its transaction: strong, since the bytes sent
 * are a function of that JSON alone. An event's is composed from the digests of the parts its text is put
 * together from (events/event-json.ts `composedTag`), equally a function of the bytes, and checked alike.
 */
export function entityTag(json: string): string {
  return knownTag(json) ?? tagOf(json, digest(json));
}

/** The tag of a text digested lately (see `createRecentTags`), or undefined. */
const knownTag = (json: string): string | undefined => recentTagsFor(json)?.find(json);

/** `tag`, the digest of `json`, remembered if it is worth remembering (see `createRecentTags`). */
function tagOf(json: string, tag: string): string {
  recentTagsFor(json)?.remember(json, tag);
  return tag;
}

/**
 * What the recent tags are found by: a number made of the text's length, its start (a record's id) and
 * characters spread over it. Keyed by the whole text, a lookup hashed all of it, ~10 kB, for every text
 * built anew, which is never found; this reads a hundred characters and makes no string. Texts that share a
 * sample are told apart by comparing them.
 */
function sampleOf(json: string): number {
  let sample = json.length;
  const start = Math.min(json.length, 64);
  for (let i = 0; i < start; i++) sample = (Math.imul(sample, 31) + json.charCodeAt(i)) | 0;
  const step = json.length / SAMPLED;
  for (let i = 0; i < SAMPLED; i++) sample = (Math.imul(sample, 31) + json.charCodeAt(Math.floor(i * step))) | 0;
  return sample;
}
const SAMPLED = 48;

// The digest of a text's UTF-8 bytes: what a read sends and a write's If-Match is checked against. One call,
// not a Hash object fed and finished (~2 of ~11 us for a 9 kB record, measured alone).
const digest = (data: string) => `"${hash('sha1', data, 'base64url')}"`;

/**
 * A text with its entity tag, for a holder that keeps the text and its tag together (a kept event record):
 * digested once for as long as the text is kept as it is, and found without a lookup; only when asked for
 * (an event's page sends no tag of its JSON).
 */
export interface TaggedText {
  json: string;
  etag(): string;
}
/** The entity tag of a text its holder keeps the tag of (see TaggedText): not remembered here as well. */
export const digestTag = (json: string): string => digest(json);

interface RecentTag {
  json: string;
  tag: string;
  /** Found since it was remembered. */
  read?: boolean;
}

/**
 * Texts whose tags are remembered, found by their sample, bounded by count and characters. A text's tag is
 * remembered from its second digest on: a text sent once (a record nobody asked for lately, a list put
 * together anew) is let go young instead of being held here until V8's old space; and once full, only at
 * the odds of db/admission.ts: 1000 hot records' texts (~10 MB) turned a FIFO of these over with each cycle,
 * and lists of every day read in turn digest each page again before long.
 */
function createRecentTags(most: number, mostChars: number, alwaysAtOdds = false) {
  const recent = new FifoMap<number, RecentTag>();
  let chars = 0;
  const digested = createAdmission<string>(DIGESTED_ONCE);
  return {
    find(json: string): string | undefined {
      const found = recent.get(sampleOf(json));
      // The same string object when a kept text is sent again: compared at once.
      if (found === undefined || found.json !== json) return undefined;
      found.read = true;
      return found.tag;
    },
    remember(json: string, tag: string): void {
      // Full only when the oldest, which goes first, was found since it was remembered: one nobody asks for goes.
      const full = () => alwaysAtOdds || ((recent.size >= most || chars + json.length > mostChars) && recent.get(recent.oldest() as number)?.read === true);
      // A list page of ~60 kB pushes out as much as six records: its odds are a sixth of theirs.
      if (!digested.admits(tag, full, Math.min(1, RECORD_CHARS / json.length))) return;
      while (recent.size >= most || (recent.size > 0 && chars + json.length > mostChars)) {
        const oldest = recent.oldest() as number;
        chars -= (recent.get(oldest) as RecentTag).json.length;
        recent.delete(oldest);
      }
      const sample = sampleOf(json);
      chars -= recent.get(sample)?.json.length ?? 0;
      recent.set(sample, { json, tag });
      chars += json.length;
    },
  };
}

// The tags of the records sent again and again: a kept record is sent as the same string each time, so
// finding its tag here costs far less than digesting 10 kB once more (~11 µs). Bounded by count and by
// characters: the strings are mostly the kept records' own, but not always.
const RECORD_CHARS = 10_000;
const DIGESTED_ONCE = 8192;
const recordTags = createRecentTags(2048, 4_000_000);
// A list page is put together anew each time from kept records; compared whole with the one remembered (a
// few µs for ~60 kB), it is not digested again (~30 µs of a ~250 µs default list: 3790 -> 4560 req/s at 100k
// events). Few: pages are the texts of nothing kept, held here alone (sixteen of ten records, ~1 MB).
// Let in at their odds even with room: under writes a page lasts until the next one (the mix: ~7 ms, two
// requests), and remembering each such page churned 60 kB through the old space a write.
const pageTags = createRecentTags(16, 1_000_000, true);
const recentTagsFor = (json: string) => (json.length <= 32_768 ? recordTags : json.length <= 262_144 ? pageTags : undefined);

/** The entity tags a header lists; `*` matches any. Weak tags compare by their opaque part (If-None-Match). */
const tagsOf = (header: string) => header.split(',').map((tag) => tag.trim()).filter(Boolean);

// A write committing within the same second as the one a Last-Modified names would carry the same date:
// while that second is this close, the date is sent a second earlier and If-Modified-Since answers in full,
// so such a write can never hide behind a 304 (the margin also covers clocks a little apart).
const SETTLING_MS = 6000;

export interface Validators {
  etag: string;
  lastModified: Date;
}

/**
 * Sets ETag and Last-Modified and answers 304 with no body when the caller's copy is current: If-None-Match
 * first (weak comparison), If-Modified-Since only without it. True when it answered.
 */
export function answeredNotModified(request: FastifyRequest, reply: FastifyReply, validators: Validators): boolean {
  const settling = Date.now() - validators.lastModified.getTime() < SETTLING_MS;
  const lastModified = settling ? new Date(validators.lastModified.getTime() - 1000) : validators.lastModified;
  void reply.header('etag', validators.etag).header('last-modified', httpDate(lastModified));
  const noneMatch = request.headers['if-none-match'];
  const modifiedSince = request.headers['if-modified-since'];
  let current = false;
  if (noneMatch !== undefined) {
    const bare = validators.etag.replace(/^W\//, '');
    current = tagsOf(noneMatch).some((tag) => tag === '*' || tag.replace(/^W\//, '') === bare);
  }
  else if (modifiedSince !== undefined && !settling) {
    const since = Date.parse(modifiedSince);
    current = !Number.isNaN(since) && lastModified.getTime() <= since;
  }
  if (current) void reply.code(304).send();
  return current;
}

/**
 * A date as HTTP writes it, the last one's text kept: reads answered between two writes all send the same
 * Last-Modified, and `toUTCString` cost a cold read ~1% of its time.
 */
const httpDate = (() => {
  let time = Number.NaN;
  let text = '';
  return (date: Date): string => {
    if (date.getTime() !== time) [time, text] = [date.getTime(), date.toUTCString()];
    return text;
  };
})();

/** A write's If-Match, for the service to check against the record inside its transaction (absent: no check). */
export const ifMatchOf = (request: FastifyRequest): string | undefined => request.headers['if-match'];

/**
 * Throws 412 unless the record's JSON as it now is has a tag If-Match names (strong comparison: a weak tag
 * never matches). The answer carries the record as it now is, to merge with.
 */
export function checkIfMatch(ifMatch: string | undefined, currentJson: string, current: unknown): void {
  if (ifMatch === undefined) return;
  const tag = entityTag(currentJson);
  if (!ifMatches(ifMatch, tag)) throw preconditionFailed(current, tag);
}

/** Whether If-Match names `tag`, the record's current one (strong comparison: a weak tag never matches). */
export const ifMatches = (ifMatch: string, tag: string): boolean => tagsOf(ifMatch).some((t) => t === '*' || t === tag);

/** The 412 of a write whose If-Match names none of the record's current tag, with the record as it now is. */
export const preconditionFailed = (current: unknown, etag: string): ApiError =>
  new ApiError(412, 'rest_precondition_failed', 'The record has changed since you read it: its current version is in data.current.', { current, etag });

// Never a Buffer made for each answer (~10 kB a record, ~60 kB a list page): it lives outside V8's heap,
// V8 counts it until a collection finds it unreachable, and past a bound it starts full collections for it.
// With a list page's text and tag kept (an experiment), a Buffer for each answer gave 3750 req/s and 49 full
// collections in 6 s (5-10 ms each: the p99), the string 11949 and none. Reused ones (answer-bytes.ts) are
// counted once. A digest of the string is the digest of its UTF-8 bytes.
const JSON_TYPE = 'application/json; charset=utf-8';

/** Route docs: a read that answers 304 to a current copy, and a write that answers 412 to a stale If-Match. */
export const CONDITIONAL = { notModified: true };
export const CHECKED_WRITE = { errors: { 412: 'If-Match names a version the record no longer has: data.current holds the record as it is now (code rest_precondition_failed)' } };

/**
 * A record a write answers with, as JSON.stringify writes it: the reads' key order and bytes (they send the
 * record's text, see sendJson), without Fastify's schema serializer (~4 % of an event create).
 */
export function sendRecord(reply: FastifyReply, record: unknown, status = 200): FastifyReply {
  return sendRecordText(reply, jsonText(record), status);
}

/** A record a write answers with, already JSON text (see jsonText). */
export const sendRecordText = (reply: FastifyReply, json: string, status = 200): FastifyReply =>
  reply.code(status).type(JSON_TYPE).send(json);

/**
 * Sends a read's JSON with its validators, or 304. `lastWrite` is when anything was last written (what a
 * record embeds can change without the record); a list's answer also moves with the clock (its default
 * window starts today), so its date is never earlier than the current minute.
 */
export function sendJson(request: FastifyRequest, reply: FastifyReply, body: string | TaggedText, lastWrite: Date, list = false): FastifyReply {
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const lastModified = list && lastWrite.getTime() < minute ? new Date(minute) : lastWrite;
  const json = typeof body === 'string' ? body : body.json;
  const etag = typeof body === 'string' ? (knownTag(json) ?? tagOf(json, digest(json))) : body.etag();
  if (answeredNotModified(request, reply, { etag, lastModified })) return reply;
  return reply.type(JSON_TYPE).send(answerBytes.of(json, reply.raw) ?? json);
}
