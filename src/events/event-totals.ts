import type { ChangeWatch } from '../changes/change-watch.ts';
import { FifoMap } from '../db/fifo-map.ts';
import { type Arrivals, type Mark, mayMatch } from './event-arrivals.ts';
import type { EventListFilter, EventRepository } from './event.repository.ts';

// More kept totals than this and the oldest go; more new events than this since a total was counted and
// it is counted again.
const MOST_TOTALS = 2000;
const MOST_ADDED = 500;

interface Kept {
  total: number;
  /** Where the change log stood when `total` was counted, or last grown: later creates are the ones it has not seen. */
  mark: Mark;
  /** The look at the new events under way, which every caller meanwhile waits for. */
  adding?: Promise<void>;
}

/**
 * List totals by filter, kept across writes that only create events (the common write): a new event can
 * only add itself to a total, so the kept total grows by how many of the new events the filter matches
 * (one small count by id, of those whose own columns allow it: event-arrivals.ts). Any other change (an
 * update, a trash, a delete, a venue, a term, a write that did not say what it changed) forgets every total;
 * so does any change for a filter whose members depend on each other (`hide_subsequent_recurrences`: a new
 * occurrence can hide another), whose totals are only kept until the next change of any kind.
 */
export function createEventTotals(watch: ChangeWatch, events: () => EventRepository, arrivals: Arrivals) {
  const kept = new FifoMap<string, Kept>();
  const firstOfSeries = new FifoMap<string, number>();
  watch.onForget(() => firstOfSeries.clear());

  async function grown(entry: Kept, filter: EventListFilter, ids: number[]): Promise<void> {
    // Only those the filter may match are counted by the database: most new events are outside a window.
    const maybe = (await arrivals.rowsOf(ids)).filter((row) => mayMatch(row, filter)).map((row) => row.id);
    if (maybe.length > 0) entry.total += await events().count({ ...filter, ids: maybe });
  }

  async function counted(key: string, filter: EventListFilter): Promise<number> {
    // Kept only if nothing was learnt meanwhile (what was learnt would not be added to it).
    const from = watch.generation();
    const { total, seq, settled } = await events().countAtSeq(filter);
    if (settled && watch.generation() === from) {
      const totals = filter.firstOfSeries ? firstOfSeries : kept;
      if (totals.size >= MOST_TOTALS) totals.delete(totals.oldest() as string);
      if (filter.firstOfSeries) firstOfSeries.set(key, total);
      else kept.set(key, { total, mark: { epoch: arrivals.mark().epoch, seq } });
    }
    return total;
  }

  return async (filter: EventListFilter): Promise<number> => {
    const key = JSON.stringify(filter);
    if (filter.firstOfSeries) return firstOfSeries.get(key) ?? counted(key, filter);
    const entry = kept.get(key);
    if (!entry) return counted(key, filter);
    while (entry.adding) await entry.adding;
    const news = arrivals.since(entry.mark, MOST_ADDED);
    if (!news) {
      kept.delete(key);
      return counted(key, filter);
    }
    if (news.ids.length > 0) {
      entry.mark = { epoch: entry.mark.epoch, seq: news.seq };
      entry.adding = grown(entry, filter, news.ids).catch((error: unknown) => {
        // A total that could not be grown is not known any more.
        kept.delete(key);
        throw error;
      }).finally(() => (entry.adding = undefined));
      await entry.adding;
    }
    return entry.total;
  };
}
