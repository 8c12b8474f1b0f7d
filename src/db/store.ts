import { type KyselyPlugin, sql } from 'kysely';
import type { Db, Dialect } from './database.ts';
import { precompiled } from './precompiled.ts';

/**
 * The repositories of a database and the one way to write to it. Infrastructure knows no resource: the
 * application says which repositories it has (src/store.ts), this says how writes are made and versioned.
 */
export interface Store<Repositories> {
  dialect: Dialect;
  repos: Repositories;
  /**
   * Runs `work` in one transaction: everything it writes lands together or not at all. Every write goes
   * through here, and each one moves the data version on, which is what cached totals are checked against
   * (a transaction that only read moves nothing).
   * A transaction that loses a race (see CONFLICTS) runs again from the start: `work` must only write
   * through the repositories it is given, and may run more than once.
   */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  /** The data version: it changes with every committed write, in any process sharing the database. */
  dataVersion(): Promise<number>;
  /** When the last write committed (never earlier than a write before it): what feeds date themselves by. */
  lastWrite(): Promise<Date>;
  /**
   * Moves with every write whose transaction said nothing of what it changed (see WriteLog.beforeCommit):
   * a reader that keeps records by what changed must drop them all once this has moved.
   */
  unloggedVersion(): Promise<number>;
}

/**
 * The database's clock at the moment the data version row is updated, never behind the previous stamp: the
 * row is locked until commit, so stamps of writes that move it follow commit order whichever process wrote.
 */
const writeStamp = (dialect: Dialect) =>
  dialect === 'postgres'
    ? sql<string>`greatest(changed_utc, to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS'))`
    : sql<string>`max(changed_utc, strftime('%Y-%m-%d %H:%M:%f', 'now'))`;

// What a transaction can lose to a concurrent one and win by simply running again: a unique key another
// writer took first (the retry finds that writer's record, or the next free slug), a serialization failure
// or a deadlock on PostgreSQL, and on SQLite a write lock or a snapshot another process made stale.
const CONFLICTS = new Set(['23505', '40001', '40P01', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED']);
const ATTEMPTS = 6;

/** Bumped by every write transaction of this process, whichever store made it: the data-version reads
 * of every store here start afresh after it. */
let writesInProcess = 0;

async function retryingConflicts<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= ATTEMPTS || !CONFLICTS.has(String((error as { code?: unknown }).code))) throw error;
      // A few milliseconds, growing and jittered, so the writers that collided do not collide again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** tries));
    }
  }
}

/**
 * Notes whether a transaction's repositories ran anything but a read. Raw SQL counts as a write (it may be
 * one); a query compiled once (precompiled.ts) is seen when a transaction's repository compiles it.
 */
function writeWatch() {
  let seen = false;
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (node.kind !== 'SelectQueryNode') seen = true;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { plugin, seen: () => seen };
}

/** How the application logs its writes (see createStore). */
export interface WriteLog<Repositories> {
  /**
   * Runs last in every write transaction: the application appends its change log here. It answers whether
   * it recorded what the transaction changed; when it did not, the write is marked unlogged (see
   * Store.unloggedVersion).
   */
  beforeCommit(repos: Repositories): Promise<boolean>;
  /**
   * Runs after a transaction whose changes `beforeCommit` recorded has committed, before the write is
   * answered (and before this process's readers stop reusing the data version they read before it). Given,
   * it moves the data version for those writes, which then leave the row alone: a row every writer updates
   * is locked from the update to the commit, and parallel writers would commit one at a time.
   */
  afterCommit?(): Promise<void>;
}

export function createStore<Repositories>(
  db: Db,
  dialect: Dialect,
  repositories: (db: Db, dialect: Dialect) => Repositories,
  log?: WriteLog<Repositories>,
): Store<Repositories> {
  const read = precompiled(db, () => db.selectFrom('data_version').select(['version', 'changed_utc', 'unlogged_version']).where('id', '=', 1));
  // One read of the row serves every caller until the end of the turn of the event loop its answer arrives
  // in (a request asks for the date, then its service for the version, then the change watch). Safe because both are only ever used as read BEFORE the data they
  // guard: an answer from a moment earlier can make a cached entry stale, never wrong. A write of this
  // process forgets it at once (a caller here may read right after its own write, in the same turn); another
  // process's write reaches a reader here only through a new request, a later turn.
  let current: { read: Promise<{ version: number; changed_utc: string; unlogged_version: number }>; generation: number } | undefined;
  const state = () => {
    if (!current || current.generation !== writesInProcess) {
      const made = {
        read: read(1).then((rows) => {
          // Forgotten after the turn its answer arrives in (on PostgreSQL a later turn than the asking one).
          setImmediate(() => current === made && (current = undefined));
          return rows[0];
        }, (error) => {
          if (current === made) current = undefined;
          throw error;
        }),
        generation: writesInProcess,
      };
      current = made;
    }
    return current.read;
  };
  const stamp = writeStamp(dialect);
  return {
    dialect,
    repos: repositories(db, dialect),
    transaction: async (work) => {
      let logged = false;
      try {
        const result = await retryingConflicts(() =>
          db.transaction().execute(async (trx) => {
            const writes = writeWatch();
            const repos = repositories(trx.withPlugin(writes.plugin), dialect);
            const result = await work(repos);
            logged = false;
            // Only reads (an update that changes nothing): nothing to order, nothing any cache must forget.
            if (!writes.seen()) return result;
            if (log?.afterCommit) {
              logged = Boolean(await log.beforeCommit(repos));
              // What the log records moves the version after the commit; a write it cannot explain, here.
              if (!logged) {
                await trx.updateTable('data_version').set((eb) => ({ version: eb('version', '+', 1), unlogged_version: eb('version', '+', 1), changed_utc: stamp })).where('id', '=', 1).execute();
              }
              return result;
            }
            await trx.updateTable('data_version').set((eb) => ({ version: eb('version', '+', 1), changed_utc: stamp })).where('id', '=', 1).execute();
            logged = Boolean(await log?.beforeCommit(repos));
            if (!logged) {
              await trx.updateTable('data_version').set((eb) => ({ unlogged_version: eb.ref('version') })).where('id', '=', 1).execute();
            }
            return result;
          }),
        );
        if (logged) await log?.afterCommit?.();
        return result;
      } finally {
        writesInProcess++;
      }
    },
    dataVersion: async () => (await state()).version,
    lastWrite: async () => new Date(`${(await state()).changed_utc.replace(' ', 'T')}Z`),
    unloggedVersion: async () => Number((await state()).unlogged_version),
  };
}
