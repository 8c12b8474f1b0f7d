import type { Config } from '../config.ts';
import { ApiError, forbidden } from '../errors.ts';
import type { Store } from '../store.ts';
import { DateTime } from 'luxon';
import { stampOf } from '../time/clock.ts';
import type { Caller } from '../users/roles.ts';
import type { ChangeAction, ChangeKind } from './change.repository.ts';
import type { ChangeFeedQueryInput } from './change.schemas.ts';

/** What the feed needs of a resource: its records as this caller may see them, by id (absent: not visible). */
export interface RecordSource {
  recordsFor(ids: number[], caller: Caller | null): Promise<Map<number, unknown>>;
}

/** A change as the log holds it, wherever it is read from (the log, or a webhook delivery). */
export interface ChangeRow {
  seq: number;
  kind: string;
  record_id: number;
  action: string;
  changed_utc: string;
  user_id: number | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The sync feed: changes in order from a cursor, each with its record as the API would return it to the
 * caller now, or null (a tombstone) for a record deleted or out of the caller's sight, so a mirror that
 * applies them in order ends equal to the lists.
 */
export function createChangeService(deps: { store: Store; config: Config; sources: Record<ChangeKind, RecordSource> }) {
  const { store, config, sources } = deps;

  /** Changes as the feed and webhooks send them: each with its record as `caller` may see it now, or null. */
  async function entries(rows: ChangeRow[], caller: Caller | null) {
    const records = new Map<string, Map<number, unknown>>();
    for (const kind of Object.keys(sources) as ChangeKind[]) {
      const ids = [...new Set(rows.filter((row) => row.kind === kind).map((row) => row.record_id))];
      if (ids.length > 0) records.set(kind, await sources[kind].recordsFor(ids, caller));
    }
    return rows.map((row) => ({
      cursor: String(row.seq),
      kind: row.kind as ChangeKind,
      id: row.record_id,
      action: row.action as ChangeAction,
      changed_utc: row.changed_utc,
      user: row.user_id,
      record: records.get(row.kind)?.get(row.record_id) ?? null,
    }));
  }

  return {
    async feed(query: ChangeFeedQueryInput, caller: Caller | null) {
      if (caller === null) throw forbidden(false);
      const after = Number(query.after ?? 0);
      const limit = query.limit ?? 100;
      const horizon = await store.repos.changes.horizon();
      if (after < horizon) {
        throw new ApiError(410, 'rest_changes_cursor_expired', `Changes up to ${horizon} are no longer kept: read the lists again, then follow the feed from the cursor they were read at.`, { oldest_cursor: String(horizon) });
      }
      // Every change committed before this request is in the log, in its place, before it is read.
      await store.repos.changes.settle(true);
      const rows = await store.repos.changes.after(after, limit + 1);
      const page = rows.slice(0, limit);
      return { changes: await entries(page, caller), next_cursor: String(page.at(-1)?.seq ?? after), more: rows.length > limit };
    },

    entries,

    /** Drops changes older than the retention; the cursors before them answer 410 from then on. */
    // Not a versioned transaction: pruning the log changes no record, so it must not empty the caches.
    prune: (now = Date.now()) => store.repos.changes.prune(stampOf(DateTime.fromMillis(now - config.changeRetentionDays * DAY_MS), 'UTC').utc),
  };
}

export type ChangeService = ReturnType<typeof createChangeService>;
