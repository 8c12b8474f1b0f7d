import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { requestArrived } from '../../src/db/read-generation.ts';
import { createStore } from '../../src/db/store.ts';
import { adminAuth, postgresSchema, SERVICE_START_MS, startService, type ServiceProcess } from '../helpers/spawn-service.ts';
import { API, sqliteRuns, testConfig } from '../helpers/test-app.ts';

/** Sends one request on a kept-alive connection and reads its answer (Content-Length bodies only). */
function exchange(socket: Socket, path: string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const head = received.indexOf('\r\n\r\n');
      if (head < 0) return;
      const headers = received.subarray(0, head).toString();
      const length = Number(/content-length: (\d+)/i.exec(headers)?.[1]);
      if (received.length < head + 4 + length) return;
      socket.off('data', onData);
      resolve({ status: Number(headers.split(' ')[1]), json: JSON.parse(received.subarray(head + 4, head + 4 + length).toString()) });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    // Written at once into the server's socket (loopback): the request is there before this call returns.
    socket.write(`GET ${API}${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
  });
}

// Two services on one database; a client renames an event through one and then reads it from the other.
// CI once saw the old title on SQLite: the reading service had begun a read in a timer (its webhook
// dispatcher's tick), and its snapshot, kept until the end of that turn of the event loop, answered the
// request that arrived in the same turn, sent after the rename was acknowledged (db/read-generation.ts). This
// does the same on purpose, in order: the read in a timer, the rename acknowledged, the request sent, all
// before the poll. On PostgreSQL the same order passes without the fix (the data version read in the timer
// is let go at the end of the turn its answer arrives in, before the request's poll): there it stands as the
// check through HTTP of two services, and the store-level test below forces that database's case.
const pgUrl = process.env.TEST_DATABASE_URL;
const targets = [
  ...(sqliteRuns() ? [{ name: 'one SQLite file', dialect: 'sqlite' }] : []),
  ...(pgUrl !== undefined ? [{ name: 'one PostgreSQL schema', dialect: 'postgres' }] : []),
];
describe.each(targets)('a read begun before a request arrives, on $name shared by two processes', { timeout: 60_000 }, ({ dialect }) => {
  const folder = mkdtempSync(join(tmpdir(), 'cal-stale-'));
  let schema: Awaited<ReturnType<typeof postgresSchema>> | undefined;
  let other: ServiceProcess;
  let database: DbHandle;
  let app: FastifyInstance;
  let socket: Socket;
  beforeAll(async () => {
    schema = dialect === 'postgres' ? await postgresSchema(pgUrl as string, `stale_http_${process.pid}_${Date.now()}`) : undefined;
    const url = schema?.url ?? `sqlite:${join(folder, 'cal.db')}`;
    other = await startService({ DATABASE_URL: url }); // migrates the database
    database = createDb(url);
    app = await buildApp({ config: testConfig({ DATABASE_URL: url }), database, logger: false });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    socket = connect(Number(new URL(address).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
  }, SERVICE_START_MS);
  afterAll(async () => {
    socket?.destroy();
    await app?.close();
    await database?.close();
    await other?.stop();
    await schema?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('is not what answers a request sent after another process acknowledged a write', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${other.url}${API}${path}`, { method: 'POST', headers: { ...adminAuth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const made = await (await post('/events', { title: 'Before', start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' })).json();
    // Read once through this service, so that it keeps the event too.
    expect((await exchange(socket, `/events/${made.id}`)).json.title).toBe('Before');

    for (let round = 1; round <= 3; round++) {
      const title = `Renamed ${round}`;
      const answered = await new Promise<{ status: number; json: any }>((resolve, reject) => {
        setTimeout(async () => {
          try {
            // What the webhook dispatcher's tick does: a read in the timers phase opens the shared snapshot.
            await database.db.selectFrom('data_version').select('version').execute();
            // The rename, acknowledged by the other process while this one waits (synchronously: no turn ends).
            execFileSync(process.execPath, ['-e', `
              fetch(${JSON.stringify(`${other.url}${API}/events/${made.id}`)}, {
                method: 'POST', headers: ${JSON.stringify({ ...adminAuth, 'content-type': 'application/json' })},
                body: ${JSON.stringify(JSON.stringify({ title }))},
              }).then((r) => { if (r.status !== 200) process.exit(1); });
            `]);
            exchange(socket, `/events/${made.id}`).then(resolve, reject);
          } catch (error) {
            reject(error);
          }
        }, 1);
      });
      expect(answered.status).toBe(200);
      expect(answered.json.title).toBe(title);
    }
  });
});

// PostgreSQL has no shared snapshot, but the data version read once serves the rest of the turn its answer
// arrives in (db/store.ts), and a request arriving in that turn must not be answered from it. Another process
// commits through psql, synchronously, so that no turn ends between the first read and the second.
describe.runIf(pgUrl !== undefined)('the data version read before a batch of requests arrives, on PostgreSQL', () => {
  it('is read again for the batch, though its turn has not ended', async () => {
    const schema = await postgresSchema(pgUrl as string, `stale_${process.pid}_${Date.now()}`);
    const handle = createDb(schema.url);
    try {
      await migrateToLatest(handle.db);
      const store = createStore(handle.db, 'postgres', () => ({}));
      const first = await store.dataVersion();
      execFileSync('psql', [schema.url, '-qc', 'update data_version set version = version + 100 where id = 1']);
      expect(await store.dataVersion()).toBe(first); // the same turn, no request: kept
      requestArrived();
      expect(await store.dataVersion()).toBe(first + 100);
    } finally {
      await handle.close();
      await schema.drop();
    }
  });
});
