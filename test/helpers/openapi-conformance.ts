import type { FastifyInstance } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { API } from './test-app.ts';

type Json = Record<string, any>;
const BASE = 'https://cal-events.test/openapi';

interface Operation {
  method: string;
  pattern: RegExp;
  responses: Record<string, ValidateFunction | undefined>;
}

let operations: Promise<Operation[]> | undefined;
let errorValidator: ValidateFunction | undefined;

/** The document's schemas, compiled once per test process; `$ref`s point into the document itself. */
async function load(app: FastifyInstance): Promise<Operation[]> {
  const doc = (await app.inject({ url: `${API}/doc` })).json() as Json;
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const absolute = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${BASE}#/components/`));
  ajv.addSchema({ $id: BASE, components: absolute(doc.components) });
  errorValidator = ajv.compile(absolute({ $ref: '#/components/schemas/Error' }));
  const result: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    const pattern = new RegExp(`^${API}${path === '/' ? '/?' : path.replace(/\{id\}/g, '\\d+').replace(/\{\w+\}/g, '[^/]+') + '/?'}$`);
    for (const [method, operation] of Object.entries(item)) {
      const responses: Record<string, ValidateFunction> = {};
      for (const [status, response] of Object.entries((operation as Json).responses as Record<string, Json>)) {
        const schema = response.content?.['application/json']?.schema;
        if (schema) responses[status] = ajv.compile(absolute(schema));
      }
      result.push({ method: method.toUpperCase(), pattern, responses });
    }
  }
  return result;
}

/**
 * Every response the API suite receives must be described by the OpenAPI document: its route, method and
 * status, and its body must validate against that response's schema. Unknown routes must be Error bodies.
 */
export async function assertDocumented(app: FastifyInstance, method: string, url: string, status: number, body: unknown, contentType: string) {
  operations ??= load(app);
  const ops = await operations;
  if (!contentType.includes('application/json')) return;
  // Language segments and the WordPress path (`/fr/wp-json/tribe/events/v1/...`) serve the same API.
  const path = url.split('?')[0].replace(/^\/[a-z]{2}(?=\/(?:cal|wp-json)\/)/, '').replace(/^\/wp-json\/tribe\/events\/v1(?=\/|$)/, API);
  // The document describes the namespace; the REST index at `/` is outside it.
  if (!path.startsWith(API)) return;
  const operation = ops.find((op) => op.method === (method === 'HEAD' ? 'GET' : method) && op.pattern.test(path));
  const validate = operation ? operation.responses[String(status)] : errorValidator;
  if (!validate) throw new Error(`undocumented response: ${method} ${path} answered ${status}`);
  if (!validate(body)) {
    throw new Error(`response of ${method} ${path} (${status}) does not match the document: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  }
}
