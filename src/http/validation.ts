import type { FastifySchemaCompiler } from 'fastify';
import { type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { type ApiError, invalidParams, missingParams } from '../errors.ts';
import { coerce } from './coercion.ts';
import { textError } from './request-parsing.ts';

type ObjectSchema = TSchema & { properties?: Record<string, TSchema>; required?: string[] };

/**
 * Fastify validator for every route: coerces request values the way WordPress clients send them
 * (strings from query and form bodies, CSV lists, `yes`/`on` booleans), then validates with the route's
 * TypeBox schema. Failures become the reference's errors: missing required parameters first
 * (`rest_missing_callback_param`), then every invalid one named in `data.params` (`rest_invalid_param`).
 * The handler gets the declared parameters only.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema }) => {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
};

/**
 * An input that comes in other than as a request (an imported record) checked as a request's body is: its
 * text as the request hook checks it, then the schema, coerced the same way. Throws the same ApiError.
 */
export function checkInput(schema: TSchema, input: unknown): Record<string, unknown> {
  const bad = textError(input, 'body');
  if (bad) throw bad;
  const result = validatorCompiler({ schema } as never)(input) as { value: Record<string, unknown> } | { error: ApiError };
  if ('error' in result) throw result.error;
  return result.value;
}

type Validate = (input: unknown) => { value: Record<string, unknown> } | { error: ApiError };
// Compiling generates code: once per schema (a route's, or an inline venue's checked per request).
const compiled = new WeakMap<object, Validate>();

function compile(schema: TSchema): Validate {
  const objectSchema = schema as ObjectSchema;
  const properties = objectSchema.properties ?? {};
  const required = objectSchema.required ?? [];
  const validators = Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, Compile(s)]));
  // What the schema does not declare is ignored, as WordPress ignores it, and left out of what the handler
  // gets: the handler's type is the schema's, and a key it does not declare has not been checked (a page
  // that passed its query on to the list once handed it an unchecked `status` or `include`). Schemas that
  // declare no properties, or allow any (`additionalProperties: true`), get their input whole.
  const declared = objectSchema.properties && (schema as { additionalProperties?: unknown }).additionalProperties !== true ? new Set(Object.keys(properties)) : undefined;

  return (input: unknown) => {
    const source = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
    let data: Record<string, unknown>;
    if (declared) {
      data = {};
      for (const key in source) if (declared.has(key)) data[key] = source[key];
    } else data = { ...source };
    const missing = required.filter((name) => data[name] === undefined || data[name] === null);
    if (missing.length > 0) return { error: missingParams(missing) };

    const bad: Record<string, string> = {};
    for (const [name, propertySchema] of Object.entries(properties)) {
      if (data[name] === undefined) continue;
      const value = coerce(data[name], propertySchema);
      if (value === undefined || !validators[name].Check(value)) {
        bad[name] = 'Invalid parameter.';
        continue;
      }
      data[name] = value;
    }
    if (Object.keys(bad).length > 0) return { error: invalidParams(bad) };
    return { value: data };
  };
}
