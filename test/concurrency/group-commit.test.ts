import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { createStore, type Repositories, type Store } from '../../src/store.ts';

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
