import type { ChangeWatch } from '../changes/change-watch.ts';
import { FifoMap } from '../db/fifo-map.ts';
import { type Arrivals, type Mark, mayMatch } from './event-arrivals.ts';
import type { EventListFilter, EventOrder, EventRepository, EventRow } from './event.repository.ts';

// More kept pages than this and the oldest go; more new events than this since a page was read and it is read
// again (looking at that many would cost more than the page saves).
const MOST_PAGES = 2000;
const MOST_CREATED = 500;

/** A page's place in its order: the start it is ordered by, then the id that breaks ties. */
type Place = [start: string, id: number];

interface Kept {
  ids: number[];
  /** Where the page's last event stands; none when the page is not full (any new match would join it). */
  last?: Place;
  column: 'start_local' | 'start_utc';
  direction: 'asc' | 'desc';
  filter: EventListFilter;
  /** Where the change log stood when the page was read, or last known unchanged. */
  mark: Mark;
}

/**
 * The ids of list pages by filter, order and page, kept across writes that only create events (the common
 * write), as `event-totals.ts` keeps their totals. A new event changes a page ordered by start only if it may
 * match the filter (event-arrivals.ts: its status, venue and dates allow it) and the page is not full or the
 * event sorts before the page's last; otherwise it can neither enter the page nor move it. So each new event
 * is looked up once for every kept page, and only the pages it could reach are read again. Any other change
 * (an update, a trash, a delete, a venue, a term, a write that did not say what it changed) forgets every
 * page. Pages in another order, or of `hide_subsequent_recurrences`, are never kept.
 */
export function createEventPages(watch: ChangeWatch, events: () => EventRepository, arrivals: Arrivals) {
  const kept = new FifoMap<string, Kept>();

  /** Whether any of the new events could enter the page or move it: one it may match, sorting before its last. */
  async function reached(page: Kept, ids: number[]): Promise<boolean> {
    return (await arrivals.rowsOf(ids)).some((row) => {
      if (!mayMatch(row, page.filter)) return false;
      // A page that is not full takes any new match, wherever it sorts.
      if (!page.last) return true;
      const [start, id] = page.last;
      const own = row[page.column];
      const before = own < start || (own === start && row.id < id);
      return page.direction === 'asc' ? before : !before;
    });
  }

  /** The kept ids of a page, once the events created since it was read are known not to change it. */
  async function keptIds(key: string): Promise<number[] | undefined> {
    const page = kept.get(key);
    if (!page) return undefined;
    const news = arrivals.since(page.mark, MOST_CREATED);
    if (news && (news.ids.length === 0 || !(await reached(page, news.ids)))) {
      // Moved on only by the read that started from where it stood; a concurrent one may have moved it further.
      if (page.mark.seq < news.seq) page.mark = { epoch: page.mark.epoch, seq: news.seq };
      return page.ids;
    }
    if (kept.get(key) === page) kept.delete(key);
    return undefined;
  }

  /**
   * A page's rows: its ids kept or read with `listIds`, the rows by `rowsOf` (in the ids' order). `from` is
   * the watch's generation taken before anything was read: the page is kept only if nothing was learnt
   * since, so that where the log stood when it was kept is where it stood when it was read.
   */
  return async function pageRows(
    filter: EventListFilter, order: EventOrder, limit: number, offset: number, from: number,
    rowsOf: (ids: number[]) => Promise<EventRow[]>,
  ): Promise<EventRow[]> {
    const column = order.column;
    if (filter.firstOfSeries || (column !== 'start_local' && column !== 'start_utc')) {
      return rowsOf(await events().listIds(filter, order, limit, offset));
    }
    const key = JSON.stringify([filter, order, limit, offset]);
    const known = await keptIds(key);
    if (known) return rowsOf(known);
    const ids = await events().listIds(filter, order, limit, offset);
    const rows = await rowsOf(ids);
    if (watch.generation() === from && rows.length === ids.length) {
      if (kept.size >= MOST_PAGES) kept.delete(kept.oldest() as string);
      const last = rows.at(-1);
      kept.set(key, {
        ids, last: ids.length === limit && last ? [last[column], last.id] : undefined, column, direction: order.direction, filter,
        mark: arrivals.mark(),
      });
    }
    return rows;
  };
}
