import { Type } from 'typebox';
import { Id, idParams, MAX_ID, optional, Page, PerPage } from '../http/schema-types.ts';

export const KINDS = ['event', 'venue', 'organizer', 'category', 'tag'] as const;
export const ACTIONS = ['create', 'update', 'trash', 'restore', 'delete'] as const;

const fields = {
  url: Type.String({ minLength: 1, maxLength: 2000, description: 'Where deliveries are sent (http or https; private and loopback addresses are refused)' }),
  kinds: Type.Array(Type.Union(KINDS.map((k) => Type.Literal(k))), { maxItems: 5, description: 'Only changes of these kinds (empty or absent: all)' }),
  actions: Type.Array(Type.Union(ACTIONS.map((a) => Type.Literal(a))), { maxItems: 5, description: 'Only these actions (empty or absent: all)' }),
  category: Type.Union([Id, Type.Null()], { description: 'Only events in this category (null: no filter)' }),
  enabled: Type.Boolean({ description: 'Whether deliveries are sent (re-enabling a disabled subscription resumes its pending deliveries)' }),
};

export const WebhookCreateBody = Type.Object({ url: fields.url, ...optional({ kinds: fields.kinds, actions: fields.actions, category: fields.category, enabled: fields.enabled }) });
export const WebhookUpdateBody = Type.Object(optional(fields));
export const WebhookIdParams = idParams('webhook subscription');
export const DeliveryParams = Type.Object({ ...WebhookIdParams.properties, delivery: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Numeric id of the delivery' }) });
export const DeliveryListQuery = Type.Object(optional({ page: Page, per_page: PerPage }));

const str = Type.String();
export const WebhookSchema = Type.Object({
  id: Type.Integer(), url: str, kinds: Type.Array(str), actions: Type.Array(str), category: Type.Union([Type.Integer(), Type.Null()]),
  enabled: Type.Boolean(), disabled_reason: str, created_utc: str,
  secret: Type.Optional(Type.String({ description: 'The signing secret (Standard Webhooks), shown only in the answer to the create' })),
}, { title: 'Webhook' });
export const WebhookList = Type.Object({ webhooks: Type.Array(WebhookSchema) }, { title: 'WebhookList' });

const Attempt = Type.Object({ attempted_utc: str, status: Type.Union([Type.Integer(), Type.Null()]), error: str, duration_ms: Type.Integer() }, { title: 'WebhookAttempt' });
const Delivery = Type.Object({
  id: Type.Integer(), message_id: Type.String({ description: 'The webhook-id header it is sent with, the same on every try' }), change: Type.Object({ cursor: str, kind: str, id: Type.Integer(), action: str, changed_utc: str }),
  status: str, attempts: Type.Array(Attempt), next_attempt_utc: Type.Union([str, Type.Null()]), delivered_utc: Type.Union([str, Type.Null()]),
}, { title: 'WebhookDelivery' });
export const DeliveryList = Type.Object({ deliveries: Type.Array(Delivery), total: Type.Integer(), total_pages: Type.Integer() }, { title: 'WebhookDeliveryList' });

export interface WebhookInput {
  url?: string;
  kinds?: string[];
  actions?: string[];
  category?: number | null;
  enabled?: boolean;
}
