import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { NAMESPACE } from '../http/urls.ts';
import {
  DeliveryList, DeliveryListQuery, DeliveryParams, WebhookCreateBody, type WebhookInput, WebhookIdParams, WebhookList, WebhookSchema, WebhookUpdateBody,
} from './webhook.schemas.ts';
import type { WebhookService } from './webhook.service.ts';

const ADMIN = { errors: { 403: 'Only administrators manage webhooks' } };
const Redelivery = Type.Object({ redelivering: Type.Boolean(), message_id: Type.String() }, { title: 'WebhookRedelivery' });

/** `/webhooks`: subscriptions, their deliveries and redelivery (administrators). */
export function registerWebhookRoutes(app: FastifyInstance, webhooks: WebhookService) {
  const base = `/${NAMESPACE}/webhooks`;
  const item = `${base}/:id(^\\d+)`;
  const idOf = (params: unknown) => (params as { id: number }).id;

  app.get(base, { schema: { response: { 200: WebhookList } }, config: { ...ADMIN, summary: 'Webhook subscriptions (administrators)' } }, (request) => webhooks.list(request.caller));
  app.post(base, { schema: { body: WebhookCreateBody, response: { 201: WebhookSchema } }, config: { ...ADMIN, summary: 'Subscribe a URL to changes; the answer holds the signing secret, shown only once' } },
    async (request, reply) => reply.code(201).send(await webhooks.create(request.body as WebhookInput & { url: string }, request.caller)));
  app.get(item, { schema: { params: WebhookIdParams, response: { 200: WebhookSchema } }, config: ADMIN }, (request) => webhooks.get(idOf(request.params), request.caller));
  app.route({
    method: ['POST', 'PUT', 'PATCH'],
    url: item,
    schema: { params: WebhookIdParams, body: WebhookUpdateBody, response: { 200: WebhookSchema } },
    config: ADMIN,
    handler: (request) => webhooks.update(idOf(request.params), request.body as WebhookInput, request.caller),
  });
  app.delete(item, { schema: { params: WebhookIdParams, response: { 200: WebhookSchema } }, config: ADMIN }, (request) => webhooks.remove(idOf(request.params), request.caller));
  app.get(`${item}/deliveries`, { schema: { params: WebhookIdParams, querystring: DeliveryListQuery, response: { 200: DeliveryList } }, config: { ...ADMIN, summary: 'Deliveries of a subscription, newest first, each with its tries' } },
    (request) => {
      const query = request.query as { page?: number; per_page?: number };
      return webhooks.deliveries(idOf(request.params), query.page ?? 1, Math.min(query.per_page ?? 10, 100), request.caller);
    });
  app.post(`${item}/deliveries/:delivery(^\\d+)/redeliver`, { schema: { params: DeliveryParams, response: { 200: Redelivery } }, config: { ...ADMIN, summary: 'Send a delivery again now, with the same webhook-id' } },
    async (request, reply) => {
      const params = request.params as { id: number; delivery: number };
      return reply.send(await webhooks.redeliver(params.id, params.delivery, request.caller));
    });
}
