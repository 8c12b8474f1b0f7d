import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db, Dialect, WebhookDeliveryTable, WebhookTable } from '../db/database.ts';

export type WebhookRow = Selectable<WebhookTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;
/** What a delivery carries of its change: enough to send it after the change log has pruned it. */
export type DeliveryChange = Pick<DeliveryRow, 'change_seq' | 'kind' | 'record_id' | 'action' | 'changed_utc' | 'user_id'>;

/**
 * Webhook subscriptions, deliveries and attempts (migration 0010). Times here are ISO-8601 UTC strings with
 * milliseconds (retries come seconds apart), compared as text.
 */
export function createWebhookRepository(db: Db, dialect: Dialect) {
  return {
    insert: async (values: Insertable<WebhookTable>): Promise<number> =>
      (await db.insertInto('webhook').values(values).returning('id').executeTakeFirstOrThrow()).id,
    find: (id: number) => db.selectFrom('webhook').selectAll().where('id', '=', id).executeTakeFirst(),
    list: () => db.selectFrom('webhook').selectAll().orderBy('id').execute(),
    update: async (id: number, values: Partial<Insertable<WebhookTable>>) => {
      if (Object.keys(values).length > 0) await db.updateTable('webhook').set(values).where('id', '=', id).execute();
    },
    remove: async (id: number) => Number((await db.deleteFrom('webhook').where('id', '=', id).executeTakeFirst()).numDeletedRows),
    enabled: () => db.selectFrom('webhook').selectAll().where('enabled', '=', 1).orderBy('id').execute(),

    /**
     * Turns changes into deliveries and moves the subscription's cursor from `from` to `to`, only if it is
     * still at `from`: another process that got there first makes this a no-op (false), never a duplicate.
     */
    async fanOut(webhookId: number, from: number, to: number, deliveries: DeliveryChange[], nowIso: string) {
      const moved = await db.updateTable('webhook').set({ cursor: to }).where('id', '=', webhookId).where('cursor', '=', from).executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return false;
      if (deliveries.length > 0) {
        await db.insertInto('webhook_delivery')
          .values(deliveries.map((d) => Object.assign({}, d, { webhook_id: webhookId, status: 'pending', next_attempt_utc: nowIso })))
          .execute();
      }
      return true;
    },

    /** Whether any delivery is due and unclaimed (a cheap read before the claiming write). */
    anyDue: async (nowIso: string) =>
      (await db.selectFrom('webhook_delivery').select('id').where('status', '=', 'pending').where('next_attempt_utc', '<=', nowIso)
        .where('locked_until', '<=', nowIso).limit(1).executeTakeFirst()) !== undefined,

    /**
     * Claims due deliveries for this process until `lockUntil`: pending, due, not claimed by a live process,
     * and the oldest pending one of their record for their subscription (deliveries of one record go in
     * order). On PostgreSQL rows another process is claiming are skipped, not waited for.
     */
    async claim(nowIso: string, lockUntil: string, limit: number) {
      let due = db.selectFrom('webhook_delivery').select('webhook_delivery.id')
        .where('status', '=', 'pending').where('next_attempt_utc', '<=', nowIso).where('locked_until', '<=', nowIso)
        .where('webhook_id', 'in', db.selectFrom('webhook').select('id').where('enabled', '=', 1))
        .where((eb) => eb.not(eb.exists(eb.selectFrom('webhook_delivery as before')
          .select('before.id')
          .whereRef('before.webhook_id', '=', 'webhook_delivery.webhook_id')
          .whereRef('before.kind', '=', 'webhook_delivery.kind')
          .whereRef('before.record_id', '=', 'webhook_delivery.record_id')
          .where('before.status', '=', 'pending')
          .whereRef('before.id', '<', 'webhook_delivery.id'))))
        .orderBy('webhook_delivery.id').limit(limit);
      if (dialect === 'postgres') due = due.forUpdate().skipLocked();
      return db.updateTable('webhook_delivery').set({ locked_until: lockUntil }).where('id', 'in', due).returningAll().execute();
    },

    /** The outcome of one try: an attempt row, and the delivery delivered, rescheduled or failed for good. */
    async settle(deliveryId: number, attempt: { attempted_utc: string; status: number | null; error: string; duration_ms: number }, next: { status: string; next_attempt_utc?: string; delivered_utc?: string }) {
      await db.insertInto('webhook_attempt').values({ delivery_id: deliveryId, ...attempt }).execute();
      await db.updateTable('webhook_delivery')
        .set((eb) => Object.assign({}, next, { attempts: eb('attempts', '+', 1), locked_until: '' }))
        .where('id', '=', deliveryId).execute();
    },

    deliveries: (webhookId: number, limit: number, offset: number) =>
      db.selectFrom('webhook_delivery').selectAll().where('webhook_id', '=', webhookId).orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    countDeliveries: async (webhookId: number) =>
      Number((await db.selectFrom('webhook_delivery').select(sql<number>`count(*)`.as('n')).where('webhook_id', '=', webhookId).executeTakeFirstOrThrow()).n),
    attemptsOf: (deliveryIds: number[]) =>
      deliveryIds.length === 0 ? Promise.resolve([]) : db.selectFrom('webhook_attempt').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('id').execute(),
    findDelivery: (webhookId: number, id: number) =>
      db.selectFrom('webhook_delivery').selectAll().where('webhook_id', '=', webhookId).where('id', '=', id).executeTakeFirst(),
    /** Sends a delivery again from its first try (a delivered one too: the receiver asked for it). */
    redeliver: async (id: number, nowIso: string) => {
      await db.updateTable('webhook_delivery').set({ status: 'pending', next_attempt_utc: nowIso, locked_until: '' }).where('id', '=', id).execute();
    },
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
