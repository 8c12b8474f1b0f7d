import type { ChangeWatch } from '../changes/change-watch.ts';
import type { EventListFilter, EventRepository, EventWindow } from './event.repository.ts';

/** What a new event's row says about the lists it can join: the columns a list filter compares directly. */
export type Arrival = Awaited<ReturnType<EventRepository['arrivalsOf']>>[number];

/** Where the changes learnt stood when a kept value was read (see `Arrivals.mark`). */
export interface Mark {
  epoch: number;
  seq: number;
}

// New events remembered since the last other change: more than a kept total or page would look at in one go
// (event-totals.ts counts again past 500). Past this the older half goes.
const MOST_CREATED = 4000;

/**
 * Whether a new event can be in a list with this filter, from its own columns alone: hidden, of another
 * status, outside the date window or at another venue, it cannot. The rest of the filter (terms,
 * organizers, search, geolocation) is left to the database, so a `true` is a maybe, a `false` is certain.
 * Stamps of one format compare as text, as the repository's filter compares them.
 */
export function mayMatch(row: Arrival, filter: EventListFilter): boolean {
  if (row.hide_from_listings !== 0) return false;
  if (filter.statuses === 'any' ? row.status === 'trash' : !filter.statuses.includes(row.status)) return false;
  if (filter.venueIds && (row.venue_id === null || !filter.venueIds.includes(row.venue_id))) return false;
  if (filter.ids && !filter.ids.includes(row.id)) return false;
  return inWindow(row, filter.window);
}

function inWindow(row: Arrival, w: EventWindow | undefined): boolean {
  if (!w) return true;
  const start = w.column === 'local' ? row.start_local : row.start_utc;
  const end = w.column === 'local' ? row.end_local : row.end_utc;
  return (w.startFrom === undefined || start >= w.startFrom) && (w.endTo === undefined || end <= w.endTo) &&
    (w.startsBefore === undefined || start < w.startsBefore) && (w.startsAfter === undefined || start > w.startsAfter) &&
    (w.endsBefore === undefined || end < w.endsBefore) && (w.endsAfter === undefined || end > w.endsAfter);
}

/**
 * The events created since the last other change, in the change log's order, and their rows: what the kept
 * list totals and pages (event-totals.ts, event-pages.ts) look at when they are next read, each from where
 * it was read. A write learnt costs them nothing but a push here, however many they keep. Any other change
 * (an update, a trash, a delete, a venue, a term, a write that did not say what it changed) starts a new
 * epoch: what was kept in an earlier one is read again.
 */
export function createArrivals(watch: ChangeWatch, events: () => EventRepository) {
  let epoch = 0;
  let learnt = 0;
  let created: Array<{ seq: number; id: number }> = [];
  // Changes up to this seq are no longer listed (the older half, dropped past MOST_CREATED).
  let droppedThrough = 0;
  const rows = new Map<number, Arrival>();
  watch.onForget((forget) => {
    if (forget !== 'all') learnt = Math.max(learnt, ...forget.map((change) => change.seq));
    if (forget === 'all' || forget.some((change) => change.kind !== 'event' || change.action !== 'create')) {
      epoch++;
      created = [];
      rows.clear();
      return;
    }
    for (const change of forget) created.push({ seq: change.seq, id: change.id });
    if (created.length > MOST_CREATED) {
      const dropped = created.splice(0, created.length / 2);
      droppedThrough = dropped[dropped.length - 1].seq;
      for (const { id } of dropped) rows.delete(id);
    }
  });

  return {
    /** Where things stand now: kept with a value read now, for `since`. */
    mark: (): Mark => ({ epoch, seq: learnt }),

    /**
     * The events created after `mark.seq` (a count's or a page's), up to `most`, with the seq of the last;
     * undefined when they cannot be told (another change since, more than `most`, or no longer listed).
     */
    since(mark: Mark, most: number): { ids: number[]; seq: number } | undefined {
      if (mark.epoch !== epoch || mark.seq < droppedThrough) return undefined;
      let low = 0;
      for (let high = created.length; low < high;) {
        const middle = (low + high) >> 1;
        if (created[middle].seq <= mark.seq) low = middle + 1;
        else high = middle;
      }
      if (created.length - low > most) return undefined;
      const news = created.slice(low);
      return { ids: news.map((change) => change.id), seq: news.length > 0 ? news[news.length - 1].seq : mark.seq };
    },

    /** The rows of these new events (those deleted since are left out), each read once. */
    async rowsOf(ids: number[]): Promise<Arrival[]> {
      const missing = ids.filter((id) => !rows.has(id));
      const from = epoch;
      const read = await events().arrivalsOf(missing);
      // Kept only if no other change was learnt meanwhile (it may have changed them).
      if (epoch === from) for (const row of read) rows.set(row.id, row);
      const found = new Map(read.map((row) => [row.id, row]));
      return ids.map((id) => found.get(id) ?? rows.get(id)).filter((row) => row !== undefined);
    },
  };
}

export type Arrivals = ReturnType<typeof createArrivals>;
