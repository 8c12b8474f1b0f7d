import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSite, startFakeSite } from '../helpers/fake-tec-site.ts';

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
describe('cal-events import, the command', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'cal-import-cli-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'cal.db')}`, LOG_LEVEL: 'silent' };
  let site: FakeSite;
  beforeAll(async () => {
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
});
