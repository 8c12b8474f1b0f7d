import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';

// Every transaction on SQLite is a write (db/store.ts). Begun deferred, one that read before it wrote failed
// at its first write, at once and whatever the busy timeout, when another process had committed since its
// read (SQLITE_BUSY_SNAPSHOT): two processes editing one series on a loaded machine ran out of retries and
// answered 500. Begun immediate, it takes the write lock first, waiting for it as long as the busy timeout.
describe('SQLite: a transaction holds the write lock from its start', () => {
  const folder = mkdtempSync(join(tmpdir(), 'cal-lock-'));
  const path = join(folder, 'cal.db');
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('so another process cannot commit between its reads and its writes', async () => {
    const handle = createDb(`sqlite:${path}`);
    await migrateToLatest(handle.db);
    // Another process, as the service's second one: it does not wait for locks.
    const other = new SqliteDatabase(path, { timeout: 0 });
    const otherWrite = () => other.prepare('update data_version set version = version + 100 where id = 1').run();
    try {
      const seen = await handle.db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('data_version').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
        // Deferred, this write of the other process committed, and the update below failed with SQLITE_BUSY_SNAPSHOT.
        expect(otherWrite).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
        await trx.updateTable('data_version').set({ version: before.version + 1 }).where('id', '=', 1).execute();
        return before.version;
      });
      expect((await handle.db.selectFrom('data_version').select('version').executeTakeFirstOrThrow()).version).toBe(seen + 1);
      // Once it has committed, the other process writes.
      otherWrite();
      expect((await handle.db.selectFrom('data_version').select('version').executeTakeFirstOrThrow()).version).toBe(seen + 101);
    } finally {
      other.close();
      await handle.close();
    }
  });
});
