import { sql } from 'kysely';
import type { Db, Dialect } from '../db/database.ts';
import { precompiled, precompiledValues } from '../db/precompiled.ts';

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
 * log by `seq` never skips a change that commits after it looked. A write is answered once its changes are
 * settled; whoever reads the log by cursor settles it first too (a writer's process may have died between).
 */
export function createChangeRepository(db: Db, dialect: Dialect) {
  const noted: Change[] = [];
  // The records noted by this transaction, whatever their action: `noteTouched` notes no record twice.
  const records = new Set<string>();
  const columns = ['kind', 'record_id', 'action', 'changed_utc', 'user_id'] as const;
  const withValues = precompiledValues(db, 'changes');
  // Every write a process learns of is read here (changes/change-watch.ts): compiled once.
  const changesAfter = precompiled(db, () => db.selectFrom('change_log').selectAll().where('seq', '>', 0).orderBy('seq').limit(1));
  return {
    note(change: Change) {
      records.add(`${change.kind}:${change.id}`);
      const last = noted.at(-1);
      // A write that touches a record twice (create, then its links) is one change.
      if (last && last.kind === change.kind && last.id === change.id && (last.action === change.action || last.action === 'create')) return;
      noted.push(change);
    },

    /**
     * A record this transaction changed without writing its row (an import's lineage row, which its
     * `global_id_lineage` shows): noted as updated, unless the transaction noted it already (created it, say),
     * so that every process's caches forget its text and the change feed shows it once.
     */
    noteTouched(change: Omit<Change, 'action'>) {
      if (!records.has(`${change.kind}:${change.id}`)) this.note({ ...change, action: 'update' });
    },

    /** Writes what was noted; answers whether anything was (a transaction that noted nothing is unlogged). */
    async flush(changedUtc: string): Promise<boolean> {
      records.clear();
      if (noted.length === 0) return false;
      const rows = noted.splice(0).map((c) => ({ kind: c.kind, record_id: c.id, action: c.action, changed_utc: changedUtc, user_id: c.userId }));
      await withValues(`log:${rows.length}`, rows.flatMap((row) => columns.map((column) => row[column])), () =>
        db.insertInto(dialect === 'postgres' ? 'change_pending' : 'change_log').values(rows));
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
      const key = sql`hashtextextended('change_log ' || current_schema(), 0)`;
      const lock = wait ? sql`select pg_advisory_xact_lock(${key}) is not null as got` : sql`select pg_try_advisory_xact_lock(${key}) as got`;
      const list = sql.raw(columns.join(', '));
      // One statement, its own transaction: the lock is taken before the first row is read (the condition
      // on it is evaluated once, first) and held until commit. A row another mover took after this
      // statement's snapshot is skipped when its deletion is found committed; one committed after the
      // snapshot is left for the move its writer starts after its commit. The data version moves here, once
      // for the writes moved (only movers, one at a time, update its row for them); its date by the
      // database's clock, never behind the last (what reads date themselves by).
      await sql`
        with locked as (${lock}),
        moved as (delete from change_pending where (select got from locked) returning id, ${list}),
        logged as (insert into change_log (${list}) select ${list} from moved order by id returning seq)
        update data_version set version = version + 1,
          changed_utc = greatest(changed_utc, to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS'))
        where id = 1 and exists (select 1 from logged)`.execute(db);
    },

    /** Changes after a sequence number, in order. */
    after: (seq: number, limit: number) => changesAfter(seq, limit),

    /** The last sequence number pruned away (0 when nothing was): cursors before it cannot be replayed. */
    horizon: async (): Promise<number> =>
      Number((await db.selectFrom('change_log_horizon').select('pruned_through').where('id', '=', 1).executeTakeFirstOrThrow()).pruned_through),

    latest: async (): Promise<number> =>
      Number((await db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst())?.seq ?? 0),

    /**
     * Drops changes made before `beforeUtc`. The horizon moves first: stopped between the two statements, a
     * cursor in between is refused (resync) rather than served a log with a hole in it.
     */
    async prune(beforeUtc: string): Promise<number> {
      const last = await db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('seq')).where('changed_utc', '<', beforeUtc).executeTakeFirst();
      const through = Number(last?.seq ?? 0);
      if (through === 0) return 0;
      await db.updateTable('change_log_horizon').set({ pruned_through: through }).where('id', '=', 1).where('pruned_through', '<', through).execute();
      const removed = await db.deleteFrom('change_log').where('seq', '<=', through).executeTakeFirst();
      return Number(removed.numDeletedRows);
    },

  };
}

export type ChangeRepository = ReturnType<typeof createChangeRepository>;
