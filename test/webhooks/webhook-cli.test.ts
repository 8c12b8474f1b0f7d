import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteRuns } from '../helpers/test-app.ts';

const execute = promisify(execFile);

// Each command is a new Node process: generous time on a loaded machine. SQLite: what is under test is the
// command; the subscriptions' behaviour is tested through the API on both databases.
describe.runIf(sqliteRuns())('cal-events webhook, the command', { timeout: 90_000 }, () => {
  // Made when the tests run, not when they are collected: a skipped suite runs no hook to remove it.
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cal-webhook-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cli = async (args: string[], env: Record<string, string> = {}) => {
    const all = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'cal.db')}`, LOG_LEVEL: 'silent', ...env };
    try {
      const { stdout, stderr } = await execute('node', ['bin/cal-events.mjs', 'webhook', ...args], { env: all });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  it('adds (secret shown once), lists, re-enables and removes subscriptions', async () => {
    const added = await cli(['add', 'http://127.0.0.1:9/hook', '--kinds', 'event,venue', '--actions', 'create'], { CAL_WEBHOOKS_ALLOW_PRIVATE: 'on' });
    expect(added.code).toBe(0);
    const hook = JSON.parse(added.stdout);
    expect(hook).toMatchObject({ url: 'http://127.0.0.1:9/hook', kinds: ['event', 'venue'], actions: ['create'], enabled: true, secret: expect.stringMatching(/^whsec_/) });
    const listed = (await cli(['list'])).stdout.trim().split('\n').map((line) => JSON.parse(line));
    const { secret: _secret, ...shown } = hook;
    expect(listed).toEqual([shown]); // the secret is not shown again
    expect(JSON.parse((await cli(['enable', String(hook.id)])).stdout).enabled).toBe(true);
    expect((await cli(['remove', String(hook.id)])).code).toBe(0);
    expect((await cli(['list'])).stdout).toBe('');
  });

  it('exits 1 with a message for a bad kind, a private target or a missing id', async () => {
    const badKind = await cli(['add', 'https://example.org/hook', '--kinds', 'place']);
    expect([badKind.code, badKind.stderr]).toEqual([1, expect.stringMatching(/^cal-events: --kinds takes event, venue, organizer, category, tag \(got "place"\)/)]);
    const loopback = await cli(['add', 'http://127.0.0.1:9/hook']);
    expect([loopback.code, loopback.stderr]).toEqual([1, expect.stringMatching(/^cal-events: .*private or loopback address/)]);
    const noId = await cli(['remove']);
    expect([noId.code, noId.stderr]).toEqual([1, expect.stringMatching(/needs the subscription's id/)]);
  });
});
