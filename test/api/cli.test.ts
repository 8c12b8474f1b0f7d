import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

// A database the command cannot open: one line naming it (without its password) and why, exit 1, no stack.
describe('cal-events CLI: a database it cannot open', { timeout: 90_000 }, () => {
  const fails = (url: string, ...args: string[]) =>
    run('node', ['bin/cal-events.mjs', ...args], { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent', PORT: '0' } }).then(
      () => { throw new Error(`${args.join(' ')} succeeded on ${url}`); },
      (error: { code: number; stderr: string }) => error,
    );

  it('a PostgreSQL server that does not answer, for every command that opens it', async () => {
    for (const args of [['migrate'], ['user', 'list'], ['serve'], ['webhook', 'list']]) {
      const { code, stderr } = await fails('postgres://someone:s3cret@127.0.0.1:1/test', ...args);
      expect([args.join(' '), code]).toEqual([args.join(' '), 1]);
      expect(stderr).toBe('cal-events: cannot open the database postgres://someone:***@127.0.0.1:1/test: connect ECONNREFUSED 127.0.0.1:1\n');
    }
  });

  it('a SQLite file that cannot be made', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const { code, stderr } = await fails(`sqlite:${file}/cal.db`, 'migrate');
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^cal-events: cannot open the database sqlite:${file}/cal.db: .+\\n$`));
    expect(stderr).not.toContain('    at ');
  });
});
