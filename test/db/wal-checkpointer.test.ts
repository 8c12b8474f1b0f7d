import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { startCheckpointer } from '../../src/db/wal-checkpointer.ts';
import { runModule } from '../helpers/run-module.ts';

const until = async (done: () => boolean, ms = 5000) => {
  for (const deadline = Date.now() + ms; !done(); await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
  }
};

// The service copies SQLite's write-ahead log back into the database from a worker thread (db/wal-checkpointer.ts),
// which reads how many pages wait from the wal-index header in the -shm file.
describe('SQLite: the write-ahead log is checkpointed in the background', () => {
  let folder: string;
  let path: string;
  let handle: DbHandle;
  const checkpoints: number[] = [];
  const failures: Error[] = [];
  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'cal-wal-'));
    path = join(folder, 'cal.db');
    handle = createDb(`sqlite:${path}`);
    await sql`create table note (id integer primary key, body text not null)`.execute(handle.db);
    checkpoints.length = 0;
    failures.length = 0;
    alive.length = 0;
  });
  afterEach(async () => {
    await handle.close();
    rmSync(folder, { recursive: true, force: true });
  });

  // One commit each: every one appends at least one page (frame) to the log.
  const write = async (count: number) => {
    for (let i = 0; i < count; i++) await handle.db.insertInto('note' as never).values({ body: 'x'.repeat(300) } as never).execute();
  };
  const alive: boolean[] = [];
  const start = (frames: number, idleMs?: number) =>
    handle.checkpointInBackground?.({
      frames, intervalMs: 5, idleMs,
      checkpointed: (copied) => checkpoints.push(copied), working: (up) => alive.push(up), failed: (error) => failures.push(error),
    });

  /** The wal-index header at the start of the -shm file: pages in the log, and how many are copied back. */
  const walIndex = () => {
    const header = readFileSync(`${path}-shm`).subarray(0, 100);
    return { frames: header.readUInt32LE(16), copied: header.readUInt32LE(96) };
  };
  const framesWaiting = () => walIndex().frames - walIndex().copied;

  it('waits until the pages written pass its threshold, then copies them back', async () => {
    start(100);
    await write(60); // ~60 frames: under the threshold
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(checkpoints).toEqual([]);
    expect(framesWaiting()).toBeGreaterThanOrEqual(60);
    expect(framesWaiting()).toBeLessThan(100);

    await write(60);
    await until(() => checkpoints.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 50)); // any checkpoint begun during the writes ends
    expect(checkpoints[0]).toBeGreaterThanOrEqual(100);
    // What the header says is what SQLite says: another connection's checkpoint finds as many pages in the
    // log, those the worker copied copied, and copies the few written while the worker copied.
    const before = walIndex();
    expect(before.copied).toBe(checkpoints.at(-1));
    const other = new SqliteDatabase(path);
    const [{ log, checkpointed }] = other.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
    other.close();
    expect(log).toBe(before.frames);
    expect(checkpointed).toBe(log);
    expect(failures).toEqual([]);
  });

  it('keeps the log small under writes: copied back, it starts over instead of growing', async () => {
    start(1);
    for (let round = 0; round < 5; round++) {
      await write(150);
      await until(() => framesWaiting() === 0);
    }
    // 750 commits of at least one 4 kB page each: a log never started over would hold them all.
    expect(statSync(`${path}-wal`).size).toBeLessThan((750 * (4096 + 24)) / 2);
    expect(failures).toEqual([]);
    const [{ count }] = (await handle.db.selectFrom('note' as never).select(sql<number>`count(*)`.as('count')).execute()) as Array<{ count: number }>;
    expect(count).toBe(750);
  });

  it('starts its thread when pages wait and ends it once idle, again and again', async () => {
    start(20, 100);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(alive).toEqual([]); // nothing written: no thread
    for (let round = 1; round <= 2; round++) {
      await write(30);
      await until(() => checkpoints.length === round);
      expect(alive.at(-1)).toBe(true);
      await until(() => alive.at(-1) === false);
    }
    expect(alive).toEqual([true, false, true, false]);
    expect(framesWaiting()).toBe(0);
    expect(failures).toEqual([]);
  });

  it('stops with the database: closed, the last connection removes the log', async () => {
    start(10);
    await write(30);
    await until(() => checkpoints.length > 0);
    await handle.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    handle = createDb(`sqlite:${path}`); // for afterEach
  });

  it('reports a log it cannot read and leaves the copying to SQLite, without stopping the service', async () => {
    const reported: Error[] = [];
    const checkpointer = startCheckpointer(join(folder, 'no-such.db'), { failed: (error) => reported.push(error) });
    expect(reported.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['ENOENT']);
    await checkpointer.stop();
  });

  it('reports a worker that fails once, and leaves the copying to SQLite a while instead of starting it again and again', async () => {
    // A wal-index that says 5,000 pages wait, beside no database: the worker's connection cannot open.
    const lonely = join(folder, 'gone.db');
    const header = Buffer.alloc(136);
    header.writeUInt32LE(5000, 16);
    writeFileSync(`${lonely}-shm`, header);
    const reported: Error[] = [];
    const starts: boolean[] = [];
    const checkpointer = startCheckpointer(lonely, { frames: 10, intervalMs: 5, failed: (error) => reported.push(error), working: (up) => starts.push(up) });
    await until(() => reported.length > 0 && starts.at(-1) === false);
    await new Promise((resolve) => setTimeout(resolve, 200)); // forty looks more
    expect(reported).toHaveLength(1);
    expect(starts).toEqual([true, false]);
    await checkpointer.stop();
  });

  it('does not keep a process alive: one that has checkpointed and has nothing left to do ends', async () => {
    // Its worker idles for a minute before it is ended; the process must not wait for that (it did, the
    // worker's message listener holding it). The script leaves the database open on purpose.
    const script = `const { createDb } = await import(${JSON.stringify(new URL('../../src/db/create-db.ts', import.meta.url).href)});
      const handle = createDb(${JSON.stringify(`sqlite:${join(folder, 'alone.db')}`)});
      await handle.db.schema.createTable('note').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('body', 'text').execute();
      let copied = 0;
      handle.checkpointInBackground({ frames: 20, intervalMs: 5, idleMs: 60_000, checkpointed: (n) => (copied += n) });
      for (let i = 0; i < 50; i++) await handle.db.insertInto('note').values({ body: 'x'.repeat(300) }).execute();
      while (copied === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      console.log('checkpointed', copied > 0);`;
    // Killed, and so failed, if it has not ended within 30 s.
    expect((await runModule(script)).trim()).toBe('checkpointed true');
  }, 40_000);

  it('is not offered for a database in memory, which has no log', () => {
    const memory = createDb('sqlite::memory:');
    expect(memory.checkpointInBackground).toBeUndefined();
    return memory.close();
  });
});
