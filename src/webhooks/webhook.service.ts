import type { Config } from '../config.ts';
import { ApiError, forbidden, invalidParam, notFound } from '../errors.ts';
import type { Store } from '../store.ts';
import { type Caller, canManageWebhooks } from '../users/roles.ts';
import { newSecret } from './signature.ts';
import { refusedTarget } from './target-check.ts';
import type { DeliveryRow, WebhookRow } from './webhook.repository.ts';
import type { WebhookInput } from './webhook.schemas.ts';

const toWebhook = (row: WebhookRow) => ({
  id: row.id,
  url: row.url,
  kinds: row.kinds === '' ? [] : row.kinds.split(','),
  actions: row.actions === '' ? [] : row.actions.split(','),
  category: row.category_id,
  enabled: row.enabled === 1,
  disabled_reason: row.disabled_reason,
  created_utc: row.created_utc,
});

export const messageId = (delivery: Pick<DeliveryRow, 'webhook_id' | 'change_seq'>) => `msg_${delivery.webhook_id}_${delivery.change_seq}`;

/** Webhook subscriptions over the API and the CLI: administrators only; the secret is shown once. */
export function createWebhookService(deps: { store: Store; config: Config }) {
  const { store, config } = deps;
  const repo = store.repos.webhooks;

  const allowed = (caller: Caller | null) => {
    if (!canManageWebhooks(caller)) throw forbidden(caller !== null);
  };
  async function load(id: number) {
    const row = await repo.find(id);
    if (!row) throw notFound('rest_webhook_invalid', 'No webhook subscription has this id.');
    return row;
  }
  async function columns(input: WebhookInput) {
    const out: Partial<WebhookRow> = {};
    if (input.url !== undefined) {
      const refused = await refusedTarget(input.url, config.webhooks.allowPrivate);
      if (refused) throw invalidParam('url', `The target cannot be used: ${refused}.`);
      out.url = input.url;
    }
    if (input.kinds !== undefined) out.kinds = [...new Set(input.kinds)].join(',');
    if (input.actions !== undefined) out.actions = [...new Set(input.actions)].join(',');
    if (input.category !== undefined) {
      if (input.category !== null && !(await store.repos.terms.findById('tribe_events_cat', input.category))) {
        throw invalidParam('category', `No category has the id ${input.category}.`);
      }
      out.category_id = input.category;
    }
    if (input.enabled !== undefined) Object.assign(out, { enabled: input.enabled ? 1 : 0, ...(input.enabled ? { disabled_reason: '' } : {}) });
    return out;
  }

  return {
    async list(caller: Caller | null) {
      allowed(caller);
      return { webhooks: (await repo.list()).map(toWebhook) };
    },

    async get(id: number, caller: Caller | null) {
      allowed(caller);
      return toWebhook(await load(id));
    },

    /** Deliveries start with the changes made after the subscription: its cursor is the log's end now. */
    async create(input: WebhookInput & { url: string }, caller: Caller | null) {
      allowed(caller);
      const secret = newSecret();
      await store.repos.changes.settle(true); // the changes committed before now get their place before the cursor is read
      const id = await repo.insert({
        url: '', kinds: '', actions: '', category_id: null, enabled: 1, disabled_reason: '', ...(await columns(input)),
        secret, cursor: await store.repos.changes.latest(), created_utc: new Date().toISOString(),
      });
      return { ...toWebhook(await load(id)), secret };
    },

    async update(id: number, input: WebhookInput, caller: Caller | null) {
      allowed(caller);
      await load(id);
      await repo.update(id, await columns(input));
      return toWebhook(await load(id));
    },

    async remove(id: number, caller: Caller | null) {
      allowed(caller);
      const row = await load(id);
      await repo.remove(id);
      return toWebhook(row);
    },

    /** Deliveries newest first, each with its tries. */
    async deliveries(id: number, page: number, perPage: number, caller: Caller | null) {
      allowed(caller);
      await load(id);
      const [rows, total] = await Promise.all([repo.deliveries(id, perPage, (page - 1) * perPage), repo.countDeliveries(id)]);
      const attempts = await repo.attemptsOf(rows.map((row) => row.id));
      return {
        deliveries: rows.map((row) => ({
          id: row.id,
          message_id: messageId(row),
          change: { cursor: String(row.change_seq), kind: row.kind, id: row.record_id, action: row.action, changed_utc: row.changed_utc },
          status: row.status,
          attempts: attempts.filter((a) => a.delivery_id === row.id).map(({ attempted_utc, status, error, duration_ms }) => ({ attempted_utc, status, error, duration_ms })),
          next_attempt_utc: row.status === 'pending' ? row.next_attempt_utc : null,
          delivered_utc: row.delivered_utc === '' ? null : row.delivered_utc,
        })),
        total,
        total_pages: Math.ceil(total / perPage),
      };
    },

    /** Sends a delivery again, now, with the same webhook-id (a receiver that lost it asks for it). */
    async redeliver(id: number, deliveryId: number, caller: Caller | null) {
      allowed(caller);
      const delivery = await repo.findDelivery(id, deliveryId);
      if (!delivery) throw new ApiError(404, 'rest_webhook_delivery_invalid', 'This subscription has no delivery with this id.');
      await repo.redeliver(deliveryId, new Date().toISOString());
      return { redelivering: true, message_id: messageId(delivery) };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
