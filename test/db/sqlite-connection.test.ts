import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type CompiledQuery, Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createDb } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { precompiled, precompiledValues } from '../../src/db/precompiled.ts';
import { requestArrived } from '../../src/db/read-generation.ts';
import { createStore } from '../../src/db/store.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
/** Whether another connection can empty the write-ahead log: not while a read transaction uses it. */
const truncated = (other: SqliteDatabase.Database) => (other.prepare('pragma wal_checkpoint(truncate)').get() as { busy: number }).busy === 0;

// The settings of the service's own SQLite connection (db/create-db.ts), each against a second connection
// where it matters, as another process or tool would open the same file.
describe('SQLite: the service connection', () => {
  const folder = mkdtempSync(join(tmpdir(), 'cal-sqlite-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  let files = 0;
  /** A database file of its own, migrated, through the service's connection. */
  const migrated = async () => {
    const path = join(folder, `cal-${files++}.db`);
    const handle = createDb(`sqlite:${path}`);
    await migrateToLatest(handle.db);
    return { handle, path };
  };
  /**
   * `work` on a migrated file through the service's connection and through another, as the service's second
   * process would open it (not waiting for locks); both closed afterwards.
   */
  const withOther = async (work: (handle: Awaited<ReturnType<typeof migrated>>['handle'], other: SqliteDatabase.Database) => Promise<void>) => {
    const { handle, path } = await migrated();
    const other = new SqliteDatabase(path, { timeout: 0 });
    try {
      await work(handle, other);
    } finally {
      other.close();
      await handle.close();
    }
  };

  // Every transaction on SQLite is a write (db/store.ts). Begun deferred, one that read before it wrote failed
  // at its first write, at once and whatever the busy timeout, when another process had committed since its
  // read (SQLITE_BUSY_SNAPSHOT): two processes editing one series on a loaded machine ran out of retries and
  // answered 500. Begun immediate, it takes the write lock first, waiting for it as long as the busy timeout.
  it('holds the write lock from a transaction\'s start, so another process cannot commit between its reads and its writes', async () => {
    await withOther(async (handle, other) => {
      const otherWrite = () => other.prepare('update data_version set version = version + 100 where id = 1').run();
      const seen = await handle.db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('data_version').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
        // Deferred, this write of the other process committed, and the update below failed with SQLITE_BUSY_SNAPSHOT.
        expect(otherWrite).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
        await trx.updateTable('data_version').set({ version: before.version + 1 }).where('id', '=', 1).execute();
        return before.version;
      });
      expect((await handle.db.selectFrom('data_version').select('version').executeTakeFirstOrThrow()).version).toBe(seen + 1);
      // Once it has committed, the other process writes; a request that comes after (a later turn) reads it.
      otherWrite();
      await nextTurn();
      expect((await handle.db.selectFrom('data_version').select('version').executeTakeFirstOrThrow()).version).toBe(seen + 101);
    });
  });

  // Reads on their own share one read transaction until the end of the turn (create-db.ts, readsTogether):
  // another process's commit is seen from the next turn on, the service's own writes at once, and a write on
  // its own never waits inside that transaction for the turn to end (another process sees it at once).
  it('shares one snapshot among the reads of a turn, never holding back a write', async () => {
    await withOther(async (handle, other) => {
      const version = async () => (await handle.db.selectFrom('data_version').select('version').where('id', '=', 1).executeTakeFirstOrThrow()).version;
      const otherVersion = () => (other.prepare('select version from data_version where id = 1').get() as { version: number }).version;
      const first = await version();
      other.prepare('update data_version set version = version + 100 where id = 1').run();
      expect(await version()).toBe(first); // the same turn: the same snapshot
      await nextTurn();
      expect(await version()).toBe(first + 100);

      // A write on its own, and one that returns rows, each committed before it is answered.
      await handle.db.updateTable('data_version').set({ version: first + 200 }).where('id', '=', 1).execute();
      expect([otherVersion(), await version()]).toEqual([first + 200, first + 200]);
      const returned = await handle.db.updateTable('data_version').set({ version: first + 300 }).where('id', '=', 1).returning('version').executeTakeFirstOrThrow();
      expect([returned.version, otherVersion(), await version()]).toEqual([first + 300, first + 300, first + 300]);
      // A transaction after reads of the same turn: begun (immediate) at once, committed when it ends.
      await version();
      await handle.db.transaction().execute((trx) => trx.updateTable('data_version').set({ version: first + 400 }).where('id', '=', 1).execute());
      expect([otherVersion(), await version()]).toEqual([first + 400, first + 400]);
      // The turn's read transaction ends with the turn: until then, the log cannot be emptied under it.
      await version();
      expect(truncated(other)).toBe(false);
      await nextTurn();
      expect(truncated(other)).toBe(true);
    });
  });

  // A read begun before a batch of requests (in a timer, say) may be older than a request of the batch: the
  // snapshot and the data version it gave are dropped when the batch arrives (db/read-generation.ts), not
  // reused as they are within the turn otherwise. test/concurrency/stale-reads.test.ts does it through HTTP.
  it('forgets the snapshot and the data version read before a batch of requests arrives', async () => {
    await withOther(async (handle, other) => {
      const store = createStore(handle.db, 'sqlite', () => ({}));
      const first = await store.dataVersion();
      other.prepare('update data_version set version = version + 100 where id = 1').run();
      expect(await store.dataVersion()).toBe(first); // the same turn, no request: kept
      requestArrived();
      expect(await store.dataVersion()).toBe(first + 100);
      other.prepare('update data_version set version = version + 100 where id = 1').run();
      requestArrived(); // the same batch: shared
      expect(await store.dataVersion()).toBe(first + 100);
    });
  });

  // A stream read row by row across turns holds the connection: the turn's transaction ends after it.
  it('ends the shared read transaction after a stream that outlasts its turn', async () => {
    await withOther(async (handle, other) => {
      const seen: number[] = [];
      for await (const row of handle.db.selectFrom('data_version').select('id').union(handle.db.selectFrom('term').select('id')).stream()) {
        seen.push(row.id);
        await nextTurn();
        await nextTurn();
      }
      expect(seen).toEqual([1]);
      expect(truncated(other)).toBe(false); // the transaction outlived the turn it began in, held by the stream
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(truncated(other)).toBe(true);
    });
  });

  // Compiled reads outside a transaction run at once on the prepared statement (db/direct-statements.ts), not through
  // Kysely's driver; but never on the connection while a transaction or a stream holds it: there a read would see
  // a write not yet committed (and maybe rolled back), or find the connection busy with the stream's statement.
  it('answers a compiled read at once while the connection is free, and after whatever holds it', async () => {
    const { handle } = await migrated();
    const { db } = handle;
    try {
      const version = precompiled<{ version: number }>(db, () => db.selectFrom('data_version').select('version').where('id', '=', 1));
      const versionNow = async () => (await version(1))[0].version;
      const throughKysely = vi.spyOn(db, 'executeQuery');
      const first = await versionNow();
      expect(throughKysely).not.toHaveBeenCalled();

      // A transaction that writes, lets a read start, and then fails: the read waits for its rollback.
      let duringRollback: Promise<number> | undefined;
      let settled = false;
      await expect(db.transaction().execute(async (trx) => {
        await trx.updateTable('data_version').set({ version: first + 1 }).where('id', '=', 1).execute();
        duringRollback = versionNow().finally(() => (settled = true));
        await nextTurn();
        expect(settled).toBe(false);
        throw new Error('changed my mind');
      })).rejects.toThrow('changed my mind');
      expect(await duringRollback).toBe(first);
      expect(throughKysely).toHaveBeenCalledTimes(1);

      // A stream holds the connection between its rows: a read meanwhile waits for it to end.
      const duringStream: Array<Promise<number>> = [];
      for await (const row of db.selectFrom('data_version').select('id').union(db.selectFrom('term').select('id')).stream()) {
        expect(row.id).toBe(1);
        duringStream.push(versionNow());
        await nextTurn();
      }
      expect(await Promise.all(duringStream)).toEqual([first]);
      throughKysely.mockClear();
      expect(await versionNow()).toBe(first);
      expect(throughKysely).not.toHaveBeenCalled();
    } finally {
      await handle.close();
    }
  });

  // A transaction's own compiled statements (db/direct-statements.ts) run at once on the connection it holds, as
  // Kysely's driver would run them there: they see its writes, and a write compiled once is still seen by the
  // store's write watch (the data version moves). A read from outside meanwhile waits for the commit.
  it("runs a transaction's own compiled reads and writes at once, seeing its writes, while a read from outside waits", async () => {
    const { handle } = await migrated();
    const { db } = handle;
    try {
      const readVersion = (d: typeof db) => precompiled<{ version: number; unlogged_version: number }>(d, () => d.selectFrom('data_version').select(['version', 'unlogged_version']).where('id', '=', 1));
      const store = createStore(db, 'sqlite', (d) => ({
        version: readVersion(d),
        writes: precompiledValues(d, 'test'),
      }));
      const outside = readVersion(db);
      const before = (await outside(1))[0];
      const throughKysely = vi.spyOn(Kysely.prototype, 'executeQuery');
      const ran = (text: RegExp) => throughKysely.mock.calls.filter(([query]) => text.test((query as CompiledQuery).sql)).length;
      let duringWrite: Promise<number> | undefined;
      const seen = await store.transaction(async (repos) => {
        const setTitle = (id: number, title: string) => repos.writes('title', [title, id], () => db.updateTable('term').set({ name: title }).where('id', '=', id));
        const made = await repos.writes('insert', ['post_tag', 'Jazz', 'jazz', '', 0, 0], () =>
          db.insertInto('term').values({ taxonomy: 'post_tag', name: 'Jazz', slug: 'jazz', description: '', parent_id: 0, count: 0 }));
        const id = Number(made.insertId);
        await setTitle(id, 'Jazz once'); // built, then known
        await setTitle(id, 'Jazz twice'); // at once
        duringWrite = outside(1).then((rows) => rows[0].version);
        await nextTurn();
        return { id, version: (await repos.version(1))[0].version };
      });
      // Inside: the update ran through Kysely once (built), then at once; the transaction's read, at once.
      expect(ran(/^update "term"/)).toBe(1);
      expect(ran(/^select "version"/)).toBe(1); // the read from outside, which waited for the connection
      expect(seen.version).toBe(before.version);
      // The write watch saw the writes: the store moved the data version (one write, logged by nobody).
      const after = (await outside(1))[0];
      expect([await duringWrite, after.version, after.unlogged_version]).toEqual([before.version + 1, before.version + 1, before.version + 1]);
      expect((await db.selectFrom('term').select('name').where('id', '=', seen.id).executeTakeFirstOrThrow()).name).toBe('Jazz twice');
      throughKysely.mockRestore();
    } finally {
      await handle.close();
    }
  });

  // A statement that fails when it runs (not when it is prepared) fails a direct read as it fails through
  // Kysely: a rejected promise, never a throw out of the call, which a caller chaining `.catch` would miss.
  it('answers a compiled read that fails with a rejected promise, as Kysely does', async () => {
    const { handle } = await migrated();
    const { db } = handle;
    try {
      const broken = precompiled<{ value: unknown }>(db, () => db.selectNoFrom(sql<unknown>`json_extract('not json', '$')`.as('value')));
      let answer: Promise<unknown> | undefined;
      expect(() => {
        answer = broken();
      }).not.toThrow();
      await expect(answer).rejects.toThrow(/JSON/i);
      // Through Kysely (inside a transaction) it fails the same way.
      await expect(db.transaction().execute(async (trx) => precompiled(trx, () => trx.selectNoFrom(sql<unknown>`json_extract('not json', '$')`.as('value')))())).rejects.toThrow(/JSON/i);
    } finally {
      await handle.close();
    }
  });

  // The planner's statistics on SQLite are each index's summary (sqlite_stat1), never stat4's samples of values,
  // with which SQLite prepares a statement again at each run whenever a bound value could change its plan.
  it('gathers statistics as summaries only, and drops the samples an analysis without a limit left', async () => {
    const { handle, path } = await migrated();
    // Another tool (or an earlier version of this one) analyzes with no limit: samples are stored.
    const other = new SqliteDatabase(path);
    other.function('lower', { deterministic: true }, (text: unknown) => (text === null ? null : String(text).toLowerCase()));
    const insert = other.prepare(`insert into term (taxonomy, name, slug, description, parent_id, count) values ('post_tag', ?, ?, '', 0, 0)`);
    for (let i = 0; i < 300; i++) insert.run(`Tag ${i % 7}`, `tag-${i}`);
    other.exec('analyze');
    const samples = () => (other.prepare(`select count(*) as n from sqlite_schema where name = 'sqlite_stat4'`).get() as { n: number }).n > 0
      ? (other.prepare('select count(*) as n from sqlite_stat4').get() as { n: number }).n
      : 0;
    expect(samples()).toBeGreaterThan(0);

    other.exec('delete from sqlite_stat1');
    handle.optimize?.();
    expect(samples()).toBe(0);
    const summaries = other.prepare(`select idx from sqlite_stat1 where tbl = 'term'`).all() as Array<{ idx: string }>;
    expect(summaries.map((row) => row.idx)).toContain('term_taxonomy_lower_name_idx');
    other.close();
    await handle.close();
  });

  // better-sqlite3 builds SQLite with a 16 MB page cache (its deps/defines.gypi), where SQLite's own default is
  // 2 MB: at 2 MB creates on 100k events cost 3-19% more CPU (six pairs of runs), the index pages a create
  // touches having left the cache since the last one. A build of the driver without it would go unnoticed.
  it('keeps 16 MB of pages in its cache', async () => {
    const { handle } = await migrated();
    try {
      const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(handle.db);
      expect(rows).toEqual([{ cache_size: -16_000 }]);
    } finally {
      await handle.close();
    }
  });
});
