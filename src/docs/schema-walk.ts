import type { TSchema } from 'typebox';

type Json = Record<string, any>;

/** The JSON types a schema accepts (a union's members, merged), for the WordPress `type` of an argument. */
export function typesOf(schema: Json): string[] {
  if (schema.anyOf) return [...new Set((schema.anyOf as Json[]).flatMap(typesOf))];
  if (schema.const !== undefined) return [typeof schema.const === 'number' ? 'integer' : typeof schema.const];
  if (schema.type) return Array.isArray(schema.type) ? schema.type : [schema.type];
  return [];
}

/** The allowed values of a union of literals, or of an array of them. */
export function enumOf(schema: Json): unknown[] | undefined {
  const members = (schema.anyOf ?? (schema.enum ? schema.enum.map((v: unknown) => ({ const: v })) : undefined)) as Json[] | undefined;
  if (!members || members.some((m) => m.const === undefined)) return undefined;
  return members.map((m) => m.const);
}

/** A deep copy with every `description` passed through `translate`. */
export function translateDescriptions<T>(schema: T, translate: (text: string) => string): T {
  if (Array.isArray(schema)) return schema.map((item) => translateDescriptions(item, translate)) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] = key === 'description' && typeof value === 'string' ? translate(value) : translateDescriptions(value, translate);
  }
  return copy as T;
}

/** Properties of an object schema with whether each is required. */
export function propertiesOf(schema: TSchema | undefined): Array<{ name: string; schema: Json; required: boolean }> {
  const object = schema as Json | undefined;
  if (!object?.properties) return [];
  const required = new Set<string>(object.required ?? []);
  return Object.entries(object.properties as Record<string, Json>).map(([name, s]) => ({ name, schema: s, required: required.has(name) }));
}
