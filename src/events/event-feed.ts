import type { Recurrence } from '../recurrence/expand.ts';
import { isOccurrence } from '../recurrence/series.ts';
import type { Repositories, Store } from '../store.ts';
import type { Urls } from '../http/urls.ts';
import { type EventRecord, type RecordDeps, toEventRecords } from './event.record.ts';
import type { EventRow } from './event.repository.ts';

/** An event record as the API returns it, and its RFC 5545 SEQUENCE (not part of the record). */
export interface FeedEntry {
  record: EventRecord;
  sequence: number;
  /** A series written whole: its rules, and the original starts of edited occurrences not shown (EXDATE). */
  repeats?: Recurrence & { hidden: string[] };
  /** An occurrence edited on its own, written as an exception of its series' VEVENT (RECURRENCE-ID). */
  recurrenceOf?: { globalId: string; originalStart: string; timezone: string };
}

/** What a calendar feed is written from, given the rows its query found and what its caller may see. */
export function createFeedEntries(deps: { store: Store; urls: Urls; recordDeps: (repos: Repositories) => RecordDeps }) {
  const { store, urls, recordDeps } = deps;
  /**
   * Records whole, each with its revision: what a calendar feed is written from. A series appears as a
   * calendar app wants it: the series event once, with its rules, in place of its occurrences, then the
   * occurrences edited on their own as its exceptions (RECURRENCE-ID); an edited occurrence this caller may
   * not see is left out of the rules (EXDATE). A series the caller cannot see whole (trashed, unreadable,
   * locked by a password) and an all-day series (RFC 5545 dates, which our exceptions' times do not fit)
   * stay as their occurrences.
   */
  async function feedEntries(rows: EventRow[], visible: (row: EventRow) => boolean): Promise<FeedEntry[]> {
    const seriesOf = (row: EventRow) => (row.recurrence !== null ? row.id : isOccurrence(row) ? row.parent_id : 0);
    const seriesIds = [...new Set(rows.map(seriesOf).filter((id) => id !== 0))];
    const known = new Map(rows.map((row) => [row.id, row]));
    for (const row of await store.repos.events.findByIds(seriesIds.filter((id) => !known.has(id)))) known.set(row.id, row);
    const whole = new Set(seriesIds.filter((id) => {
      const head = known.get(id);
      return head !== undefined && head.recurrence !== null && head.all_day === 0 && visible(head);
    }));
    const overrides = await store.repos.events.overridesOf([...whole]);
    const shown: EventRow[] = [];
    const placed = new Set<number>();
    for (const row of rows) {
      const id = seriesOf(row);
      if (!whole.has(id)) shown.push(row);
      else if (!placed.has(id)) {
        placed.add(id);
        shown.push(known.get(id) as EventRow, ...overrides.filter((o) => o.parent_id === id && visible(o)));
      }
    }
    const records = await toEventRecords(shown, recordDeps(store.repos), { unlocked: () => true });
    return shown.map((row, i) => {
      const entry: FeedEntry = { record: records[i], sequence: row.sequence };
      if (whole.has(row.id)) {
        const hidden = overrides.filter((o) => o.parent_id === row.id && !visible(o)).map((o) => o.original_start as string);
        entry.repeats = { ...(JSON.parse(row.recurrence as string) as Recurrence), hidden };
      } else if (row.override === 1 && whole.has(row.parent_id)) {
        const head = known.get(row.parent_id) as EventRow;
        entry.recurrenceOf = { globalId: urls.globalId(head.id), originalStart: row.original_start as string, timezone: head.timezone };
      }
      return entry;
    });
  }

  return feedEntries;
}
