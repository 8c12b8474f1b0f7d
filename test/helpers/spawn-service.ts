import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import pg from 'pg';

export const ADMIN_PASSWORD = 'test-admin-password-123';
export const adminAuth = { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` };

/** A port no one listens on now (the system's choice, so outside what the tests' own sockets are given). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** `work` with a client of its own on the PostgreSQL server at `url`, closed after. */
export async function withPgClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A PostgreSQL URL whose connections use a schema of their own (made now), and how to drop it. */
export async function postgresSchema(url: string, name: string) {
  const admin = (text: string) => withPgClient(url, async (client) => void (await client.query(text)));
  await admin(`create schema ${name}`);
  return {
    url: `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${name}`)}`,
    drop: () => admin(`drop schema ${name} cascade`),
  };
}

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** SIGKILL: no clean shutdown, as a crash. */
  kill(): Promise<void>;
  stop(): Promise<void>;
  /** What it has written to its standard output so far: its log (LOG_LEVEL `warn` unless set). */
  log(): string;
}

/**
 * How long a service process may take to answer after it is spawned. A hook that starts some needs as many
 * times this for its timeout: the hooks' default (20 s) ran out on a loaded machine with two to start.
 */
export const SERVICE_START_MS = 60_000;

/** `cal-events serve` as its own process on a free port, with an administrator `admin` (ADMIN_PASSWORD). */
export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/cal-events.mjs', 'serve'], {
    // Rate limits off unless asked for: these tests load one service from one address on purpose.
    env: { ...process.env, LOG_LEVEL: 'warn', CAL_ADMIN_PASSWORD: ADMIN_PASSWORD, CAL_RATE_LIMIT: 'off', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + SERVICE_START_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`${url}/cal/events/v1`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the service did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ended = () => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit').then(() => undefined));
  return {
    url,
    child,
    log: () => stdout,
    kill: async () => {
      child.kill('SIGKILL');
      await ended();
    },
    stop: async () => {
      child.kill('SIGTERM');
      await ended();
    },
  };
}
