import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { adminAuth, postgresSchema, startService } from '../helpers/spawn-service.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const WRITERS = 8;

async function create(base: string, i: number): Promise<number | undefined> {
  try {
    const response = await fetch(`${base}/cal/events/v1/events`, {
      method: 'POST',
      headers: { ...adminAuth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Crash ${i}`, start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00', categories: ['Crash'], venue: { venue: `Hall ${i % 5}` } }),
    });
    return response.status === 201 ? ((await response.json()) as { id: number }).id : undefined;
  } catch {
    return undefined; // cut off by the kill: not acknowledged
  }
}

/** Writers creating events until the service dies under them; the ids it acknowledged (201) before. */
async function writeUntilKilled(base: string, kill: () => Promise<void>): Promise<number[]> {
  const acknowledged: number[] = [];
  let n = 0;
  let alive = true;
  const writer = async () => {
    while (alive) {
      const id = await create(base, n++);
      if (id !== undefined) acknowledged.push(id);
      else if (!alive) return;
    }
  };
  const writers = Array.from({ length: WRITERS }, writer);
  // Killed once 30 writes are acknowledged (not after a fixed time: a loaded machine's cold process may make
  // fewer), with the writers still writing.
  for (const deadline = Date.now() + 60_000; acknowledged.length < 30 && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  alive = false;
  await kill();
  await Promise.all(writers);
  return acknowledged;
}

// kill -9 of the service under write load: every write it acknowledged is there after a restart, and the
// database is whole (integrity, term counts equal to the links, no event pointing at a missing venue).
describe('kill -9 under write load', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'cal-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const consistencySql = [
    `select count(*) as n from term t where t.count <> (select count(*) from event_term et join event e on e.id = et.event_id where et.term_id = t.id and e.status = 'publish')`,
    `select count(*) as n from event e where e.venue_id is not null and not exists (select 1 from venue v where v.id = e.venue_id)`,
  ];

  it('on SQLite', async () => {
    const file = join(dir, 'crash.db');
    const service = await startService({ DATABASE_URL: `sqlite:${file}` });
    const acknowledged = await writeUntilKilled(service.url, () => service.kill());
    expect(acknowledged.length).toBeGreaterThanOrEqual(30);
    const restarted = await startService({ DATABASE_URL: `sqlite:${file}` });
    try {
      for (const id of acknowledged) expect((await fetch(`${restarted.url}/cal/events/v1/events/${id}`)).status).toBe(200);
    } finally {
      await restarted.stop();
    }
    const db = new SqliteDatabase(file, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      for (const query of consistencySql) expect((db.prepare(query).get() as { n: number }).n).toBe(0);
    } finally {
      db.close();
    }
  });

  if (pgUrl) {
    it('on PostgreSQL', async () => {
      const schema = await postgresSchema(pgUrl, `crash_${process.pid}_${Date.now()}`);
      try {
        const service = await startService({ DATABASE_URL: schema.url });
        const acknowledged = await writeUntilKilled(service.url, () => service.kill());
        expect(acknowledged.length).toBeGreaterThanOrEqual(30);
        const restarted = await startService({ DATABASE_URL: schema.url });
        try {
          for (const id of acknowledged) expect((await fetch(`${restarted.url}/cal/events/v1/events/${id}`)).status).toBe(200);
        } finally {
          await restarted.stop();
        }
        const client = new pg.Client({ connectionString: schema.url });
        await client.connect();
        try {
          for (const query of consistencySql) expect(Number((await client.query(query)).rows[0].n)).toBe(0);
        } finally {
          await client.end();
        }
      } finally {
        await schema.drop();
      }
    });
  }
});
