import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSite, startFakeSite } from '../helpers/fake-tec-site.ts';
import { sqliteRuns } from '../helpers/test-app.ts';

const execute = promisify(execFile);

/** The command as a user runs it: its exit code, its one-line JSON summary on stdout, failures on stderr. */
async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execute('node', ['bin/cal-events.mjs', 'import', ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// Each run is a new Node process: generous time on a loaded machine. The database is SQLite: what is under
// test is the command (its exit codes and output), the write path is tested on both databases in import.test.ts.
describe.runIf(sqliteRuns())('cal-events import, the command', { timeout: 90_000 }, () => {
  // Made when the tests run, not when they are collected: a skipped suite runs no hook to remove it.
  let dir: string;
  let env: Record<string, string>;
  let site: FakeSite;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cal-import-cli-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'cal.db')}`, LOG_LEVEL: 'silent' };
    site = await startFakeSite({ venues: 3, events: 6 });
  });
  afterAll(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 with a JSON summary when everything came in, and 1 listing each failure when anything failed', async () => {
    const clean = await cli([site.root], env);
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout.trim().split('\n').at(-1) as string)).toMatchObject({
      dry_run: false, events: { created: 6, updated: 0, unchanged: 0, failed: 0 }, venues: { created: 3 },
    });

    site.records.events[2] = { ...site.records.events[2], end_date: 'not a date', modified_utc: '2026-12-24 10:00:00' };
    const failing = await cli([site.root], env);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/^failed: events http:\/\/fake\.test\/event\/event-2\/: .*end_date/m);
    expect(JSON.parse(failing.stdout.trim().split('\n').at(-1) as string).events).toEqual({ created: 0, updated: 0, unchanged: 5, failed: 1 });
  });

  it('exits 1 with a message, writing nothing, for a source that is not a TEC API or a bad option', async () => {
    const elsewhere = { ...env, DATABASE_URL: `sqlite:${join(dir, 'other.db')}` };
    const notTec = await cli([site.root.replace('/wp-json/tribe/events/v1', '/nothing')], elsewhere);
    expect(notTec.code).toBe(1);
    expect(notTec.stderr).toMatch(/^cal-events: .* is not a The Events Calendar API/m);
    expect(notTec.stdout).toBe('');
    const badSince = await cli([site.root, '--since', 'soonish'], elsewhere);
    expect(badSince.code).toBe(1);
    expect(badSince.stderr).toMatch(/--since "soonish" is not a date/);
    const missing = await cli(['--ics', join(dir, 'missing.ics')], elsewhere);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read the calendar/);
  });

  it('imports a calendar file\'s recurring event as a series, and ends by itself', async () => {
    // The series is expanded on a worker thread, which held the process open after its first answer: the
    // command printed its summary and never ended (this test then fails on the suite's 90 s).
    const file = join(dir, 'weekly.ics');
    writeFileSync(file, ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'BEGIN:VEVENT', 'UID:weekly-1@test', 'DTSTAMP:20261101T000000Z',
      'DTSTART:20270105T190000Z', 'DTEND:20270105T200000Z', 'RRULE:FREQ=WEEKLY;COUNT=5', 'SUMMARY:Weekly', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
    const database = join(dir, 'weekly.db');
    const run = await cli(['--ics', file], { ...env, DATABASE_URL: `sqlite:${database}` });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1) as string).events).toEqual({ created: 1, updated: 0, unchanged: 0, failed: 0 });
    const db = new SqliteDatabase(database, { readonly: true });
    try {
      expect((db.prepare(`select count(*) as n from event where title = 'Weekly'`).get() as { n: number }).n).toBe(5);
    } finally {
      db.close();
    }
  });
});

// Two import processes on one PostgreSQL at once: the lineage table's key makes the loser of each race
// write that page again and find the winner's records, so every source record is made once.
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  describe('cal-events import, two processes at once on PostgreSQL', { timeout: 90_000 }, () => {
    const schema = `import_cli_${process.pid}_${Date.now()}`;
    const admin = async (text: string) => {
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      try {
        return (await client.query(text)).rows;
      } finally {
        await client.end();
      }
    };
    let site: FakeSite;
    beforeAll(async () => {
      site = await startFakeSite({ venues: 12, events: 120 });
      await admin(`create schema ${schema}`);
    });
    afterAll(async () => {
      await site.close();
      await admin(`drop schema ${schema} cascade`);
    });

    it('makes every venue, organizer, term and event once, with the right term counts', async () => {
      const env = { DATABASE_URL: `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`, LOG_LEVEL: 'silent' };
      // The schema is migrated first: two processes migrating an empty schema at once is another race (the migrator's lock).
      expect((await cli(['--dry-run', site.root], env)).code).toBe(0);
      const runs = await Promise.all([cli([site.root], env), cli([site.root], env)]);
      for (const run of runs) expect([run.code, run.stderr]).toEqual([0, expect.not.stringMatching(/failed:/)]);
      const summaries = runs.map((run) => JSON.parse(run.stdout.trim().split('\n').at(-1) as string));
      expect(summaries[0].events.created + summaries[1].events.created).toBe(120);
      const [counts] = await admin(`select (select count(*)::int from ${schema}.event) as events, (select count(*)::int from ${schema}.venue) as venues,
        (select count(*)::int from ${schema}.organizer) as organizers, (select count(*)::int from ${schema}.term) as terms`);
      expect(counts).toEqual({ events: 120, venues: 12, organizers: 1, terms: 3 });
      const terms = await admin(`select slug, count from ${schema}.term order by slug`);
      expect(terms).toEqual([{ slug: 'jazz', count: 120 }, { slug: 'music', count: 0 }, { slug: 'outdoor', count: 120 }]);
    });
  });
}
