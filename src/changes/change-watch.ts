import type { Store } from '../store.ts';
import type { ChangeAction, ChangeKind } from './change.repository.ts';

/** What a cache must forget: the records named, or everything (a write that did not say what it changed). */
export type Forget = Array<{ kind: ChangeKind; id: number; action: ChangeAction; seq: number }> | 'all';

// More changes than this since the last look are cheaper to answer by forgetting everything.
const MOST_CHANGES = 1000;

/**
 * Tells this process's caches which records changed, in any process, from the change log (issue 11): a
 * write to one event leaves every other cached record valid. Caches hang on `generation`, which moves
 * whenever something was forgotten: a value read from the database is kept only if no change was learnt
 * between the read's start and its keeping (see db/record-cache.ts), so an older read can never overwrite
 * what a newer change made stale.
 *
 * `sync` costs nothing but the data version read (once per turn of the event loop) until a write lands;
 * then one read of the log's new entries.
 */
export function createChangeWatch(store: Store) {
  const listeners: Array<(forget: Forget) => void> = [];
  let seen: { version: number; unlogged: number; seq: number } | undefined;
  let generation = 0;
  // One look at a time. A caller arriving during a look may need a write the look started too early to see
  // (its own, just committed): it waits for the next look, which all such callers share.
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const look = (): Promise<void> => (running = catchUp().finally(() => (running = undefined)));

  const tell = (forget: Forget) => {
    generation++;
    for (const listener of listeners) listener(forget);
  };
  const { changes } = store.repos;

  async function catchUp(): Promise<void> {
    const [version, unlogged] = await Promise.all([store.dataVersion(), store.unloggedVersion()]);
    if (seen === undefined) {
      // Nothing is cached before the first look: where the log stands is all there is to learn.
      seen = { version, unlogged, seq: await changes.latest() };
      return;
    }
    if (version === seen.version) return;
    if (unlogged !== seen.unlogged) {
      seen = { version, unlogged, seq: await changes.latest() };
      return tell('all');
    }
    const rows = await changes.after(seen.seq, MOST_CHANGES + 1);
    // A pruned stretch of the log (a process idle past the retention) cannot say what it held. Pruning takes
    // the log's oldest entries: when the first new one follows the last one seen, none after it went, and the
    // horizon need not be asked (a round trip a write learnt, on PostgreSQL).
    const follows = rows.length > 0 && Number(rows[0].seq) === seen.seq + 1;
    if (rows.length > MOST_CHANGES || (!follows && (await changes.horizon()) > seen.seq)) {
      seen = { version, unlogged, seq: await changes.latest() };
      return tell('all');
    }
    seen = { version, unlogged, seq: rows.length > 0 ? Number(rows[rows.length - 1].seq) : seen.seq };
    if (rows.length > 0) tell(rows.map((row) => ({ kind: row.kind as ChangeKind, id: row.record_id, action: row.action as ChangeAction, seq: Number(row.seq) })));
  }

  return {
    /** Brings the caches up to the last write committed before the call. */
    sync(): Promise<void> {
      if (queued) return queued;
      if (!running) return look();
      queued = running.catch(() => undefined).then(() => {
        queued = undefined;
        return look();
      });
      return queued;
    },
    /** Moves on each time something is forgotten. */
    generation: () => generation,
    onForget(listener: (forget: Forget) => void): void {
      listeners.push(listener);
    },
  };
}

export type ChangeWatch = ReturnType<typeof createChangeWatch>;
