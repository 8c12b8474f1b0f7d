import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openBenchDatabase, openKeptDatabase } from '../../bench/database.ts';
import { reuseCalendar, seedCalendar } from '../../bench/seed.ts';
import { createUserRepository } from '../../src/users/user.repository.ts';
import { createUserService } from '../../src/users/user.service.ts';

// `npm run bench -- --reuse <dir>`: a kept folder's database is opened again, its events counted, and the bench
// user given a password that signs in (the one the seed printed is gone with its run).
describe('bench: a kept database reused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cal-bench-reuse-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts what the seed wrote and signs the bench user in with a new password', async () => {
    const fresh = await openBenchDatabase(undefined, dir);
    const seeded = await seedCalendar(fresh.handle, 30, () => {});
    await fresh.handle.close();

    const kept = await openKeptDatabase(dir);
    try {
      const reused = await reuseCalendar(kept.handle);
      // The seed's series add occurrences: at least the 30 asked for, as many as the table holds.
      const { count } = await kept.handle.db.selectFrom('event').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      expect(reused.events).toBe(Number(count));
      expect(reused.events).toBeGreaterThanOrEqual(30);
      expect(reused.seconds).toBe(0);
      expect(reused.user.login).toBe('bench');
      expect(reused.user.password).not.toBe(seeded.user.password);
      const users = createUserService(createUserRepository(kept.handle.db));
      expect((await users.authenticate(reused.user.password, 'bench'))?.id).toBe(seeded.user.id);
      expect(await users.authenticate(seeded.user.password, 'bench')).toBeNull();
    } finally {
      await kept.handle.close();
    }
  });

  it('refuses a folder without a kept database', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'cal-bench-reuse-empty-'));
    try {
      await expect(openKeptDatabase(empty)).rejects.toThrow(/no bench.db there/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
