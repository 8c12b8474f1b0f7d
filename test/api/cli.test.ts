import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { migrations } from '../../src/db/migrations/index.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSchema } from '../helpers/spawn-service.ts';
import { sqliteRuns } from '../helpers/test-app.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'cal-events-cli-'));
const pgUrl = process.env.TEST_DATABASE_URL;
const schema = `cli_${process.pid}_${Date.now()}`;
// A PostgreSQL schema of the test's own, named in the URL the CLI gets (made before the tests run).
const own = pgUrl ? await postgresSchema(pgUrl, schema) : undefined;
const targets = [
  ...(sqliteRuns() ? [{ name: 'sqlite', url: `sqlite:${join(dir, 'cli.db')}` }] : []),
  ...(own ? [{ name: 'postgres', url: own.url }] : []),
];

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await own?.drop();
});

for (const target of targets) {
  // Each command is a new Node process: generous time on a loaded machine.
  describe(`cal-events CLI [${target.name}]`, { timeout: 90_000 }, () => {
    const env = { ...process.env, DATABASE_URL: target.url, LOG_LEVEL: 'silent' };
    const cli = (...args: string[]) => run('node', ['bin/cal-events.mjs', ...args], { env });

    it('migrates, adds, lists, resets and removes users', async () => {
      expect(JSON.parse((await cli('migrate')).stdout)).toEqual({ migrated: Object.keys(migrations).map((name) => `applied ${name}`) });
      expect(JSON.parse((await cli('migrate')).stdout)).toEqual({ migrated: [] });
      const added = JSON.parse((await cli('user', 'add', 'ed', '--role', 'editor', '--email', 'ed@x.test')).stdout);
      expect(added).toEqual({ id: expect.any(Number), login: 'ed', role: 'editor', password: expect.stringMatching(/^[A-Za-z0-9]{24}$/) });
      const listed = (await cli('user', 'list')).stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(listed).toEqual([expect.objectContaining({ login: 'ed', role: 'editor', email: 'ed@x.test' })]);
      const reset = JSON.parse((await cli('user', 'reset-password', 'ed')).stdout);
      expect(reset.password).not.toBe(added.password);
      expect(JSON.parse((await cli('user', 'remove', 'ed')).stdout)).toEqual({ id: added.id, login: 'ed', removed: true });
      expect((await cli('user', 'list')).stdout).toBe('');
    });

    it('exits 1 naming the problem for bad input', async () => {
      await expect(cli('user', 'add', 'x', '--role', 'emperor')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('invalid role') });
      await expect(cli('user', 'add', 'bad login!', '--role', 'editor')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('invalid login') });
      await expect(cli('user', 'add', 'x')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--role') });
      await expect(cli('user', 'remove', 'ghost')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('no user "ghost"') });
      await expect(cli('frobnicate')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('unknown command') });
      await expect(run('node', ['bin/cal-events.mjs', 'migrate'], { env: { ...env, CAL_TIMEZONE: 'Nowhere/Land', PORT: 'x' } }))
        .rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/PORT[\s\S]*CAL_TIMEZONE|CAL_TIMEZONE[\s\S]*PORT/) });
    });
  });
}
