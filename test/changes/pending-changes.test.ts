import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { createStore as createDbStore } from '../../src/db/store.ts';
import { createRepositories, createStore } from '../../src/store.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const EVENT = { start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' };

describeEachDialect('parallel writers and the change log', (t) => {
  it('20 creates at once each appear once in the feed, in cursor order, and replaying it from any cursor gives the rest', async () => {
    const headers = (await t().user('administrator')).headers;
    const feed = async (after: string) =>
      (await t().request({ url: `${API}/changes?after=${after}&limit=500`, headers })).json as { changes: Array<{ cursor: string; id: number; kind: string }>; next_cursor: string };
    const mark = (await feed('0')).next_cursor;
    const made = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      t().request({ method: 'POST', url: `${API}/events`, headers, payload: { ...EVENT, title: `Gig ${i}` } })));
    expect(made.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const changes = (await feed(mark)).changes.filter((c) => c.kind === 'event');
    expect(changes.map((c) => c.id).sort((a, b) => a - b)).toEqual(made.map((r) => (r.json as { id: number }).id).sort((a, b) => a - b));
    const cursors = changes.map((c) => Number(c.cursor));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    const middle = changes[9].cursor;
    expect((await feed(middle)).changes.filter((c) => c.kind === 'event').map((c) => c.id)).toEqual(changes.slice(10).map((c) => c.id));
  });
});

// On PostgreSQL writers commit side by side (migration 0016): each appends its changes to change_pending,
// and they are given their place in the log once they have committed. A writer is held open between its
// append and its commit, as a slow writer in another process would be.
describeEachDialect('PostgreSQL writers commit side by side, and the log keeps commit order', (t) => {
  const admin = async () => (await t().user('administrator')).headers;
  const create = async (title: string) => {
    const res = await t().request({ method: 'POST', url: `${API}/events`, headers: await admin(), payload: { ...EVENT, title } });
    expect(res.statusCode).toBe(201);
    return res.json as { id: number };
  };
  const feed = async (after: string) => (await t().request({ url: `${API}/changes?after=${after}`, headers: await admin() })).json as {
    changes: Array<{ cursor: string; kind: string; id: number; action: string }>; next_cursor: string;
  };

  /** A write through a store like the service's, that waits after appending its changes until released. */
  async function slowWriter(eventId: number) {
    let release!: () => void;
    let appended!: () => void;
    const wasAppended = new Promise<void>((resolve) => (appended = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const app = createStore(t().database.db, 'postgres');
    const store = createDbStore(t().database.db, 'postgres', createRepositories, {
      beforeCommit: async (repos) => {
        const wrote = await repos.changes.flush('2027-01-01 00:00:00');
        appended();
        await released;
        return wrote;
      },
      afterCommit: () => app.repos.changes.settle(true),
    });
    const done = store.transaction(async (repos) => {
      await repos.events.update(eventId, { title: 'Slow' });
      repos.changes.note({ kind: 'event', id: eventId, action: 'update', userId: null });
    });
    await wasAppended;
    return { release, done };
  }

  it('a writer holding its transaction open after appending its changes holds up no other writer, nor the version row', async () => {
    const first = await create('First');
    const mark = (await feed('0')).next_cursor;
    const slow = await slowWriter(first.id);
    // Before migration 0016 the slow writer held the data version row locked from here to its commit.
    const quick = await create('Quick');
    await t().database.db.transaction().execute((trx) => sql`select version from data_version where id = 1 for update nowait`.execute(trx));
    const seen = await feed(mark);
    expect(seen.changes.map((c) => [c.id, c.action])).toEqual([[quick.id, 'create']]);
    slow.release();
    await slow.done;
    // The slow change committed last: it comes after the cursor the reader already holds, never before it.
    const later = await feed(seen.next_cursor);
    expect(later.changes.map((c) => [c.id, c.action])).toEqual([[first.id, 'update']]);
    expect(Number(later.changes[0].cursor)).toBeGreaterThan(Number(seen.next_cursor));
    // Read from the start, every change once, in commit order; and the record as the slow writer left it.
    expect((await feed(mark)).changes.map((c) => [c.id, c.action])).toEqual([[quick.id, 'create'], [first.id, 'update']]);
    const read = await t().request({ url: `${API}/events/${first.id}`, headers: await admin() });
    expect((read.json as { title: string }).title).toBe('Slow');
  });
}, {}, 'postgres'); // SQLite writes one transaction at a time by design: there is nothing side by side there
