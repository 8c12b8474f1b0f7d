import type { FastifySerializerCompiler } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';

type Serialize = (data: unknown) => string;
const compiled = new WeakMap<object, Serialize>();

/**
 * Fastify's serializer for response schemas (fast-json-stringify, as its default), compiled once per schema
 * in the process rather than once per route and app: most routes send text already (the schemas document
 * them), and compiling every route's at each start took half of an app's `ready`. Shared schemas
 * (`app.addSchema`) are not passed to it: the app has none, and a `$ref` to one would fail at `ready`.
 */
export const serializerCompiler: FastifySerializerCompiler<object> = ({ schema }) => {
  let serialize = compiled.get(schema);
  if (!serialize) {
    serialize = fastJsonStringify(schema as never) as Serialize;
    compiled.set(schema, serialize);
  }
  return serialize;
};
