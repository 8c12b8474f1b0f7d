import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CHECKED_WRITE, CONDITIONAL, ifMatchOf, sendJson } from '../http/conditional.ts';
import { jsonText } from '../http/json-text.ts';
import { listHeaders } from '../http/pagination.ts';
import { NAMESPACE } from '../http/urls.ts';
import type { Caller } from '../users/roles.ts';
import {
  type TermInput, TermIdParams, type TermListQuery,
  termCreateBody, termListQuery, termListSchema, termRecordSchema, termUpdateBody,
} from './term.schemas.ts';
import type { TermService } from './term.service.ts';

const UPDATE_METHODS = ['POST', 'PUT', 'PATCH'];

const idOf = (request: FastifyRequest) => (request.params as { id: number }).id;
// The auth hook has already answered 401 to an anonymous write.
const callerOf = (request: FastifyRequest) => request.caller as Caller;

/** `/categories` and `/tags`: one implementation, parameterized by the taxonomy. */
/** `lastWrite`: when anything was last written, what reads date themselves by (Last-Modified). */
export function registerTermRoutes(app: FastifyInstance, services: TermService[], lastWrite: () => Promise<Date>) {
  for (const service of services) registerTaxonomyRoutes(app, service, lastWrite);
}

function registerTaxonomyRoutes(app: FastifyInstance, service: TermService, lastWrite: () => Promise<Date>) {
  const { kind } = service;
  const base = `/${NAMESPACE}/${kind.plural}`;
  const item = `${base}/:id(^\\d+)`;
  const record = termRecordSchema(kind);

  app.get(base, { schema: { querystring: termListQuery(kind), response: { 200: termListSchema(kind) } }, config: CONDITIONAL }, async (request, reply) => {
    const since = await lastWrite(); // before the rows: a write after them moves the date past this answer
    const page = await service.list(request.query as TermListQuery);
    const body = {
      rest_url: page.restUrl,
      total: page.total,
      total_pages: page.totalPages,
      [kind.plural]: page.items,
      next_rest_url: page.nextRestUrl,
      previous_rest_url: page.previousRestUrl,
    };
    return sendJson(request, reply.headers(listHeaders(page)), jsonText(body), since, true);
  });

  app.post(base, { schema: { body: termCreateBody(kind), response: { 201: record } } }, async (request, reply) => {
    const term = await service.create(request.body as TermInput, callerOf(request));
    return reply.code(201).header('Location', term.urls.self).send(term);
  });

  app.get(item, { schema: { params: TermIdParams, response: { 200: record } }, config: CONDITIONAL }, async (request, reply) => {
    const since = await lastWrite();
    return sendJson(request, reply, jsonText(await service.get(idOf(request), request.caller ?? null)), since);
  });

  app.route({
    method: UPDATE_METHODS,
    url: item,
    schema: { params: TermIdParams, body: termUpdateBody(kind), response: { 200: record } },
    config: CHECKED_WRITE,
    handler: (request) => service.update(idOf(request), request.body as TermInput, callerOf(request), ifMatchOf(request)),
  });

  app.delete(item, { schema: { params: TermIdParams, response: { 200: record } }, config: CHECKED_WRITE }, (request) =>
    service.remove(idOf(request), callerOf(request), ifMatchOf(request)),
  );
}
