import type { ChangeWatch } from '../changes/change-watch.ts';
import type { EventListFilter, EventRepository } from './event.repository.ts';

// More kept totals than this and the oldest go; more new events than this since a total was counted and
// it is counted again.
const MOST_TOTALS = 2000;
const MOST_ADDED = 500;

interface Kept {
  total: number;
  /** Where the change log stood when `total` was counted: later changes are the ones it has not seen. */
  seq: number;
  /** Events created since `total` was counted, not yet looked at. */
  added: number[];
  /** The look at `added` under way, which every caller meanwhile waits for. */
  adding?: Promise<void>;
  /** Counted with `hide_subsequent_recurrences`: forgotten on any change. */
  firstOfSeries: boolean;
}

/**
 * List totals by filter, kept across writes that only create events (the common write): a new event can
 * only add itself to a total, so the kept total grows by how many of the new events the filter matches
 * (one small count by id). Any other change (an update, a trash, a delete, a venue, a term, a write that did
 * not say what it changed) forgets every total; so does any change for a filter whose members depend on
 * each other (`hide_subsequent_recurrences`: a new occurrence can hide another).
 */
export function createEventTotals(watch: ChangeWatch, events: () => EventRepository) {
  const kept = new Map<string, Kept>();
  watch.onForget((forget) => {
    const created = forget === 'all' ? [] : forget.filter((change) => change.kind === 'event' && change.action === 'create');
    if (forget === 'all' || created.length < forget.length) return kept.clear();
    for (const [key, entry] of kept) {
      // A total counted after a change committed, but before this process learnt of it, includes it already.
      entry.added.push(...created.filter((change) => change.seq > entry.seq).map((change) => change.id));
      if (entry.added.length > MOST_ADDED || entry.firstOfSeries) kept.delete(key);
    }
  });

  async function grown(entry: Kept, filter: EventListFilter): Promise<void> {
    const added = entry.added;
    entry.added = [];
    const ids = filter.ids ? added.filter((id) => filter.ids?.includes(id)) : added;
    if (ids.length > 0) entry.total += await events().count({ ...filter, ids });
  }

  return async (filter: EventListFilter): Promise<number> => {
    const key = JSON.stringify(filter);
    const entry = kept.get(key);
    if (entry) {
      while (entry.adding) await entry.adding;
      if (entry.added.length > 0) {
        entry.adding = grown(entry, filter).finally(() => (entry.adding = undefined));
        await entry.adding;
      }
      return entry.total;
    }
    // Kept only if nothing was learnt meanwhile (what was learnt would not be added to it).
    const from = watch.generation();
    const { total, seq, settled } = await events().countAtSeq(filter);
    if (settled && watch.generation() === from) {
      if (kept.size >= MOST_TOTALS) kept.delete(kept.keys().next().value as string);
      kept.set(key, { total, seq, added: [], firstOfSeries: filter.firstOfSeries === true });
    }
    return total;
  };
}
