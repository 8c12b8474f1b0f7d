import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { CHECKED_WRITE, CONDITIONAL, ifMatchOf, sendJson } from '../http/conditional.ts';
import { jsonText } from '../http/json-text.ts';
import { listHeaders, postListJson } from '../http/pagination.ts';
import { Flag, idParams, optional, SlugParams } from '../http/schema-types.ts';
import { NAMESPACE } from '../http/urls.ts';
import type { Caller } from '../users/roles.ts';
import type { LinkedPostListQuery, LinkedPostService, RecordRef } from './linked-post.service.ts';

export interface LinkedPostSchemas {
  create: TSchema;
  update: TSchema;
  list: TSchema;
  record: TSchema;
}

const DeleteQuery = Type.Object(optional({ force: Flag('Delete permanently instead of moving to the trash') }));
const UPDATE_METHODS = ['POST', 'PUT', 'PATCH'] as const;

type Body = Record<string, unknown>;
const refOf = (request: FastifyRequest): RecordRef => {
  const params = request.params as { id?: number; slug?: string };
  return params.slug !== undefined ? { slug: params.slug } : { id: params.id as number };
};
// The auth hook has already answered 401 to an anonymous write.
const callerOf = (request: FastifyRequest) => request.caller as Caller;

/** The routes of a venue-like resource: collection, by id (digits only) and by slug. */
/** `lastWrite`: when anything was last written, what reads date themselves by (Last-Modified). */
export function registerLinkedPostRoutes(
  app: FastifyInstance, plural: string, service: LinkedPostService, schemas: LinkedPostSchemas, lastWrite: () => Promise<Date>,
) {
  const base = `/${NAMESPACE}/${plural}`;
  const list = Type.Object({
    [plural]: Type.Array(schemas.record),
    rest_url: Type.String(),
    next_rest_url: Type.Optional(Type.String()),
    previous_rest_url: Type.Optional(Type.String()),
    total: Type.Integer(),
    total_pages: Type.Integer(),
  }, { title: `${plural[0].toUpperCase()}${plural.slice(1, -1)}List` });

  app.get(base, { schema: { querystring: schemas.list, response: { 200: list } }, config: CONDITIONAL }, async (request, reply) => {
    const since = await lastWrite(); // before the rows: a write after them moves the date past this answer
    const page = await service.list(request.query as LinkedPostListQuery, request.caller);
    return sendJson(request, reply.headers(listHeaders(page)), postListJson(plural, page), since, true);
  });

  app.post(base, { schema: { body: schemas.create, response: { 201: schemas.record } } }, async (request, reply) => {
    const record = await service.create(request.body as Body, callerOf(request));
    return reply.code(201).send(record);
  });

  for (const [path, params] of [[`${base}/:id(^\\d+)`, idParams(plural.slice(0, -1))], [`${base}/by-slug/:slug`, SlugParams]] as const) {
    app.get(path, { schema: { params, response: { 200: schemas.record } }, config: CONDITIONAL }, async (request, reply) => {
      const since = await lastWrite();
      return sendJson(request, reply, jsonText(await service.get(refOf(request), request.caller)), since);
    });
    app.route({
      method: [...UPDATE_METHODS],
      url: path,
      schema: { params, body: schemas.update, response: { 200: schemas.record } },
      config: CHECKED_WRITE,
      handler: (request) => service.update(refOf(request), request.body as Body, callerOf(request), ifMatchOf(request)),
    });
    app.delete(path, { schema: { params, querystring: DeleteQuery, response: { 200: schemas.record } }, config: CHECKED_WRITE }, (request) =>
      service.trash(refOf(request), callerOf(request), (request.query as { force?: boolean }).force === true, ifMatchOf(request)),
    );
  }
}
