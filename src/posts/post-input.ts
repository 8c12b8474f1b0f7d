import { DateTime } from 'luxon';
import type { PostColumns } from '../db/database.ts';
import { forbidden, invalidParam } from '../errors.ts';
import { resolveImage } from '../images/image.service.ts';
import type { ImageRepository } from '../images/image.repository.ts';
import { type Stamp, stampOf } from '../time/clock.ts';
import { parseDate } from '../time/parse-date.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { type Caller, canEditOthers, scaleBackStatus } from '../users/roles.ts';
import { renderHtml } from './html.ts';
import { firstFreeSlug, slugify } from './slug.ts';

/** The input fields every post-like record shares (events, venues, organizers). */
export interface CommonPostInput {
  author?: number;
  date?: string;
  date_utc?: string;
  status?: string;
  slug?: string;
  description?: string;
  excerpt?: string;
  image?: unknown;
}

export interface CommonContext {
  caller: Caller;
  /** The stored record on update; absent on create. */
  existing?: PostColumns;
  /** The name the slug is made from when none is sent (the new title on update only matters on create). */
  title: string;
  /** Zone of `date` input and of `date_local` output: the event's, or the site's. */
  zone: string;
  now: Stamp;
  users: UserRepository;
  images: ImageRepository;
  slugsStartingWith(base: string): Promise<Set<string>>;
  fallbackSlug: string;
}

/**
 * The shared columns of a create (every column) or an update (only what was sent, API.md §5.1).
 * Permission problems are 403 before any semantic 400, as API.md §5.4 orders them.
 */
export async function commonColumns(input: CommonPostInput, ctx: CommonContext): Promise<Partial<PostColumns>> {
  const { caller, existing } = ctx;
  const columns: Partial<PostColumns> = { modified_local: ctx.now.local, modified_utc: ctx.now.utc };

  if (input.author !== undefined && input.author !== (existing?.author_id ?? caller.id)) {
    if (!canEditOthers(caller)) throw forbidden(true);
    if (!(await ctx.users.findById(input.author))) throw invalidParam('author', 'No user has this id.');
    columns.author_id = input.author;
  } else if (!existing) {
    columns.author_id = caller.id;
  }

  if (input.status !== undefined || !existing) columns.status = scaleBackStatus(caller, input.status);

  const posted = postDate(input, ctx.zone);
  if (posted) {
    const stamp = stampOf(posted, ctx.zone);
    Object.assign(columns, { date_local: stamp.local, date_utc: stamp.utc });
  } else if (!existing) Object.assign(columns, { date_local: ctx.now.local, date_utc: ctx.now.utc });

  if (input.slug !== undefined || !existing) {
    const base = slugify(input.slug ?? ctx.title) || ctx.fallbackSlug;
    if (base !== existing?.slug) {
      const taken = await ctx.slugsStartingWith(base);
      columns.slug = firstFreeSlug(base, taken);
    }
  }
  if (input.description !== undefined) columns.description = renderHtml(input.description);
  if (input.excerpt !== undefined) columns.excerpt = renderHtml(input.excerpt);
  if (input.image !== undefined) columns.image_id = await resolveImage(input.image, ctx.images);
  return columns;
}

/** `date` is wall-clock time in the record's zone; `date_utc` is UTC and wins when both are sent. */
function postDate(input: CommonPostInput, zone: string): DateTime | null {
  const now = DateTime.utc();
  if (input.date_utc !== undefined) {
    const parsed = parseDate(input.date_utc, { zone: 'UTC', now });
    if (!parsed) throw invalidParam('date_utc');
    return parsed.value;
  }
  if (input.date !== undefined) {
    const parsed = parseDate(input.date, { zone, now });
    if (!parsed) throw invalidParam('date');
    return parsed.value;
  }
  return null;
}
