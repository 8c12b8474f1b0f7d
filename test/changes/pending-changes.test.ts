import { expect, it } from 'vitest';
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
// and they are given their place in the log once they have committed. The first test holds a writer open
// between its append and its commit, as a slow writer in another process would be.
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

  /** A transaction that has appended a change and waits, open, until `release` is called. */
  async function openWriter(recordId: number) {
    let release!: () => void;
    let appended!: () => void;
    const wasAppended = new Promise<void>((resolve) => (appended = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const done = t().database.db.transaction().execute(async (trx) => {
      await trx.insertInto('change_pending').values({ kind: 'event', record_id: recordId, action: 'update', changed_utc: '2027-01-01 00:00:00', user_id: null }).execute();
      appended();
      await released;
    });
    await wasAppended;
    return { release, done };
  }

  it('a writer holding its transaction open after appending its changes holds up no other writer', async () => {
    const first = await create('First');
    const mark = (await feed('0')).next_cursor;
    const slow = await openWriter(first.id);
    // Before migration 0016 this create waited on the data version row the slow writer would hold.
    const quick = await create('Quick');
    const seen = await feed(mark);
    expect(seen.changes.map((c) => [c.id, c.action])).toEqual([[quick.id, 'create']]);
    slow.release();
    await slow.done;
    // The slow change committed last: it comes after the cursor the reader already holds, never before it.
    const later = await feed(seen.next_cursor);
    expect(later.changes.map((c) => [c.id, c.action])).toEqual([[first.id, 'update']]);
    expect(Number(later.changes[0].cursor)).toBeGreaterThan(Number(seen.next_cursor));
    // Read from the start, every change once, in commit order.
    const all = (await feed(mark)).changes.map((c) => [c.id, c.action]);
    expect(all).toEqual([[quick.id, 'create'], [first.id, 'update']]);
  });

  it('a logged write leaves the data version row alone: it is no point where writers wait', async () => {
    const { db } = t().database;
    const rowVersion = async () => (await db.selectFrom('data_version').select((eb) => eb.ref('xmin' as never).as('xmin')).executeTakeFirstOrThrow()).xmin;
    await create('Warm-up');
    const before = await rowVersion();
    const event = await create('Gig');
    await t().request({ method: 'POST', url: `${API}/events/${event.id}`, headers: await admin(), payload: { title: 'Gig, moved' } });
    expect(await rowVersion()).toBe(before);
  });
}, {}, 'postgres'); // SQLite writes one transaction at a time by design: there is nothing side by side there

