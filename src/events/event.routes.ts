import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { acceptsCalendar, clientGone, sendCalendar } from '../feeds/feed.http.ts';
import { varyOn } from '../http/vary.ts';
import type { FeedService } from '../feeds/feed.service.ts';
import { CHECKED_WRITE, CONDITIONAL, ifMatchOf, sendJson, sendRecordText } from '../http/conditional.ts';
import { listHeaders, postListJson } from '../http/pagination.ts';
import { idParams, SlugParams } from '../http/schema-types.ts';
import { NAMESPACE } from '../http/urls.ts';
import type { RecordRef } from '../linked-posts/linked-post.service.ts';
import type { Caller } from '../users/roles.ts';
import type { EventInput } from './event-input.ts';
import type { EventListQuery } from './event-list.ts';
import {
  EventCreateBody, EventDeleteQuery, EventListQuery as EventListQuerySchema, EventReadQuery, EventSchema, EventUpdateBody,
} from './event.schemas.ts';
import type { EventReadOptions, EventService } from './event.service.ts';

const IdParams = idParams('event');
const EventList = Type.Object({
  events: Type.Array(EventSchema),
  rest_url: Type.String(),
  next_rest_url: Type.Optional(Type.String()),
  previous_rest_url: Type.Optional(Type.String()),
  total: Type.Integer(),
  total_pages: Type.Integer(),
}, { title: 'EventList' });


const refOf = (request: FastifyRequest): RecordRef => {
  const params = request.params as { id?: number; slug?: string };
  return params.slug !== undefined ? { slug: params.slug } : { id: params.id as number };
};
// The auth hook has already answered 401 to an anonymous write.
const callerOf = (request: FastifyRequest) => request.caller as Caller;

// The list answers iCalendar too (same filters, rights and records): documented beside its JSON.
const CALENDAR = {
  alternatives: { 'text/calendar': 'With Accept: text/calendar, the same events as an iCalendar feed (RFC 5545): every match, not paged, up to CAL_FEED_MAX_EVENTS; without date filters it starts 30 days back' },
  ...CONDITIONAL,
};

/** `lastWrite`: when anything was last written, what reads date themselves by (Last-Modified). */
export function registerEventRoutes(app: FastifyInstance, events: EventService, feeds: FeedService, lastWrite: () => Promise<Date>) {
  const base = `/${NAMESPACE}/events`;

  app.get(base, { schema: { querystring: EventListQuerySchema, response: { 200: EventList } }, config: CALENDAR }, async (request, reply) => {
    const query = request.query as EventListQuery;
    if (acceptsCalendar(request.headers.accept)) return sendCalendar(request, reply, await feeds.calendar({ query, caller: request.caller, gone: clientGone(reply) }));
    const since = await lastWrite(); // before the rows: a write after them moves the date past this answer
    const page = await events.list(query, request.caller);
    return sendJson(request, varyOn(reply, 'Accept').headers(listHeaders(page)), postListJson('events', page), since, true);
  });

  app.post(base, { schema: { body: EventCreateBody, response: { 201: EventSchema } } }, async (request, reply) =>
    sendRecordText(reply, await events.create(request.body as EventInput, callerOf(request)), 201),
  );

  for (const [path, params] of [[`${base}/:id(^\\d+)`, IdParams], [`${base}/by-slug/:slug`, SlugParams]] as const) {
    app.get(path, { schema: { params, querystring: EventReadQuery, response: { 200: EventSchema } }, config: CONDITIONAL }, async (request, reply) => {
      const since = await lastWrite();
      return sendJson(request, reply, await events.get(refOf(request), request.caller, request.query as EventReadOptions), since);
    });
    app.route({
      method: ['POST', 'PUT', 'PATCH'],
      url: path,
      schema: { params, body: EventUpdateBody, response: { 200: EventSchema } },
      config: CHECKED_WRITE,
      handler: async (request, reply) => sendRecordText(reply, await events.update(refOf(request), request.body as EventInput, callerOf(request), ifMatchOf(request))),
    });
    app.delete(path, { schema: { params, querystring: EventDeleteQuery, response: { 200: EventSchema } }, config: CHECKED_WRITE }, async (request, reply) =>
      sendRecordText(reply, await events.trash(refOf(request), callerOf(request), (request.query as { force?: boolean }).force === true, ifMatchOf(request))),
    );
  }
}
