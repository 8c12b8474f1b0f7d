import type { FastifyBaseLogger } from 'fastify';
import pLimit from 'p-limit';
import type { ChangeService } from '../changes/change.service.ts';
import type { Config } from '../config.ts';
import type { DbHandle } from '../db/create-db.ts';
import { databaseUnavailable } from '../db/unavailable.ts';
import type { Store } from '../store.ts';
import { refusedTarget } from './target-check.ts';
import { messageId } from './webhook.service.ts';
import { signatureHeaders } from './signature.ts';
import { createWebhookRepository, type DeliveryChange, type DeliveryRow, type WebhookRow } from './webhook.repository.ts';

const BATCH = 500;
const iso = (ms: number) => new Date(ms).toISOString();
const listed = (csv: string) => (csv === '' ? undefined : new Set(csv.split(',')));

/**
 * Sends the change log to webhook subscriptions, from every service process: each tick turns new changes
 * into deliveries (a subscription's cursor moves only if no other process moved it first), then claims due
 * deliveries (one process each: SKIP LOCKED on PostgreSQL, one writer at a time on SQLite), sends them
 * signed, and records the outcome. Deliveries are rows, so nothing acknowledged is lost to a restart or a
 * `kill -9`: a claim lapses after the target's timeout and another tick (or process) sends it again, with
 * the same webhook-id (at least once; receivers deduplicate by it).
 *
 * Webhook bookkeeping is written outside the store's versioned transactions: it is no data a cached read
 * depends on, so it must not empty the caches.
 */
export function createWebhookDispatcher(deps: { database: DbHandle; store: Store; config: Config; changes: ChangeService; log: FastifyBaseLogger }) {
  const { database, store, config, changes, log } = deps;
  const webhooks = createWebhookRepository(database.db, database.dialect);
  const { retrySeconds, pollMs, timeoutMs, allowPrivate } = config.webhooks;
  const claimMs = timeoutMs + 5000;
  const sending = pLimit(4);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  /** The changes a subscription wants: its kinds and actions, and for events its category (deletes always: the category is gone with them). */
  async function wanted(hook: WebhookRow, rows: Awaited<ReturnType<typeof store.repos.changes.after>>): Promise<DeliveryChange[]> {
    const kinds = listed(hook.kinds);
    const actions = listed(hook.actions);
    let picked = rows.filter((row) => (!kinds || kinds.has(row.kind)) && (!actions || actions.has(row.action)));
    if (hook.category_id !== null) {
      const eventIds = picked.filter((row) => row.kind === 'event' && row.action !== 'delete').map((row) => row.record_id);
      const inCategory = new Set(await store.repos.events.idsInTerm(eventIds, hook.category_id));
      picked = picked.filter((row) => row.kind !== 'event' || row.action === 'delete' || inCategory.has(row.record_id));
    }
    return picked.map((row) => ({ change_seq: row.seq, kind: row.kind, record_id: row.record_id, action: row.action, changed_utc: row.changed_utc, user_id: row.user_id }));
  }

  async function fanOut(hooks: WebhookRow[]) {
    if (hooks.length > 0) await store.repos.changes.settle(false);
    for (const hook of hooks) {
      const rows = await store.repos.changes.after(hook.cursor, BATCH);
      if (rows.length === 0) continue;
      const deliveries = await wanted(hook, rows);
      const to = rows[rows.length - 1].seq;
      await database.db.transaction().execute((trx) => createWebhookRepository(trx, database.dialect).fanOut(hook.id, hook.cursor, to, deliveries, iso(Date.now())))
        .catch((error: Error) => log.debug({ err: error }, `webhook ${hook.id}: another process fanned out first`));
    }
  }

  async function send(delivery: DeliveryRow, hook: WebhookRow) {
    const started = Date.now();
    const [entry] = await changes.entries([{ ...delivery, seq: delivery.change_seq }], null);
    const body = JSON.stringify({ type: `${delivery.kind}.${delivery.action}`, timestamp: new Date().toISOString(), data: entry });
    let status: number | null = null;
    let error = '';
    const refused = await refusedTarget(hook.url, allowPrivate);
    if (refused) error = `refused: ${refused}`;
    else {
      try {
        const response = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'cal-events-webhooks', ...signatureHeaders(hook.secret, messageId(delivery), body) },
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        await response.body?.cancel();
        if (status < 200 || status >= 300) error = `HTTP ${status}`;
      } catch (failure) {
        error = (failure as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `unreachable (${(failure as { cause?: { code?: string } }).cause?.code ?? (failure as Error).message})`;
      }
    }
    const now = Date.now();
    const attempt = { attempted_utc: iso(now), status, error, duration_ms: now - started };
    if (error === '') return webhooks.settle(delivery.id, attempt, { status: 'delivered', delivered_utc: iso(now) });
    const tries = delivery.attempts + 1;
    if (tries <= retrySeconds.length) return webhooks.settle(delivery.id, attempt, { status: 'pending', next_attempt_utc: iso(now + retrySeconds[tries - 1] * 1000) });
    await webhooks.settle(delivery.id, attempt, { status: 'failed' });
    // A change that could not be delivered in about a day: the target is gone; stop until someone re-enables it.
    await webhooks.update(hook.id, { enabled: 0, disabled_reason: `delivery ${delivery.id} failed ${tries} times (last: ${error})` });
    log.warn(`webhook ${hook.id} disabled: delivery ${delivery.id} failed ${tries} times (${error})`);
  }

  async function sendDue() {
    for (;;) {
      const now = Date.now();
      // A read first: claiming is a write, and a write a second (a WAL checkpoint now and then) is not free
      // for a service with nothing to send.
      if (!(await webhooks.anyDue(iso(now)))) return;
      const claimed = await webhooks.claim(iso(now), iso(now + claimMs), 20);
      if (claimed.length === 0) return;
      const hooks = new Map((await webhooks.list()).map((hook) => [hook.id, hook]));
      await Promise.all(claimed.map((delivery) => {
        const hook = hooks.get(delivery.webhook_id);
        return hook ? sending(() => send(delivery, hook)) : undefined; // removed meanwhile: its deliveries went with it
      }));
    }
  }

  // While the database cannot serve, every round fails alike: said once, when it begins and when it ends.
  let paused = false;
  const tick = () => {
    running ??= (async () => {
      try {
        const hooks = await webhooks.enabled();
        if (paused) log.info('webhook deliveries resumed: the database answers again');
        paused = false;
        if (hooks.length === 0) return; // no subscription: nothing to turn into deliveries or send
        await fanOut(hooks);
        await sendDue();
      } catch (error) {
        if (!databaseUnavailable(error)) log.error({ err: error }, 'webhook deliveries failed this round');
        else if (!paused) log.warn({ err: error }, 'webhook deliveries paused: the database is not available; nothing is lost, they go on when it answers');
        paused ||= databaseUnavailable(error);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  return {
    start() {
      timer ??= setInterval(() => void tick(), pollMs).unref();
    },
    /** Stops polling and waits for a round in flight. */
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
    tick,
  };
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
