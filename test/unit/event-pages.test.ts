import { describe, expect, it } from 'vitest';
import type { ChangeWatch, Forget } from '../../src/changes/change-watch.ts';
import { type Arrival, createArrivals } from '../../src/events/event-arrivals.ts';
import { createEventPages } from '../../src/events/event-pages.ts';
import type { EventListFilter, EventOrder, EventRepository, EventRow } from '../../src/events/event.repository.ts';

/** A watch the test drives, and a repository of events by start that answers list pages, recording each read. */
function harness() {
  const listeners: Array<(forget: Forget) => void> = [];
  let generation = 0;
  let seq = 100;
  const watch = {
    onForget: (listener: (forget: Forget) => void) => listeners.push(listener),
    generation: () => generation,
  } as unknown as ChangeWatch;
  const learn = (forget: Forget) => {
    generation++;
    for (const listener of listeners) listener(forget);
  };
  const stored = new Map<number, Arrival>();
  const add = (id: number, start: string, columns: Partial<Arrival> = {}) =>
    stored.set(id, { id, status: 'publish', hide_from_listings: 0, venue_id: null, start_local: start, start_utc: start, end_local: start, end_utc: start, ...columns });
  /** Events created since the last look, learnt as the change log would tell them. */
  const create = (...rows: Array<[number, string, Partial<Arrival>?]>) => {
    for (const [id, start, columns] of rows) add(id, start, columns);
    learn(rows.map(([id]) => ({ kind: 'event', id, action: 'create', seq: ++seq })));
  };
  let pageReads = 0;
  const listed = (filter: EventListFilter) => [...stored.values()]
    .filter((row) => row.hide_from_listings === 0 && (filter.statuses === 'any' || filter.statuses.includes(row.status)))
    .filter((row) => !filter.venueIds || filter.venueIds.includes(row.venue_id as number))
    .filter((row) => !filter.window?.startFrom || row.start_local >= filter.window.startFrom)
    .sort((a, b) => (a.start_local < b.start_local ? -1 : a.start_local > b.start_local ? 1 : a.id - b.id));
  const events = {
    listIds: async (filter: EventListFilter, _order: EventOrder, limit: number, offset: number) => {
      pageReads++;
      return listed(filter).slice(offset, offset + limit).map((row) => row.id);
    },
    arrivalsOf: async (ids: number[]) => ids.map((id) => stored.get(id)).filter((row) => row !== undefined),
  } as unknown as EventRepository;
  const pageRows = createEventPages(watch, () => events, createArrivals(watch, () => events));
  const ORDER: EventOrder = { column: 'start_local', direction: 'asc' };
  /** A page's ids as the service reads them: the generation taken first, rows from the store. */
  const page = async (filter: EventListFilter, limit = 2, offset = 0, order = ORDER) => {
    const rows = await pageRows(filter, order, limit, offset, generation, async (ids) => ids.map((id) => stored.get(id) as unknown as EventRow));
    return rows.map((row) => row.id);
  };
  return { add, create, learn, page, reads: () => pageReads, ids: (filter: EventListFilter, limit = 2) => listed(filter).slice(0, limit).map((row) => row.id) };
}

const FROM_MARCH: EventListFilter = { statuses: ['publish'], window: { column: 'local', startFrom: '2027-03-01 00:00:00' } };

describe('list pages kept across creates', () => {
  it('keeps a full page through new events that sort after its last, reads it again when one sorts before', async () => {
    const h = harness();
    h.add(1, '2027-03-05 19:00:00');
    h.add(2, '2027-03-06 19:00:00');
    h.add(3, '2027-03-07 19:00:00');
    expect(await h.page(FROM_MARCH)).toEqual([1, 2]);
    expect(h.reads()).toBe(1);
    // After the last (2): the page is the same, and not read again.
    h.create([4, '2027-03-20 10:00:00'], [5, '2027-03-06 19:00:00']);
    expect(await h.page(FROM_MARCH)).toEqual([1, 2]);
    expect(h.reads()).toBe(1);
    // Before the window, hidden, a draft: none can be in it, wherever they sort.
    h.create([6, '2027-02-01 10:00:00'], [7, '2027-03-01 10:00:00', { hide_from_listings: 1 }], [8, '2027-03-01 11:00:00', { status: 'draft' }]);
    expect(await h.page(FROM_MARCH)).toEqual([1, 2]);
    expect(h.reads()).toBe(1);
    // Before the last: read again, and the new event is in it.
    h.create([9, '2027-03-05 20:00:00']);
    expect(await h.page(FROM_MARCH)).toEqual([1, 9]);
    expect(h.reads()).toBe(2);
    expect(await h.page(FROM_MARCH)).toEqual(h.ids(FROM_MARCH));
    // A later page moves when a new event sorts before it, even before its first.
    expect(await h.page(FROM_MARCH, 2, 2)).toEqual([2, 5]);
    h.create([10, '2027-03-02 10:00:00']);
    expect(await h.page(FROM_MARCH, 2, 2)).toEqual([9, 2]);
  });

  it('reads a page that is not full again for any new event it may match, wherever it sorts', async () => {
    const h = harness();
    const venue: EventListFilter = { ...FROM_MARCH, venueIds: [7] };
    h.add(1, '2027-03-05 19:00:00', { venue_id: 7 });
    expect(await h.page(venue)).toEqual([1]);
    h.create([2, '2027-12-01 10:00:00', { venue_id: 8 }]);
    expect(await h.page(venue)).toEqual([1]);
    expect(h.reads()).toBe(1);
    h.create([3, '2027-12-01 10:00:00', { venue_id: 7 }]);
    expect(await h.page(venue)).toEqual([1, 3]);
    expect(h.reads()).toBe(2);
  });

  it('reads every page again after any other change, and never keeps pages in another order or of first occurrences', async () => {
    const h = harness();
    for (const [id, day] of [[1, '05'], [2, '06'], [3, '07']] as const) h.add(id, `2027-03-${day} 19:00:00`);
    await h.page(FROM_MARCH);
    h.learn([{ kind: 'venue', id: 4, action: 'update', seq: 200 }]);
    await h.page(FROM_MARCH);
    expect(h.reads()).toBe(2);
    h.learn('all');
    await h.page(FROM_MARCH);
    expect(h.reads()).toBe(3);
    h.create([4, '2027-03-20 10:00:00'], [5, '2027-03-21 10:00:00']);
    h.learn([{ kind: 'event', id: 5, action: 'trash', seq: 300 }]);
    await h.page(FROM_MARCH);
    expect(h.reads()).toBe(4);
    for (const [filter, order] of [[FROM_MARCH, { column: 'title', direction: 'asc' }], [{ ...FROM_MARCH, firstOfSeries: true }, { column: 'start_local', direction: 'asc' }]] as const) {
      const before = h.reads();
      await h.page(filter, 2, 0, order);
      await h.page(filter, 2, 0, order);
      expect(h.reads()).toBe(before + 2);
    }
  });

  it('a page read while a change was being learnt is not kept: the change would never be looked at for it', async () => {
    const h = harness();
    for (const [id, day] of [[1, '05'], [2, '06'], [3, '07']] as const) h.add(id, `2027-03-${day} 19:00:00`);
    const pending = h.page(FROM_MARCH);
    h.create([4, '2027-03-05 20:00:00']);
    // Read before 4 was learnt: answered as read, not kept.
    expect(await pending).toEqual([1, 4]);
    expect(await h.page(FROM_MARCH)).toEqual([1, 4]);
    expect(h.reads()).toBe(2);
    expect(await h.page(FROM_MARCH)).toEqual([1, 4]);
    expect(h.reads()).toBe(2);
  });
});
