import { describe, expect, it } from 'vitest';
import type { ChangeWatch, Forget } from '../../src/changes/change-watch.ts';
import type { EventListFilter, EventRepository } from '../../src/events/event.repository.ts';
import { type Arrival, createArrivals } from '../../src/events/event-arrivals.ts';
import { createEventTotals } from '../../src/events/event-totals.ts';

/** A watch the test drives, and a repository whose counts it scripts, recording what was asked. */
function harness() {
  const listeners: Array<(forget: Forget) => void> = [];
  let generation = 0;
  const watch = {
    onForget: (listener: (forget: Forget) => void) => listeners.push(listener),
    generation: () => generation,
    sync: async () => undefined,
  } as unknown as ChangeWatch;
  const learn = (forget: Forget) => {
    generation++;
    for (const listener of listeners) listener(forget);
  };
  const asked: Array<{ ids?: number[] }> = [];
  const matching = new Set<number>();
  const state = { total: 10, seq: 100, settled: true };
  // The new events' own columns: published, listed, without a venue, on 1 January 2027 unless a test says.
  const columns = new Map<number, Partial<Arrival>>();
  const events = {
    arrivalsOf: async (ids: number[]) => ids.map((id): Arrival => ({
      id, status: 'publish', hide_from_listings: 0, venue_id: null,
      start_local: '2027-01-01 10:00:00', start_utc: '2027-01-01 09:00:00', end_local: '2027-01-01 12:00:00', end_utc: '2027-01-01 11:00:00',
      ...columns.get(id),
    })),
    countAtSeq: async (filter: EventListFilter) => {
      asked.push({ ids: filter.ids });
      return { ...state };
    },
    count: async (filter: EventListFilter) => {
      asked.push({ ids: filter.ids });
      return (filter.ids ?? []).filter((id) => matching.has(id)).length;
    },
  } as unknown as EventRepository;
  return { totalOf: createEventTotals(watch, () => events, createArrivals(watch, () => events)), learn, asked, matching, state, columns };
}
const create = (id: number, seq: number) => ({ kind: 'event' as const, id, action: 'create' as const, seq });
const FILTER: EventListFilter = { statuses: ['publish'] };

describe('list totals kept across creates', () => {
  it('adds the new events the filter matches, only those created after the count was taken', async () => {
    const h = harness();
    expect(await h.totalOf(FILTER)).toBe(10);
    h.matching.add(7).add(8);
    // 7 was committed before the count (seq 99 <= 100): the count has it already. 8 and 9 came after.
    h.learn([create(7, 99), create(8, 101), create(9, 102)]);
    expect(await h.totalOf(FILTER)).toBe(11);
    expect(h.asked.at(-1)).toEqual({ ids: [8, 9] });
    // Concurrent readers wait for one look at the new events.
    h.learn([create(10, 103)]);
    h.matching.add(10);
    const [a, b] = await Promise.all([h.totalOf(FILTER), h.totalOf(FILTER)]);
    expect([a, b]).toEqual([12, 12]);
    expect(h.asked.filter((q) => q.ids?.includes(10))).toHaveLength(1);
    expect(await h.totalOf(FILTER)).toBe(12);
  });

  it('leaves to the database only the new events whose own columns the filter allows', async () => {
    const h = harness();
    const window: EventListFilter = { ...FILTER, venueIds: [5], window: { column: 'local', startFrom: '2027-01-01 00:00:00', endTo: '2027-01-07 23:59:59' } };
    expect(await h.totalOf(window)).toBe(10);
    h.matching.add(1).add(6);
    h.columns.set(1, { venue_id: 5 });
    h.columns.set(2, { venue_id: 5, status: 'draft' });
    h.columns.set(3, { venue_id: 5, hide_from_listings: 1 });
    h.columns.set(4, { venue_id: 6 });
    h.columns.set(5, { venue_id: 5, start_local: '2027-02-01 10:00:00', end_local: '2027-02-01 12:00:00' });
    h.columns.set(6, { venue_id: 5, start_local: '2027-01-07 22:00:00', end_local: '2027-01-07 23:59:59' });
    h.columns.set(7, { venue_id: 5, start_local: '2027-01-07 23:00:00', end_local: '2027-01-08 01:00:00' });
    h.learn([1, 2, 3, 4, 5, 6, 7].map((id) => create(id, 100 + id)));
    expect(await h.totalOf(window)).toBe(12);
    expect(h.asked.at(-1)).toEqual({ ids: [1, 6] });
    // None the filter allows: no count at all.
    h.columns.set(8, { venue_id: 6 });
    h.learn([create(8, 108)]);
    const asked = h.asked.length;
    expect(await h.totalOf(window)).toBe(12);
    expect(h.asked).toHaveLength(asked);
  });

  it('counts again after any other change, an unlogged write, or for a filter whose members depend on each other', async () => {
    const h = harness();
    await h.totalOf(FILTER);
    h.learn([create(8, 101), { kind: 'event', id: 3, action: 'update', seq: 102 }]);
    h.state.total = 20;
    expect(await h.totalOf(FILTER)).toBe(20);
    h.learn('all');
    h.state.total = 21;
    expect(await h.totalOf(FILTER)).toBe(21);
    h.learn([{ kind: 'venue', id: 4, action: 'update', seq: 103 }]);
    h.state.total = 22;
    expect(await h.totalOf(FILTER)).toBe(22);
    const series: EventListFilter = { ...FILTER, firstOfSeries: true };
    await h.totalOf(series);
    h.learn([create(11, 104)]);
    h.state.total = 30;
    expect(await h.totalOf(series)).toBe(30);
    // A count taken while a change was being learnt is not kept: the change would never be added to it.
    h.state.total = 40;
    const fresh = { ...FILTER, featured: true };
    const pending = h.totalOf(fresh);
    h.learn([create(12, 105)]);
    expect(await pending).toBe(40);
    h.state.total = 41;
    expect(await h.totalOf(fresh)).toBe(41);
  });

  it('a count taken while a change was committed but not yet in the log (PostgreSQL) is not kept', async () => {
    const h = harness();
    h.state.settled = false;
    expect(await h.totalOf(FILTER)).toBe(10);
    // That change will reach the log with a later seq though the count has it: the count must not be kept.
    h.state.total = 11;
    h.state.settled = true;
    expect(await h.totalOf(FILTER)).toBe(11);
    expect(h.asked).toEqual([{ ids: undefined }, { ids: undefined }]);
    expect(await h.totalOf(FILTER)).toBe(11);
    expect(h.asked).toHaveLength(2);
  });
});
