import { identified, type Source, SourceError } from './source.ts';

type Rec = Record<string, any>;

/**
 * The API never shows a record's password, so a password-protected event, venue or organizer cannot stay
 * protected here: read with credentials (`context=edit`, whole), it comes in `private` (editors only) rather
 * than public with what its password guarded. Which are protected shows only in how a visitor sees them:
 * the reference blanks them there (tec-rest-v1.md §1.1-1.3), and some blanks are unmistakable: an event's
 * flags (`all_day`, `featured`, …) are null where a record's are booleans, a venue's or an organizer's name
 * is `[]` where a record's is text.
 */
const BLANKED: Record<string, (view: Rec) => boolean> = {
  events: (view) => view.all_day === null,
  venues: (view) => Array.isArray(view.venue) && view.venue.length === 0,
  organizers: (view) => Array.isArray(view.organizer) && view.organizer.length === 0,
};

/**
 * Whether a venue or an organizer read without credentials is one a password guards: its name comes as `[]`,
 * so it cannot be written (an event comes as a visitor sees it: its title and dates, its content blank).
 */
export const unreadableToVisitors = (resource: string, record: Rec): boolean => resource !== 'events' && BLANKED[resource]?.(record) === true;

/** Marks the protected records of a page private; returns those written as they are and those not found again. */
export type Guard = (whole: Rec[]) => Promise<readonly [Rec[], Rec[]]>;

/**
 * Events are asked for again by id as a visitor sees them (`include`), a page at a time, so that every event is
 * compared with itself whatever moved in the list meanwhile. Venue and organizer lists take no `include`: the
 * visitor's walk of the list comes first, keeping the ids it shows blank and the ids it shows at all (a
 * number each, not the records), and a record it did not show (added meanwhile) is asked for alone, which a
 * visitor may do for a protected venue or organizer (it comes blank, not refused). A record not found again
 * cannot be told, and is not written.
 */
export async function createGuard(source: Source, resource: string, query: Record<string, string>): Promise<Guard> {
  const blanked = BLANKED[resource];
  const asVisitor = { ...query, context: 'view' };
  if (resource === 'events') {
    return async (whole) => {
      const views = new Map((await source.byIds(resource, whole.map((record) => record.id), asVisitor)).map((view) => [view.id, view]));
      return guard(whole, (record) => (views.has(record.id) ? blanked(views.get(record.id) as Rec) : undefined));
    };
  }
  const blank = new Set<number>();
  const shown = new Set<number>();
  try {
    for await (const page of source.pages(resource, asVisitor)) {
      for (const view of page.records.filter(identified)) {
        shown.add(view.id);
        if (blanked(view)) blank.add(view.id);
      }
    }
  } catch (error) {
    // A walk cut short (the list moved under it, a page that never came) saves requests, no more: what it did
    // not show is asked for alone. A site that answers nothing fails the editor's walk next, with its reason.
    if (!(error instanceof SourceError)) throw error;
  }
  return async (whole) => {
    const alone = new Map<number, boolean>();
    for (const record of whole.filter((record) => !shown.has(record.id))) {
      const view = await source.one(resource, record.id, asVisitor).catch((error: unknown) => {
        if (error instanceof SourceError && error.answer && error.answer.status < 500) return undefined; // gone, or not for visitors
        throw error;
      });
      if (view) alone.set(record.id, blanked(view));
    }
    return guard(whole, (record) => (shown.has(record.id) ? blank.has(record.id) : alone.get(record.id)));
  };
}

/** Each record private when protected; those whose protection is not known (undefined) apart, not written. */
function guard(whole: Rec[], isProtected: (record: Rec) => boolean | undefined) {
  const found: Rec[] = [];
  const unseen: Rec[] = [];
  for (const record of whole) {
    const guarded = isProtected(record);
    if (guarded === undefined) unseen.push(record);
    else {
      if (guarded) record.status = 'private';
      found.push(record);
    }
  }
  return [found, unseen] as const;
}
