import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';

type Schema = TSchema & { type?: string | string[]; anyOf?: Schema[]; items?: Schema };

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/** Booleans as WordPress reads them: `true/false`, `1/0`, `yes/no`, `on/off`, any case. */
export function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/**
 * Lists arrive as `a[]=1&a[]=2`, `a=1&a=2` (already arrays from the query parser), `a=1,2` (CSV), a single
 * value, or form-encoded objects with numeric keys; all become arrays. An empty string is an empty list,
 * which is how a client clears a list on update.
 */
export function toList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') {
    return value.trim() === '' ? [] : value.split(',').map((item) => item.trim());
  }
  if (value && typeof value === 'object' && Object.keys(value).every((key) => /^\d+$/.test(key))) {
    return Object.values(value);
  }
  return [value];
}

const compiled = new WeakMap<object, Validator>();
function check(schema: Schema, value: unknown): boolean {
  let validator = compiled.get(schema);
  if (!validator) {
    validator = Compile(schema);
    compiled.set(schema, validator);
  }
  return validator.Check(value);
}

/** Converts a raw request value towards the schema's type; what cannot be converted is left for the check. */
export function coerce(value: unknown, schema: Schema): unknown {
  if (schema.anyOf) {
    // A value that already fits a member stays as it is (a JSON number is not turned into a string).
    if (schema.anyOf.some((member) => check(member, value))) return value;
    for (const member of schema.anyOf) {
      const candidate = coerce(value, member);
      if (check(member, candidate)) return candidate;
    }
    return value;
  }
  switch (schema.type) {
    case 'integer':
    case 'number':
      if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
      return value;
    case 'boolean':
      return toBoolean(value) ?? value;
    case 'string':
      return typeof value === 'number' ? String(value) : value;
    case 'array': {
      const items = toList(value);
      return schema.items ? items.map((item) => coerce(item, schema.items as Schema)) : items;
    }
    default:
      return value;
  }
}
