import { ErrorSchema } from '../errors.ts';
import type { Urls } from '../http/urls.ts';
import { TermSchema } from '../terms/term.schemas.ts';
import type { RegisteredRoute } from './route-registry.ts';
import { propertiesOf, translateDescriptions } from './schema-walk.ts';

type Json = Record<string, any>;

const WRITES = new Set(['POST', 'PUT', 'PATCH']);
const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid or missing parameters',
  401: 'Authentication needed, or a wrong credential',
  403: 'The caller may not do this, or may not see this record',
  404: 'No such record, or a page past the end of the list',
  410: 'The record is already in the trash',
  413: 'The request body is too large',
  415: 'The request body is neither JSON nor form data',
  429: 'Too many requests from this client: wait for Retry-After',
  503: 'The database is not available (down, restarting or full): nothing was stored; try again after Retry-After',
};
const NOT_MODIFIED = 'Not modified: the copy that If-None-Match or If-Modified-Since names is current (no body)';

/** Titled schemas become components, referenced wherever they occur: one definition per shape. */
function componentize(schema: Json, components: Record<string, Json>): Json {
  if (Array.isArray(schema)) return schema.map((s) => componentize(s, components)) as unknown as Json;
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = componentize(value, components);
  if (typeof schema.title === 'string' && schema.type === 'object') {
    components[schema.title] ??= copy;
    return { $ref: `#/components/schemas/${schema.title}` };
  }
  return copy;
}

function errorStatuses(route: RegisteredRoute, method: string): number[] {
  const statuses = [400, 401];
  const single = route.path.includes('{');
  if (single || WRITES.has(method) || method === 'DELETE') statuses.push(403);
  if (single || method === 'GET') statuses.push(404);
  if (method === 'DELETE' && single) statuses.push(410);
  if (WRITES.has(method)) statuses.push(413, 415);
  statuses.push(429); // every route counts against the caller's budget
  statuses.push(503); // every route reads or writes the database
  return statuses;
}

const operationId = (method: string, path: string) =>
  method.toLowerCase() +
  path.split('/').filter(Boolean).map((part) => part.replace(/[{}]/g, '').replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase())).join('');

/**
 * The OpenAPI 3.1 document of the API, generated from the schemas that validate requests and serialize
 * responses, so the two cannot drift. OpenAPI 3.1 takes JSON Schema as it is, so the schemas go in unchanged.
 */
export function openApiDocument(routes: RegisteredRoute[], urls: Urls, translate: (text: string) => string, version: string) {
  const components: Record<string, Json> = {};
  const use = (schema: unknown) => componentize(translateDescriptions(schema as Json, translate), components);
  use(TermSchema);
  const errorRef = use(ErrorSchema);

  const paths: Record<string, Json> = {};
  for (const route of routes) {
    for (const method of route.methods) {
      const write = WRITES.has(method);
      const parameters = [
        ...propertiesOf(route.schema.params).map((p) => ({ name: p.name, in: 'path', required: true, description: translate(p.schema.description ?? ''), schema: use(p.schema) })),
        ...(write ? [] : propertiesOf(route.schema.querystring)).map((p) => ({
          name: p.name, in: 'query', required: p.required, description: translate(p.schema.description ?? ''), schema: use(p.schema),
          ...(p.schema.type === 'array' ? { style: 'form', explode: true } : {}),
        })),
      ];
      const responses: Json = {};
      for (const [status, schema] of Object.entries(route.schema.response ?? {})) {
        responses[status] = { description: translate(status === '201' ? 'Created' : 'OK'), content: { 'application/json': { schema: use(schema) } } };
      }
      for (const [type, description] of Object.entries(route.alternatives ?? {})) {
        if (responses['200']) responses['200'].content[type] = { schema: { type: 'string', description: translate(description) } };
      }
      if (route.notModified) responses['304'] = { description: translate(NOT_MODIFIED) };
      for (const status of errorStatuses(route, method)) {
        responses[status] = { description: translate(ERROR_TEXT[status]), content: { 'application/json': { schema: errorRef } } };
      }
      for (const [status, description] of Object.entries(route.errors ?? {})) {
        responses[status] = { description: translate(description), content: { 'application/json': { schema: errorRef } } };
      }
      const body = write && route.schema.body ? use(route.schema.body) : undefined;
      (paths[route.path] ??= {})[method.toLowerCase()] = {
        operationId: operationId(method, route.path),
        tags: [route.path.split('/')[1] || 'index'],
        ...(route.summary ? { summary: translate(route.summary) } : {}),
        ...(parameters.length ? { parameters } : {}),
        ...(body ? { requestBody: { content: { 'application/json': { schema: body }, 'application/x-www-form-urlencoded': { schema: body } } } } : {}),
        responses,
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      version,
      title: 'cal-events REST API',
      description: translate('Events, venues, organizers, categories and tags of a calendar, compatible with The Events Calendar REST API v1.'),
    },
    servers: [{ url: urls.api }],
    paths,
    components: { schemas: components },
  };
}
