import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { createStore, type Repositories, type Store } from '../../src/store.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

// SQLite commits the writes asked for in the same turn of the event loop together (db/store.ts,
// groupCommits): each in a savepoint of one transaction, each answered after the shared commit.
describe('SQLite: writes asked for together commit together', () => {
  let folder: string;
  let handle: DbHandle;
  let store: Store;
  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'cal-group-'));
    handle = createDb(`sqlite:${join(folder, 'cal.db')}`);
    await migrateToLatest(handle.db);
    store = createStore(handle.db, 'sqlite');
  });
  afterEach(async () => {
    await handle.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const tag = (name: string) => ({ taxonomy: 'post_tag', name, slug: name.toLowerCase(), description: '', parent_id: 0 });
  const addTag = async (repos: Repositories, name: string) => {
    const id = await repos.terms.insert(tag(name));
    repos.changes.note({ kind: 'tag', id, action: 'create', userId: null });
    return id;
  };
  const tagNames = async () => (await handle.db.selectFrom('term').select('name').orderBy('id').execute()).map((row) => row.name);
  const loggedTags = async () => (await handle.db.selectFrom('change_log').select('record_id').where('kind', '=', 'tag').execute()).length;

  it('runs them in the order asked; one that fails is rolled back alone, the others commit and see only each other', async () => {
    const outcomes = await Promise.allSettled([
      store.transaction((repos) => addTag(repos, 'First')),
      store.transaction(async (repos) => {
        await addTag(repos, 'Refused');
        repos.changes.note({ kind: 'category', id: 777, action: 'update', userId: null });
        throw new Error('refused after writing');
      }),
      store.transaction(async (repos) => {
        // Runs after the two before it, in the same transaction: the first one's row is there, the refused one's is not.
        const before = (await repos.terms.findByNamesOrSlugs('post_tag', ['First', 'Refused'])).map((term) => term.name);
        return { before, id: await addTag(repos, 'Third') };
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('refused after writing');
    expect((outcomes[2] as PromiseFulfilledResult<{ before: string[] }>).value.before).toEqual(['First']);
    expect(await tagNames()).toEqual(['First', 'Third']);
    // The refused write's changes went with it; the others' are logged, and the data version moved for them.
    expect(await loggedTags()).toBe(2);
    expect(await handle.db.selectFrom('change_log').select('seq').where('record_id', '=', 777).execute()).toEqual([]);
    expect(await store.dataVersion()).toBeGreaterThan(1);
  });

  it('a group lost to another writer (SQLITE_BUSY) runs again whole, and each write lands once', async () => {
    const runs = { first: 0, lost: 0 };
    const outcomes = await Promise.all([
      store.transaction(async (repos) => {
        runs.first++;
        return addTag(repos, 'First');
      }),
      store.transaction(async (repos) => {
        runs.lost++;
        const id = await addTag(repos, 'Second');
        // What SQLite answers when another process took the database first: nothing of the group may stay.
        if (runs.lost === 1) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
        return id;
      }),
    ]);
    expect(runs).toEqual({ first: 2, lost: 2 });
    expect(outcomes).toHaveLength(2);
    expect(await tagNames()).toEqual(['First', 'Second']);
    expect(await loggedTags()).toBe(2);
  });

  // SQLite names its temporary files etilqs_*, and unlinks them as soon as they are made: only the open
  // descriptors show them (Linux: /proc/self/fd).
  const openTemporaryFiles = () =>
    readdirSync('/proc/self/fd').map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return ''; // closed meanwhile (the listing's own descriptor)
      }
    }).filter((target) => target.includes('etilqs_'));

  it.runIf(existsSync('/proc/self/fd'))('a write changing many pages journals them in memory, never in a temporary file; reads keep the default', async () => {
    const description = 'd'.repeat(1500);
    await store.transaction(async (repos) => {
      for (let i = 0; i < 200; i++) await repos.terms.insert({ ...tag(`Tag ${i}`), description });
    });
    const temporaryStorage = async () => (await sql<{ temp_store: number }>`pragma temp_store`.execute(handle.db)).rows[0].temp_store;
    expect(await temporaryStorage()).toBe(0); // SQLite's default, outside a write
    let seen: string[] = ['not looked'];
    await Promise.all([
      store.transaction((repos) => addTag(repos, 'Before')),
      store.transaction(async (repos) => {
        // ~80 pages written before this savepoint began: each goes to the savepoint's journal (~320 kB).
        for (let i = 0; i < 200; i++) await repos.terms.update((await repos.terms.findByNamesOrSlugs('post_tag', [`Tag ${i}`]))[0].id, { description: `${description}!` });
        seen = openTemporaryFiles();
      }),
    ]);
    expect(seen).toEqual([]);
    expect(await temporaryStorage()).toBe(0);
    const changed = await handle.db.selectFrom('term').select('description').where('name', '=', 'Tag 199').executeTakeFirstOrThrow();
    expect(changed.description).toBe(`${description}!`);
  });

  it('a write that cannot have the write lock leaves reads with SQLite\'s default temporary storage', async () => {
    await sql`pragma busy_timeout = 0`.execute(handle.db);
    const other = new SqliteDatabase(join(folder, 'cal.db'));
    try {
      other.exec('begin immediate'); // another process writing, for longer than this one waits
      await expect(store.transaction((repos) => addTag(repos, 'Locked out'))).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      const [{ temp_store }] = (await sql<{ temp_store: number }>`pragma temp_store`.execute(handle.db)).rows;
      expect(temp_store).toBe(0);
    } finally {
      other.close();
    }
    expect(await tagNames()).toEqual([]);
  });

  it('ten writes asked together write about the WAL pages of one, not ten times as many', async () => {
    // Frames in the WAL as another connection to the file reports them: a checkpoint's `log` is the WAL's
    // length, whatever it then copies into the database.
    const other = new SqliteDatabase(join(folder, 'cal.db'));
    const walFrames = () => (other.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>)[0].log;
    const reset = () => other.pragma('wal_checkpoint(TRUNCATE)');
    try {
      reset();
      await store.transaction((repos) => addTag(repos, 'Alone'));
      const one = walFrames();
      reset();
      await Promise.all(Array.from({ length: 10 }, (_, i) => store.transaction((repos) => addTag(repos, `Together ${i}`))));
      const ten = walFrames();
      expect(one).toBeGreaterThan(0);
      // One at a time, each commit writes its own copy of every page it changed: ten times `one`.
      expect(ten).toBeLessThan(3 * one);
      expect(await loggedTags()).toBe(11);
    } finally {
      other.close();
    }
  });
});

// Through the API, on both databases: creates sent at once, some refused after part of their write (a new
// venue made, then an unknown category): each refused one leaves nothing, each accepted one lands whole.
describeEachDialect('parallel creates, some refused inside their write', (t) => {
  it('answers each on its own: 201 with everything it wrote, or 400 with nothing of it stored', async () => {
    const headers = (await t().user('administrator')).headers;
    const event = (i: number) => ({ title: `Gig ${i}`, start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => t().request({
      method: 'POST', url: `${API}/events`, headers,
      // Every third one names a new venue and then a category id that does not exist: refused after the venue.
      payload: i % 3 === 1 ? { ...event(i), venue: { venue: `Ghost Hall ${i}` }, categories: [987654] } : { ...event(i), venue: { venue: `Real Hall ${i}` }, categories: ['Music'] },
    })));
    for (const [i, answer] of answers.entries()) {
      if (i % 3 === 1) {
        expect([answer.statusCode, answer.json.code, answer.json.data?.params]).toEqual([400, 'rest_invalid_param', { categories: 'No categories term has the id 987654.' }]);
      } else {
        expect(answer.statusCode, answer.body).toBe(201);
        expect(answer.json).toMatchObject({ title: `Gig ${i}`, venue: { venue: `Real Hall ${i}` }, categories: [{ name: 'Music' }] });
      }
    }
    const venues = (await t().request({ url: `${API}/venues?per_page=50` })).json.venues.map((venue: { venue: string }) => venue.venue);
    expect(venues.filter((name: string) => name.startsWith('Ghost'))).toEqual([]);
    expect(venues.filter((name: string) => name.startsWith('Real')).sort()).toEqual([0, 2, 3, 5, 6, 8, 9, 11].map((i) => `Real Hall ${i}`).sort());
    const listed = (await t().request({ url: `${API}/events?per_page=50&start_date=2027-03-01` })).json;
    expect(listed.total).toBe(8);
    // One category for the eight, counted once each; the change log holds the accepted writes alone.
    const [music] = (await t().request({ url: `${API}/categories?search=Music` })).json.categories;
    expect(music.count).toBe(8);
    const changes = (await t().request({ url: `${API}/changes?after=0&limit=100`, headers })).json.changes as Array<{ kind: string; action: string }>;
    expect(changes.filter((change) => change.kind === 'venue').length).toBe(8);
    expect(changes.filter((change) => change.kind === 'event').length).toBe(8);
  });
});
