import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import pLimit from 'p-limit';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import type { Store } from '../store.ts';
import { createVersionedCache } from '../db/versioned-cache.ts';
import type { EventListQuery } from '../events/event-list.ts';
import type { EventService } from '../events/event.service.ts';
import type { Urls } from '../http/urls.ts';
import type { RecordRef } from '../linked-posts/linked-post.service.ts';
import { slugify } from '../posts/slug.ts';
import { todayIn } from '../time/clock.ts';
import type { Caller } from '../users/roles.ts';
import { renderCalendar } from './feed-render.ts';

export interface FeedRequest {
  /** The filters of `GET /events`; `page` and `per_page` are ignored: a feed holds every match, up to the cap. */
  query: EventListQuery;
  caller: Caller | null;
  /** NAME and X-WR-CALNAME; the site name (CAL_SITE_NAME) when absent. */
  title?: string;
  /** One event only, by id or slug (an event page's feed): the checks and errors of a single read. */
  event?: RecordRef;
  /** Unlocks `event` when it is password-protected. */
  password?: string;
  /** Whether the client that asked has gone (closed its connection): a build nobody waits for is skipped. */
  gone?: () => boolean;
}

/** The answer to a client that closed its connection before its feed was built (nginx's 499): never read. */
const clientClosed = () => new ApiError(499, 'client_closed_request', 'The client closed the connection before its feed was built.');

export interface Feed {
  /** Bytes, not a string: kept feeds stay off the (small) JavaScript heap. */
  body: Buffer;
  /** Strong: a hash of the body, which changes only when the data it shows does. */
  etag: string;
  lastModified: Date;
  filename: string;
}

const WINDOW_PARAMS = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;
const PAST_DAYS = 30;
// Whole feeds as anonymous callers get them: a few dozen feeds of a thousand events. Buffers, outside the
// heap (db/cache-budget.ts shares the heap among the caches of text).
const FEED_CACHE_BYTES = 48 * 1024 * 1024;

export function createFeedService(deps: { events: EventService; urls: Urls; config: Config; store: Store }) {
  const { events, config, store } = deps;
  const feeds = createVersionedCache<{ feed: Feed; lastWrite: Date }>(FEED_CACHE_BYTES, (kept) => kept.feed.body.length, 'feeds');
  // Builds under way or queued, by flight, with the clients waiting for each.
  const building = new Map<string, { built: Promise<{ feed: Feed; lastWrite: Date }>; waiting: Array<() => boolean> }>();
  const builds = pLimit(1);
  // A new version of the service may write the same data differently.
  const started = Date.now();

  /**
   * A feed without dates starts 30 days back (a subscribed calendar keeps the recent past) and ends where
   * the list's default window does, two years after today; `include` has no dates at all.
   */
  function feedQuery(query: EventListQuery, now: DateTime): EventListQuery {
    if (WINDOW_PARAMS.some((param) => query[param] !== undefined) || query.include?.length) return query;
    return { ...query, start_date: now.setZone(config.timezone).minus({ days: PAST_DAYS }).toISODate() as string };
  }

  /**
   * Not the newest event's `modified`: a trashed or deleted event leaves the feed without a date of its own,
   * and a venue's new name changes LOCATION without one. So: the last write of any kind; and since a list's
   * window follows the calendar (the default, `today`, `+1 week`), never before today began in the site's
   * time zone, nor, with strict_dates (bounds to the second), before now.
   */
  function lastModified(request: FeedRequest, lastWrite: Date, now: DateTime): Date {
    let changed = Math.max(lastWrite.getTime(), started);
    if (!request.event) {
      changed = Math.max(changed, request.query.strict_dates ? now.toMillis() : now.setZone(config.timezone).startOf('day').toMillis());
    }
    return new Date(Math.floor(Math.min(changed, now.toMillis()) / 1000) * 1000);
  }

  return {
    /** The feed of a list query or of one event, with the visibility, password rules and errors of the API. */
    async calendar(request: FeedRequest): Promise<Feed> {
      const now = DateTime.utc();
      // Calendar apps poll the same few URLs: what anonymous callers get is kept until the next write (the
      // version is read before the data, see versioned-cache.ts) or the next day (default windows move).
      const shared = request.caller === null && request.password === undefined;
      const key = shared ? `${todayIn(config.timezone, now.toMillis())}|${JSON.stringify([request.query, request.event, request.title])}` : '';
      const version = await store.dataVersion();
      const kept = shared ? feeds.get(key, version) : undefined;
      if (kept) return { ...kept.feed, lastModified: lastModified(request, kept.lastWrite, now) };

      const gone = request.gone ?? (() => false);
      if (!shared) return build(request, now, () => !gone()).then((built) => built.feed);
      // One build per feed and data version: ten calendar apps polling the same URL after a write wait for one.
      const flight = `${version}|${key}`;
      let pending = building.get(flight);
      if (pending) pending.waiting.push(gone);
      else {
        const waiting = [gone];
        pending = { built: build(request, now, () => waiting.some((left) => !left())).finally(() => building.delete(flight)), waiting };
        building.set(flight, pending);
      }
      const built = await pending.built;
      feeds.set(key, version, built);
      return built.feed;
    },
  };

  /**
   * A feed built from the data; a thousand-event build holds tens of MB of a small heap, so one runs at a
   * time. One whose clients all left while it waited its turn is not built: abandoned requests (a calendar app
   * that timed out, a load test that stopped) would otherwise keep the process busy long after.
   */
  function build(request: FeedRequest, now: DateTime, wanted: () => boolean) {
    return builds(async () => {
      if (!wanted()) throw clientClosed();
      // Read before the data: a write landing in between can only make the date too old, never too new.
      const lastWrite = await store.lastWrite();
      const entries = request.event
        ? await events.getForFeed(request.event, request.caller, { password: request.password, context: request.query.context })
        : await events.listForFeed(feedQuery(request.query, now), request.caller, config.feedMaxEvents);
      const title = request.title?.trim() || config.siteName;
      const body = Buffer.from(await renderCalendar(entries, title));
      const name = request.event ? String(entries[0].record.slug) : title;
      const feed: Feed = {
        body,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
        lastModified: lastModified(request, lastWrite, now),
        // ASCII only: a header value; slugs and titles may hold any letter.
        filename: `${slugify(name).replace(/[^a-z0-9-]+/g, '').replace(/^-+|-+$/g, '') || 'events'}.ics`,
      };
      return { feed, lastWrite };
    });
  }
}

export type FeedService = ReturnType<typeof createFeedService>;
