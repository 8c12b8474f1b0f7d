import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/spawn-service.ts';
import { sqliteRuns } from '../helpers/test-app.ts';

// Made when the tests run, not when they are collected: a skipped suite runs no hook to remove it.
let dir: string;

function start(env: Record<string, string>): { child: ChildProcess; output: () => string; ready: Promise<void> } {
  const child = spawn('node', ['bin/cal-events.mjs', 'serve'], { env: { ...process.env, ...env } });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Server listening')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { child, output: () => output, ready };
}

describe.runIf(sqliteRuns())('cal-events serve', { timeout: 90_000 }, () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cal-events-serve-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('creates its SQLite file, prints the admin password once, serves, and stops cleanly on SIGTERM', async () => {
    const port = String(await freePort());
    const env = { PORT: port, HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'nested', 'cal.db')}` };
    const server = start(env);
    await server.ready;
    const password = /application password: ([A-Za-z0-9]{24})/.exec(server.output())?.[1];
    expect(password).toBeDefined();
    expect(server.output()).not.toContain('authorization');

    // The start's background work (storing event texts: none here) shows in /readyz once done.
    let ready: { status?: string; background?: { event_texts?: { state: string } } } = {};
    for (let tries = 0; tries < 100 && ready.background?.event_texts?.state !== 'done'; tries++) {
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      ready = await (await fetch(`http://127.0.0.1:${port}/readyz`)).json();
    }
    expect(ready).toMatchObject({ status: 'ready', background: { event_texts: { state: 'done', count: 0 } } });

    const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
    const created = await fetch(`http://127.0.0.1:${port}/cal/events/v1/venues`, {
      method: 'POST', headers: { authorization: auth, 'content-type': 'application/json', origin: 'https://site.test' },
      body: JSON.stringify({ venue: 'Live' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('access-control-allow-origin')).toBe('*');
    const list = await fetch(`http://127.0.0.1:${port}/cal/events/v1/venues?password=hunter2`, { headers: { origin: 'https://site.test' } });
    expect(list.headers.get('access-control-expose-headers')).toContain('X-TEC-Total');
    expect((await list.json()).total).toBe(1);
    const big = await fetch(`http://127.0.0.1:${port}/cal/events/v1/venues`, {
      method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ venue: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(big.status).toBe(413);
    expect((await big.json()).data.status).toBe(413);

    const exited = new Promise<number | null>((resolve) => server.child.on('exit', resolve));
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(server.output()).not.toContain('hunter2');
    // One access line per request, flushed on the way out, with the password parameter masked.
    expect(server.output()).toContain('"req":{"method":"GET","url":"/cal/events/v1/venues?password=***"},"status":200');
    expect(server.output()).toContain('"req":{"method":"POST","url":"/cal/events/v1/venues"},"status":413');
    expect(server.output().match(/application password/g)).toHaveLength(1);

    const again = start({ ...env });
    await again.ready;
    expect(again.output()).not.toContain('application password');
    again.child.kill('SIGTERM');
    await new Promise((resolve) => again.child.on('exit', resolve));
  });

  it('writes no access line with CAL_ACCESS_LOG=off, and keeps its other info lines', async () => {
    const port = String(await freePort());
    const server = start({ PORT: port, HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'quiet.db')}`, CAL_ACCESS_LOG: 'off' });
    await server.ready;
    expect((await fetch(`http://127.0.0.1:${port}/cal/events/v1/venues`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/cal/events/v1/nowhere`)).status).toBe(404);
    const exited = new Promise<number | null>((resolve) => server.child.on('exit', resolve));
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The lines are JSON (stdout is no terminal here); the start's are there, no request's.
    expect(server.output()).toContain('"level":30');
    expect(server.output()).toContain('Server listening');
    expect(server.output()).not.toContain('"msg":"request"');
    expect(server.output()).not.toContain('/cal/events/v1/');
  });

  it('goes on serving when whatever reads its log goes away (its standard output closed: EPIPE)', async () => {
    const port = String(await freePort());
    const server = start({ PORT: port, HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'no-reader.db')}` });
    await server.ready;
    // The log's reader (a collector, `| head`) ends: every line written from now on meets a closed pipe.
    server.child.stdout?.destroy();
    for (let i = 0; i < 300; i++) expect((await fetch(`http://127.0.0.1:${port}/cal/events/v1/venues?n=${i}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // past the log's one-second flush
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => server.child.on('exit', resolve));
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('ends a stop that cannot finish after 10 s, with exit code 1', async () => {
    const port = String(await freePort());
    const server = start({ PORT: port, HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'stuck.db')}` });
    await server.ready;
    // A request whose body never comes: the stop waits for it (the request timeout is 30 s).
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    // `Expect: 100-continue`: the service says it has read the head, so the stop cannot come before the request.
    const continued = new Promise((resolve) => socket.once('data', resolve));
    socket.write('POST /cal/events/v1/venues HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n');
    expect(String(await continued)).toMatch(/^HTTP\/1\.1 100 Continue/);
    socket.write('{');
    const exited = new Promise<number | null>((resolve) => server.child.on('exit', resolve));
    const asked = Date.now();
    server.child.kill('SIGTERM');
    expect(await exited).toBe(1);
    expect(Date.now() - asked).toBeGreaterThanOrEqual(9_500);
    expect(Date.now() - asked).toBeLessThan(20_000);
    expect(server.output()).toContain('SIGTERM: not finished within 10 s, exiting now');
    socket.destroy();
  });

  it('exits 1 naming a bad setting', async () => {
    const server = start({ CAL_TIMEZONE: 'Atlantis/Capital', CAL_ACCESS_LOG: 'quiet', PORT: '1' });
    await expect(server.ready).rejects.toThrow(/exited 1[\s\S]*CAL_TIMEZONE/);
    expect(server.output()).toContain('CAL_ACCESS_LOG');
  });
});
