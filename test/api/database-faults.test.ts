import { randomBytes } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { databaseUnavailable } from '../../src/db/unavailable.ts';
import { createDb, type CreateDbOptions, type DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { openDatabase } from '../../src/db/open.ts';
import { createUserRepository } from '../../src/users/user.repository.ts';
import { createUserService } from '../../src/users/user.service.ts';
import { adminAuth, postgresSchema, SERVICE_START_MS, startService } from '../helpers/spawn-service.ts';
import { API, openTestDatabase, testConfig } from '../helpers/test-app.ts';

// A database that cannot serve (down, restarting, full, locked) is no fault of the request's and no bug of
// ours: every route that needs it answers 503 `rest_database_unavailable` with Retry-After, in the contract's
// shape (or the site's page), stores nothing, and the process stays alive and answers again once it can.
const UNAVAILABLE = { code: 'rest_database_unavailable', message: 'The database is not available right now; try again shortly.', data: { status: 503 } };
const event = (description = 'A plain event.') => ({ title: 'Fault line', description, start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 12:00:00' });

describe('a database that cannot serve [sqlite]: its disk full', () => {
  let database: DbHandle;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let headers: Record<string, string>;
  beforeEach(async () => {
    database = await openTestDatabase('sqlite');
    await migrateToLatest(database.db);
    app = await buildApp({ config: testConfig(), database, logger: false });
    const editor = await createUserService(createUserRepository(database.db)).add('editor', 'editor');
    headers = { authorization: `Basic ${Buffer.from(`editor:${editor.password}`).toString('base64')}` };
  });
  afterEach(async () => {
    await app.close();
    await database.close();
  });
  const count = async (table: 'event' | 'change_log') => Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  // SQLite's own limit on the file's pages, set to what it has: a write that needs one more page meets a full disk.
  const fill = async () => {
    const [{ page_count: pages }] = (await sql<{ page_count: number }>`pragma page_count`.execute(database.db)).rows;
    await sql.raw(`pragma max_page_count = ${pages}`).execute(database.db);
  };

  it('a write answers 503 with Retry-After and stores nothing; reads go on; writes succeed once there is room', async () => {
    const first = await app.inject({ method: 'POST', url: `${API}/events`, headers, payload: event() });
    expect(first.statusCode).toBe(201);
    const [events, changes] = [await count('event'), await count('change_log')];
    await fill();
    const full = await app.inject({ method: 'POST', url: `${API}/events`, headers, payload: event('<p>Long.</p>'.repeat(3000)) });
    expect([full.statusCode, full.headers['retry-after'], full.json()]).toEqual([503, '5', UNAVAILABLE]);
    expect([await count('event'), await count('change_log')]).toEqual([events, changes]);
    // In the caller's language, as every error is.
    const german = await app.inject({ method: 'POST', url: `${API}/events`, headers: { ...headers, 'accept-language': 'de' }, payload: event('<p>Lang.</p>'.repeat(3000)) });
    expect([german.statusCode, german.json().message]).toEqual([503, 'Die Datenbank ist gerade nicht verfügbar; bitte gleich noch einmal versuchen.']);
    const read = await app.inject({ url: `${API}/events/${first.json().id}` });
    expect([read.statusCode, read.json().title]).toEqual([200, 'Fault line']);

    await sql.raw('pragma max_page_count = 1073741823').execute(database.db);
    const after = await app.inject({ method: 'POST', url: `${API}/events`, headers, payload: event('<p>Long.</p>'.repeat(3000)) });
    expect(after.statusCode).toBe(201);
    expect(await count('event')).toBe(events + 1);
  });
});

const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * A TCP proxy in front of the PostgreSQL server that can fail: `down` cuts every connection and refuses new ones;
 * `silence` and `drop` fail without a word, as a network does.
 */
async function outageProxy(target: URL) {
  const sockets = new Set<Socket>();
  let serving = true;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  let silent = false;
  // Connections whose bytes are lost from now on, both ways, neither end told.
  const dropped = new WeakSet<Socket>();
  const server = createServer((client) => {
    track(client);
    if (silent) return; // accepted, never answered: a host that stopped answering
    if (!serving) return void client.destroy();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    track(upstream);
    client.on('data', (bytes) => dropped.has(client) || upstream.write(bytes));
    upstream.on('data', (bytes) => dropped.has(client) || client.write(bytes));
    // A dropped connection's end is lost too: the other side is never told.
    client.on('close', () => dropped.has(client) || upstream.destroy());
    upstream.on('close', () => dropped.has(client) || client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    down() {
      serving = false;
      for (const socket of sockets) socket.destroy();
    },
    up() {
      serving = true;
      silent = false;
    },
    /** The connections open now lose every byte from now on, and stay open; new ones pass. */
    drop() {
      for (const socket of sockets) dropped.add(socket);
    },
    /** New connections are accepted and never answered; those open are cut. */
    silence() {
      silent = true;
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
/** A pool on the test database whose connections pass through an outage proxy. */
async function throughProxy(options: CreateDbOptions) {
  const proxy = await outageProxy(new URL(postgresUrl as string));
  const proxied = new URL(postgresUrl as string);
  proxied.host = `127.0.0.1:${proxy.port}`;
  return { proxy, database: createDb(proxied.toString(), options) };
}

describe.runIf(postgresUrl !== undefined)('a database that cannot serve [postgres]: down, or restarted under load', () => {
  it('a server that does not answer: every route that needs it 503 with Retry-After, the site\'s pages too; /healthz 200, /readyz 503', async () => {
    const database = createDb('postgres://postgres@127.0.0.1:1/test');
    const app = await buildApp({ config: testConfig(), database, logger: false });
    try {
      for (const url of [`${API}/events`, `${API}/events/1`, `${API}/events/by-slug/any`, `${API}/venues`, `${API}/categories`, `${API}/organizers/by-slug/any`]) {
        const res = await app.inject({ url });
        expect([url, res.statusCode, res.headers['retry-after'], res.json()]).toEqual([url, 503, '5', UNAVAILABLE]);
      }
      const write = await app.inject({ method: 'POST', url: `${API}/events`, headers: { authorization: `Basic ${Buffer.from('editor:secret').toString('base64')}` }, payload: event() });
      expect([write.statusCode, write.json()]).toEqual([503, UNAVAILABLE]);
      const page = await app.inject({ url: '/events/' });
      expect([page.statusCode, page.headers['retry-after'], page.headers['content-type']]).toEqual([503, '5', 'text/html; charset=utf-8']);
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/readyz' })).json().code).toBe('rest_not_ready');
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('a server whose host stopped answering: a request waits for the connect timeout, then 503', async () => {
    const { proxy, database } = await throughProxy({ connectTimeoutMs: 300 });
    const app = await buildApp({ config: testConfig(), database, logger: false });
    try {
      proxy.silence();
      const started = Date.now();
      const res = await app.inject({ url: `${API}/events` });
      expect([res.statusCode, res.headers['retry-after'], res.json()]).toEqual([503, '5', UNAVAILABLE]);
      // Given up on at the bound, not when the system gives up connecting (~2 minutes).
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await app.close();
      await database.close();
      await proxy.close();
    }
  });

  it('the pool takes its size and its wait from the configuration: a query that finds none free in time fails as unavailable', async () => {
    const config = loadConfig({ CAL_DB_POOL: '2', CAL_DB_CONNECT_TIMEOUT_MS: '300' });
    const database = createDb(postgresUrl as string, config.database);
    try {
      const sleep = () => sql`select pg_sleep(1)`.execute(database.db);
      const busy = [sleep(), sleep()];
      const third = await sql`select 1 as one`.execute(database.db).then(() => undefined, (error: Error) => error);
      expect(database.pool?.()).toMatchObject({ total: 2 });
      expect(third?.message).toMatch(/timeout exceeded when trying to connect/);
      expect(databaseUnavailable(third)).toBe(true);
      await Promise.all(busy);
    } finally {
      await database.close();
    }
  });

  it('a connection the network drops without a word: its statement fails at the bound as unavailable, the next runs on a new connection', async () => {
    const { proxy, database } = await throughProxy({ statementTimeoutMs: 300 });
    const lost: Error[] = [];
    database.onConnectionLost?.((error) => lost.push(error));
    try {
      await sql`select 1 as one`.execute(database.db);
      proxy.drop();
      const started = Date.now();
      const error = await sql`select 1 as one`.execute(database.db).then(() => undefined, (e: Error) => e);
      expect(error?.message).toBe('no answer from the database within 300 ms');
      expect(databaseUnavailable(error)).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(Date.now() - started).toBeLessThan(10_000);
      // Reported once, though the connection's stream failed and then ended.
      expect(lost.map((e) => e.message)).toEqual(['no answer from the database within 300 ms']);
      expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
      expect(database.pool?.()).toMatchObject({ total: 1 });

      // Dropped inside a transaction: its rollback cannot be sent either; the failure is still the database's.
      const inTransaction = await database.db.transaction().execute(async (trx) => {
        await sql`select 1 as one`.execute(trx);
        proxy.drop();
        await sql`select 2 as two`.execute(trx);
      }).then(() => undefined, (e: Error) => e);
      expect(databaseUnavailable(inTransaction)).toBe(true);
      expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
      await proxy.close();
    }
  });

  it('when one connection went silent, the idle ones are closed with it: the next requests wait on none of them', async () => {
    const { proxy, database } = await throughProxy({ statementTimeoutMs: 300 });
    const lost: string[] = [];
    database.onConnectionLost?.((error) => lost.push(error.message));
    try {
      // Three connections open and idle.
      await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.05)`.execute(database.db)));
      expect(database.pool?.()).toMatchObject({ total: 3, idle: 3 });
      proxy.drop();
      const error = await sql`select 1 as one`.execute(database.db).then(() => undefined, (e: Error) => e);
      expect(error?.message).toBe('no answer from the database within 300 ms');
      // The two others were dropped too, but no request meets them: each of these runs on a new connection.
      const started = Date.now();
      const answers = await Promise.all([1, 2, 3].map((n) => sql<{ n: number }>`select ${n}::int as n`.execute(database.db)));
      expect(answers.map((answer) => answer.rows[0].n)).toEqual([1, 2, 3]);
      expect(Date.now() - started).toBeLessThan(300);
      expect(lost.sort()).toEqual(['closed: another connection to the database went silent', 'closed: another connection to the database went silent', 'no answer from the database within 300 ms']);
    } finally {
      await database.close();
      await proxy.close();
    }
  });

  it('a statement slower than the bound fails as unavailable; with no bound (0) it is waited for', async () => {
    const bounded = createDb(postgresUrl as string, { statementTimeoutMs: 200 });
    const unbounded = createDb(postgresUrl as string, { statementTimeoutMs: 0 });
    try {
      const error = await sql`select pg_sleep(1)`.execute(bounded.db).then(() => undefined, (e: Error) => e);
      expect([error?.message, databaseUnavailable(error)]).toEqual(['no answer from the database within 200 ms', true]);
      expect((await sql`select pg_sleep(0.5) as slept`.execute(unbounded.db)).rows).toHaveLength(1);
      // Quick ones within the bound are untouched, in a transaction too; the server holds the same bound.
      await bounded.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 20; i++) await sql`select ${i}::int as i`.execute(trx);
      });
      const setting = async (handle: DbHandle) => (await sql<{ s: string }>`select current_setting('idle_in_transaction_session_timeout') as s`.execute(handle.db)).rows[0].s;
      expect([await setting(bounded), await setting(unbounded)]).toEqual(['200ms', '0']);
    } finally {
      await bounded.close();
      await unbounded.close();
    }
  });

  it('a transaction whose connection dropped without a word releases its locks once the server has waited the bound', async () => {
    const { proxy, database: dropped } = await throughProxy({ statementTimeoutMs: 300 });
    const other = createDb(postgresUrl as string);
    const key = 1_000_000 + Math.floor(Math.random() * 1_000_000);
    try {
      // As a writer naming a new venue holds its name's lock (db/named-lock.ts), then its connection is dropped.
      const failed = await dropped.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${key})`.execute(trx);
        proxy.drop();
        await sql`select 1`.execute(trx);
      }).then(() => undefined, (e: Error) => e);
      expect(databaseUnavailable(failed)).toBe(true);
      // Another writer of the same name gets the lock within about the bound, not when the server's TCP gives up.
      const started = Date.now();
      await other.db.transaction().execute((trx) => sql`select pg_advisory_xact_lock(${key})`.execute(trx));
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await dropped.close();
      await other.close();
      await proxy.close();
    }
  }, 30_000);

  it('a statement an administrator cancels (pg_cancel_backend, 57014) or a lock wait the server gives up on (55P03): 503, nothing stored', async () => {
    const database = await openTestDatabase('postgres');
    await migrateToLatest(database.db);
    const app = await buildApp({ config: testConfig(), database, logger: false });
    const holder = createDb(postgresUrl as string);
    const editor = await createUserService(createUserRepository(database.db)).add('editor', 'editor');
    const headers = { authorization: `Basic ${Buffer.from(`editor:${editor.password}`).toString('base64')}` };
    const events = async () => Number((await database.db.selectFrom('event').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    // A create takes its slug's lock (events/event-input.ts); another connection holds it. The title is this
    // test's own, so that no other test's writer waits on the same lock.
    const title = `Cancelled ${randomBytes(4).toString('hex')}`;
    const lock = sql`hashtextextended(${`event-slug:${title.toLowerCase().replace(' ', '-')}`}, 0)`;
    const holdSlug = (work: () => Promise<void>) =>
      holder.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${lock})`.execute(trx);
        await work();
      });
    // Bounded, so that a create that never comes to wait fails here, and the schema is still dropped after.
    const waiting = async () => {
      for (let tries = 0; tries < 250; tries++) {
        const { rows } = await sql<{ pid: number }>`select pid from pg_locks where locktype = 'advisory' and not granted
          and classid::bigint = (${lock} >> 32) & 4294967295 and objid::bigint = ${lock} & 4294967295`.execute(holder.db);
        if (rows.length > 0) return rows.map((row) => row.pid);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('the create never waited on the slug\'s lock');
    };
    try {
      await holdSlug(async () => {
        const create = app.inject({ method: 'POST', url: `${API}/events`, headers, payload: { ...event(), title } });
        const pids = await waiting();
        await sql`select pg_cancel_backend(pid) from unnest(${pids}::int[]) as pid`.execute(holder.db);
        const res = await create;
        expect([res.statusCode, res.headers['retry-after'], res.json()]).toEqual([503, '5', UNAVAILABLE]);
      });
      // A server (or role) with a lock_timeout gives up on the wait itself.
      await holdSlug(async () => {
        const failed = await database.db.transaction().execute(async (trx) => {
          await sql`set local lock_timeout = '50ms'`.execute(trx);
          await sql`select pg_advisory_xact_lock(${lock})`.execute(trx);
        }).then(() => undefined, (e: Error & { code?: string }) => e);
        expect([failed?.code, databaseUnavailable(failed)]).toEqual(['55P03', true]);
      });
      expect(await events()).toBe(0);
      const after = await app.inject({ method: 'POST', url: `${API}/events`, headers, payload: { ...event(), title } });
      expect([after.statusCode, after.json().slug, await events()]).toEqual([201, title.toLowerCase().replace(' ', '-'), 1]);
    } finally {
      await app.close();
      await holder.close();
      await database.close();
    }
  });

  it('the migrations run without the bound, which holds once the database is open', async () => {
    const schema = await postgresSchema(postgresUrl as string, `cal_bound_${randomBytes(4).toString('hex')}`);
    // 1 ms: a fresh schema's migrations (dozens of tables and indexes) would not pass under it.
    let opened: DbHandle | undefined;
    try {
      const { database, migrated } = await openDatabase(schema.url, { statementTimeoutMs: 1 });
      opened = database;
      expect(migrated.length).toBeGreaterThan(10);
      const error = await sql`select pg_sleep(0.2)`.execute(database.db).then(() => undefined, (e: Error) => e);
      expect(error?.message).toBe('no answer from the database within 1 ms');
    } finally {
      await opened?.close();
      await schema.drop(); // also when the open failed
    }
  });

  it('a real process through an outage (connections cut, new ones refused): 503 meanwhile, alive, and answering after', async () => {
    const schema = await postgresSchema(postgresUrl as string, `cal_fault_${randomBytes(4).toString('hex')}`);
    const proxy = await outageProxy(new URL(postgresUrl as string));
    const proxied = new URL(schema.url);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const service = await startService({ DATABASE_URL: proxied.toString(), CAL_WEBHOOK_POLL_MS: '200', CAL_DB_STATEMENT_TIMEOUT_MS: '1000' });
    const api = (path: string, init: RequestInit = {}) => fetch(`${service.url}${API}${path}`, init);
    const create = () => api('/events', { method: 'POST', headers: { ...adminAuth, 'content-type': 'application/json' }, body: JSON.stringify(event()) });
    try {
      const made = await create();
      expect(made.status).toBe(201);
      const { id } = (await made.json()) as { id: number };

      // Cut while requests are in flight, ten times: a connection cut while checked out (between a transaction's
      // statements, say) emits its error outside any query, which ended the process as an idle one's did; and a
      // create cut inside its transaction failed at its rollback (500) until that failure was known as the database's.
      let madeInRounds = 0;
      for (let round = 0; round < 10; round++) {
        const inFlight = Array.from({ length: 20 }, (_, i) => {
          const answer = i % 4 === 0 ? create() : api(i % 2 ? `/events?round=${round}` : `/events/${id}?round=${round}`);
          return answer.then((res) => [i % 4 === 0 ? 'create' : 'read', res.status] as const);
        });
        await new Promise((resolve) => setTimeout(resolve, round * 2));
        proxy.down();
        for (const [kind, status] of await Promise.all(inFlight)) expect([kind, status]).toEqual([kind, kind === 'create' && status === 201 ? 201 : kind === 'read' && status === 200 ? 200 : 503]);
        madeInRounds += (await Promise.all(inFlight)).filter(([kind, status]) => kind === 'create' && status === 201).length;
        proxy.up();
      }
      expect(service.child.exitCode).toBeNull();

      // The network drops every open connection without a word: a request on one is answered 503 at the
      // statement's bound (not minutes later), each such connection is replaced, and the loss is logged.
      // (A write, so that its answer needs the database: a read may be served from memory.)
      expect((await create()).status).toBe(201); // a connection open and idle, to be dropped
      proxy.drop();
      const started = Date.now();
      const dropped = await create();
      expect([dropped.status, dropped.headers.get('retry-after'), await dropped.json()]).toEqual([503, '5', UNAVAILABLE]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(990);
      let answered = 0;
      for (let i = 1; i <= 30 && answered !== 201; i++) answered = (await create()).status;
      expect(answered).toBe(201);

      proxy.down();
      for (const answer of [await api(`/events/${id}?outage=1`), await api('/events?outage=1'), await create()]) {
        expect([answer.status, answer.headers.get('retry-after'), await answer.json()]).toEqual([503, '5', UNAVAILABLE]);
      }
      const page = await fetch(`${service.url}/events/?outage=1`);
      expect([page.status, page.headers.get('retry-after')]).toEqual([503, '5']);
      // The background work (the webhook dispatcher every 200 ms, the change watch) meets the outage too.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(service.child.exitCode).toBeNull();
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${service.url}/readyz`)).status).toBe(503);

      proxy.up();
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = (await api(`/events/${id}?after=${i}`)).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(200);
      expect((await create()).status).toBe(201);
      // The creates refused stored nothing: those acknowledged in the rounds, the first, the two around the dropped
      // connections, the last.
      expect(((await (await api('/events?start_date=2027-01-01&per_page=50')).json()) as { total: number }).total).toBe(madeInRounds + 4);
      expect(service.child.exitCode).toBeNull();

      // Each lost connection logged at `warn`, with why (the log is written in chunks: read once it stopped).
      await service.stop();
      const lost = service.log().split('\n').filter((line) => line.includes('a database connection was lost')).map((line) => JSON.parse(line));
      expect(lost.length).toBeGreaterThan(0);
      expect(lost.every((line) => line.level === 40)).toBe(true);
      expect(lost.map((line) => line.err.message)).toContain('no answer from the database within 1000 ms');
      // An outage is the database's state, not the service's error: warnings, each background task's said once
      // an outage (the webhook dispatcher polled every 200 ms through them, and logged an error each time).
      const lines = service.log().split('\n').filter(Boolean).map((line) => JSON.parse(line));
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      const paused = lines.filter((line) => line.msg.startsWith('webhook deliveries paused'));
      expect(paused.length).toBeGreaterThan(0);
      expect(paused.length).toBeLessThanOrEqual(12); // at most once an outage: ten cuts, the drop, the last
      // Each request answered 503 logged with why, in a line of its own, without the driver's stack.
      const unavailable = lines.filter((line) => line.msg === 'database unavailable');
      expect(unavailable.length).toBeGreaterThan(0);
      expect(unavailable.every((line) => line.level === 40 && typeof line.cause.message === 'string' && line.err === undefined)).toBe(true);
      expect(unavailable.map((line) => line.cause.message)).toContain('no answer from the database within 1000 ms');
    } finally {
      await service.stop();
      await proxy.close();
      await schema.drop();
    }
  }, SERVICE_START_MS + 60_000);
});
