import { sql } from 'kysely';
import type { Db, Dialect } from '../db/database.ts';

export type ChangeKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';
export type ChangeAction = 'create' | 'update' | 'trash' | 'restore' | 'delete';

/** What an update of a post's status did, as the log names it: into the trash, out of it, or an edit. */
export function statusChange(before: string | undefined, after: string | undefined): ChangeAction {
  if (after === 'trash' && before !== 'trash') return 'trash';
  if (before === 'trash' && after !== undefined && after !== 'trash') return 'restore';
  return 'update';
}

export interface Change {
  kind: ChangeKind;
  id: number;
  action: ChangeAction;
  /** Who made it; null for the system. */
  userId: number | null;
}

/**
 * The change log (migration 0009). Bound to one transaction like every repository: `note` keeps what the
 * transaction changes, and the store writes it just before commit (`flush`).
 *
 * Order: on SQLite one transaction writes at a time, so changes go straight into the log and `seq` follows
 * commit order. On PostgreSQL writers commit side by side: each appends to `change_pending` (migration 0016),
 * taking no lock, and `settle` moves what has committed into the log, one mover at a time, so a reader of the
 * log by `seq` never skips a change that commits after it looked. Whoever reads the log settles it first.
 */
export function createChangeRepository(db: Db, dialect: Dialect) {
  const noted: Change[] = [];
  const columns = ['kind', 'record_id', 'action', 'changed_utc', 'user_id'] as const;
  return {
    note(change: Change) {
      const last = noted.at(-1);
      // A write that touches a record twice (create, then its links) is one change.
      if (last && last.kind === change.kind && last.id === change.id && (last.action === change.action || last.action === 'create')) return;
      noted.push(change);
    },

    /** Writes what was noted; answers whether anything was (a transaction that noted nothing is unlogged). */
    async flush(changedUtc: string): Promise<boolean> {
      if (noted.length === 0) return false;
      const rows = noted.splice(0).map((c) => ({ kind: c.kind, record_id: c.id, action: c.action, changed_utc: changedUtc, user_id: c.userId }));
      await db.insertInto(dialect === 'postgres' ? 'change_pending' : 'change_log').values(rows).execute();
      return true;
    },

    /**
     * Moves the committed pending changes into the log, in the order they were appended (PostgreSQL; SQLite
     * has none). One mover at a time per schema, holding its lock until it commits: the log's `seq` is
     * handed out in commit order. `wait`: queue behind a mover at work (a reader that must see every change
     * committed before it asked); otherwise leave it to that mover or the next.
     */
    async settle(wait: boolean): Promise<void> {
      if (dialect !== 'postgres') return;
      await db.transaction().execute(async (trx) => {
        const key = sql`hashtextextended('change_log ' || current_schema(), 0)`;
        if (wait) await sql`select pg_advisory_xact_lock(${key})`.execute(trx);
        else if (!(await sql<{ got: boolean }>`select pg_try_advisory_xact_lock(${key}) as got`.execute(trx)).rows[0].got) return;
        await trx.with('moved', (q) => q.deleteFrom('change_pending').returning(['id', ...columns]))
          .insertInto('change_log').columns([...columns])
          .expression((eb) => eb.selectFrom('moved').select([...columns]).orderBy('id'))
          .execute();
      });
    },

    /**
     * In one statement (one snapshot): the log after `seq` in order, up to `limit`, and the changes committed
     * but not yet settled into it (they have no `seq` yet).
     */
    async since(seq: number, limit: number) {
      // The log's part as a table of its own: its order and limit must not apply to the union.
      const logged = db.selectFrom('change_log').select([sql<number | null>`seq`.as('seq'), ...columns]).where('seq', '>', seq).orderBy('seq').limit(limit);
      const rows = await db.selectFrom(logged.as('logged')).selectAll()
        .unionAll(db.selectFrom('change_pending').select([sql<number | null>`null`.as('seq'), ...columns]))
        .execute();
      return {
        logged: rows.filter((row) => row.seq !== null).sort((a, b) => Number(a.seq) - Number(b.seq)),
        pending: rows.filter((row) => row.seq === null),
      };
    },

    /** Changes after a sequence number, in order. */
    after: (seq: number, limit: number) =>
      db.selectFrom('change_log').selectAll().where('seq', '>', seq).orderBy('seq').limit(limit).execute(),

    /** The last sequence number pruned away (0 when nothing was): cursors before it cannot be replayed. */
    horizon: async (): Promise<number> =>
      Number((await db.selectFrom('change_log_horizon').select('pruned_through').where('id', '=', 1).executeTakeFirstOrThrow()).pruned_through),

    latest: async (): Promise<number> =>
      Number((await db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst())?.seq ?? 0),

    /**
     * Drops changes made before `beforeUtc`, but never the newest (the data version counts from it on
     * PostgreSQL). The horizon moves first: stopped between the two statements, a cursor in between is
     * refused (resync) rather than served a log with a hole in it.
     */
    async prune(beforeUtc: string): Promise<number> {
      const last = await db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('seq')).where('changed_utc', '<', beforeUtc)
        .where('seq', '<', (eb) => eb.selectFrom('change_log').select((e) => e.fn.max('seq').as('newest'))).executeTakeFirst();
      const through = Number(last?.seq ?? 0);
      if (through === 0) return 0;
      await db.updateTable('change_log_horizon').set({ pruned_through: through }).where('id', '=', 1).where('pruned_through', '<', through).execute();
      const removed = await db.deleteFrom('change_log').where('seq', '<=', through).executeTakeFirst();
      return Number(removed.numDeletedRows);
    },

    /**
     * PostgreSQL's data version and last write date, in one statement: every committed write adds a pending
     * change (or, noting none, moves `unlogged_version`), and settling moves pending changes into the log
     * without lowering the log's newest `seq` plus the pending count, so their sum moves with every write and
     * only then. Read without any lock: writers never wait for each other on it.
     */
    async version(): Promise<{ version: number; changed_utc: string; unlogged_version: number }> {
      const row = await db.selectFrom('data_version').where('id', '=', 1).select([
        sql<string>`coalesce((select max(seq) from change_log), 0) + (select count(*) from change_pending) + unlogged_version`.as('version'),
        sql<string>`greatest(changed_utc, (select max(changed_utc) from change_log), (select max(changed_utc) from change_pending))`.as('changed_utc'),
        'unlogged_version',
      ]).executeTakeFirstOrThrow();
      return { version: Number(row.version), changed_utc: row.changed_utc, unlogged_version: Number(row.unlogged_version) };
    },
  };
}

export type ChangeRepository = ReturnType<typeof createChangeRepository>;
