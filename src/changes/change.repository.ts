import type { Db } from '../db/database.ts';

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
 * transaction changes, and the store writes it just before commit (`flush`), after taking the lock that
 * orders commits, so sequence numbers follow commit order and a reader never skips a change still in flight.
 */
export function createChangeRepository(db: Db) {
  const noted: Change[] = [];
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
      await db.insertInto('change_log').values(rows).execute();
      return true;
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
