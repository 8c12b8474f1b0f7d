import { CompiledQuery, type KyselyPlugin, sql, type Transaction } from 'kysely';
import type { Database, Db, Dialect } from './database.ts';
import { onlyLooks, writerOf } from './direct-statements.ts';
import { precompiled } from './precompiled.ts';
import { readGeneration, wrote } from './read-generation.ts';

/**
 * The repositories of a database and the one way to write to it. Infrastructure knows no resource: the
 * application says which repositories it has (src/store.ts), this says how writes are made and versioned.
 */
export interface Store<Repositories> {
  dialect: Dialect;
  repos: Repositories;
  /**
   * Runs `work` in one transaction: everything it writes lands together or not at all (on SQLite the
   * writes asked for together share one transaction, each in a savepoint of its own: see groupCommits;
   * each is answered after that transaction commits). Every write goes
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
  /**
   * Moved by the database itself on every change of a user or an application password (migration 0021), read
   * with the data version: who a credential names is kept while it stands still (users/user.service.ts).
   */
  credentialsVersion(): Promise<number>;
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

const isConflict = (error: unknown) => CONFLICTS.has(String((error as { code?: unknown }).code));

async function retryingConflicts<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= ATTEMPTS || !isConflict(error)) throw error;
      // A few milliseconds, growing and jittered, so the writers that collided do not collide again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** tries));
    }
  }
}

/**
 * Notes whether a transaction's repositories ran anything but a read. Raw SQL counts as a write (it may be
 * one); a write compiled once for the database (precompiled.ts `precompiledValues`) is shown to it at each run.
 */
function writeWatch() {
  let seen = false;
  const plugin: KyselyPlugin = onlyLooks({
    transformQuery: ({ node }) => {
      if (node.kind !== 'SelectQueryNode') seen = true;
      return node;
    },
    transformResult: async ({ result }) => result,
  });
  return {
    plugin,
    seen: () => seen,
    reset: () => {
      seen = false;
    },
  };
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
  const read = precompiled(db, () => db.selectFrom('data_version').select(['version', 'changed_utc', 'unlogged_version', 'credentials_version']).where('id', '=', 1));
  // One read of the row serves every caller until the end of the turn of the event loop its answer arrives
  // in (a request asks for the date, then its service for the version, then the change watch). Safe because
  // both are only ever used as read BEFORE the data they guard: an answer from a moment earlier can make a
  // cached entry stale, never wrong. A write of this process forgets it at once (a caller here may read right
  // after its own write, in the same turn); another process's write reaches a reader here only through a new
  // request, and the first request of each batch starts a new read generation (read-generation.ts).
  let current: { read: Promise<{ version: number; changed_utc: string; unlogged_version: number; credentials_version: number }>; generation: number } | undefined;
  const state = () => {
    if (!current || current.generation !== readGeneration()) {
      const made = {
        read: read(1).then((rows) => {
          // Forgotten after the turn its answer arrives in (on PostgreSQL a later turn than the asking one).
          setImmediate(() => current === made && (current = undefined));
          return rows[0];
        }, (error) => {
          if (current === made) current = undefined;
          throw error;
        }),
        generation: readGeneration(),
      };
      current = made;
    }
    return current.read;
  };
  let written = { text: '', date: new Date(0) };
  const stamp = writeStamp(dialect);
  // Every logged write runs this: compiled once.
  const moveVersion = db.updateTable('data_version').set((eb) => ({ version: eb('version', '+', 1), changed_utc: stamp })).where('id', '=', 1).compile();

  /** Repositories bound to a transaction, with what watches whether they wrote. */
  const bind = (trx: Transaction<Database>): Bound<Repositories> => {
    const writes = writeWatch();
    return { writes, repos: repositories(trx.withPlugin(writes.plugin), dialect) };
  };

  /** One write's work in an open transaction, through `bound`, and the data version moved if it wrote. */
  async function within<T>(trx: Transaction<Database>, work: (repos: Repositories) => Promise<T>, { writes, repos }: Bound<Repositories>): Promise<{ result: T; logged: boolean }> {
    writes.reset();
    const result = await work(repos);
    // Only reads (an update that changes nothing): nothing to order, nothing any cache must forget.
    if (!writes.seen()) return { result, logged: false };
    if (log?.afterCommit) {
      const logged = Boolean(await log.beforeCommit(repos));
      // What the log records moves the version after the commit; a write it cannot explain, here.
      if (!logged) {
        await trx.updateTable('data_version').set((eb) => ({ version: eb('version', '+', 1), unlogged_version: eb('version', '+', 1), changed_utc: stamp })).where('id', '=', 1).execute();
      }
      return { result, logged };
    }
    await writerOf(trx)(moveVersion);
    const logged = Boolean(await log?.beforeCommit(repos));
    if (!logged) {
      await trx.updateTable('data_version').set((eb) => ({ unlogged_version: eb.ref('version') })).where('id', '=', 1).execute();
    }
    return { result, logged };
  }

  /** A transaction of its own for each write (PostgreSQL: writers commit side by side). */
  async function alone<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    let logged = false;
    try {
      const result = await retryingConflicts(() =>
        db.transaction().execute(async (trx) => {
          const done = await within(trx, work, bind(trx));
          logged = done.logged;
          return done.result;
        }),
      );
      if (logged) await log?.afterCommit?.();
      return result;
    } finally {
      wrote();
    }
  }

  return {
    dialect,
    repos: repositories(db, dialect),
    transaction: dialect === 'sqlite' ? groupCommits(db, bind, within, log?.afterCommit) : alone,
    dataVersion: async () => (await state()).version,
    lastWrite: async () => {
      const { changed_utc } = await state();
      // Parsed once for all the reads between two writes (read-only: callers make a new Date to move it).
      if (changed_utc !== written.text) written = { text: changed_utc, date: new Date(`${changed_utc.replace(' ', 'T')}Z`) };
      return written.date;
    },
    unloggedVersion: async () => Number((await state()).unlogged_version),
    credentialsVersion: async () => Number((await state()).credentials_version),
  };
}

const SAVEPOINT = CompiledQuery.raw('savepoint write');
const RELEASE = CompiledQuery.raw('release write');
const ROLLBACK_TO = CompiledQuery.raw('rollback to write');
/** Writes one commit takes at most: each waits for the whole group before it is answered. */
const GROUP_MOST = 16;

interface Bound<Repositories> {
  writes: ReturnType<typeof writeWatch>;
  repos: Repositories;
}

interface Member<Repositories> {
  work: (repos: Repositories) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  tries: number;
  outcome?: { value: unknown; logged: boolean } | { error: unknown };
}

/**
 * SQLite runs one write transaction at a time, and its commit costs more than the writes in it: every page a
 * transaction changed goes to the WAL, two system calls a page (~30 pages, ~270 us of a ~2 ms event create).
 * Writes asked for in the same turn of the event loop (the requests that arrived together) commit as one
 * group instead: each runs in a savepoint of one transaction, in the order asked, so one that fails is rolled
 * back alone; each is answered after the shared commit, so none is acknowledged before it is durable. Pages
 * the group's writes share (the last leaf of each table and append-only index, the data version, the term
 * counts) go to the WAL once.
 * A group lost to another process (SQLITE_BUSY) runs again whole: every write may run more than once.
 */
function groupCommits<Repositories>(
  db: Db,
  bind: (trx: Transaction<Database>) => Bound<Repositories>,
  within: <T>(trx: Transaction<Database>, work: (repos: Repositories) => Promise<T>, bound: Bound<Repositories>) => Promise<{ result: T; logged: boolean }>,
  afterCommit?: () => Promise<void>,
) {
  const queue: Array<Member<Repositories>> = [];
  let scheduled = false;
  // A group starts in the event loop's next turn, once the requests that arrived with the first have asked
  // too; the next one after the answers of this one (their reads) have run.
  const schedule = () => {
    scheduled = true;
    setImmediate(() => void commitGroup().finally(() => {
      scheduled = false;
      if (queue.length > 0) schedule();
    }));
  };

  async function commitGroup(): Promise<void> {
    const members = queue.splice(0, GROUP_MOST);
    try {
      await db.transaction().execute(async (trx) => {
        // One set of repositories serves the group's writes one after another (made ~30 us, and what they
        // compile once is compiled once for all), and a fresh one the writes after one that failed: it may
        // have left what it noted for its log in them.
        let bound = bind(trx);
        const run = writerOf(trx);
        for (const member of members) {
          await run(SAVEPOINT);
          try {
            const done = await within(trx, member.work, bound);
            member.outcome = { value: done.result, logged: done.logged };
            await run(RELEASE);
          } catch (error) {
            if (isConflict(error)) throw error;
            await run(ROLLBACK_TO);
            await run(RELEASE);
            member.outcome = { error };
            bound = bind(trx);
          }
        }
      });
    } catch (error) {
      // Nothing of the group committed: each write runs again, first, after a pause (lost to another process),
      // or fails with the group's error.
      wrote();
      const again = members.filter((member) => isConflict(error) && ++member.tries <= ATTEMPTS);
      for (const member of members) if (!again.includes(member)) member.reject(error);
      if (again.length > 0) {
        queue.unshift(...again);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** again[0].tries));
      }
      return;
    }
    wrote();
    const outcomes = members.map((member) => member.outcome as { value: unknown; logged: boolean } | { error: unknown });
    if (afterCommit && outcomes.some((outcome) => 'logged' in outcome && outcome.logged)) {
      try {
        await afterCommit();
      } catch (error) {
        for (const member of members) member.reject(error);
        return;
      }
    }
    for (const [i, outcome] of outcomes.entries()) {
      if ('error' in outcome) members[i].reject(outcome.error);
      else members[i].resolve(outcome.value);
    }
  }

  return <T>(work: (repos: Repositories) => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject, tries: 1 });
      if (!scheduled) schedule();
    });
}
