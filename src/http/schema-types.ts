import { type TOptional, type TSchema, Type } from 'typebox';
import Format from 'typebox/format';
import { readsAsDate } from '../time/parse-date.ts';

// Formats checked during syntactic validation, before authentication (the reference's order).
Format.Set('cal-date', readsAsDate);
Format.Set('cal-url-or-empty', (value) => value === '' || isHttpUrl(value));
// Any text: an organizer's e-mail is stored as sent (the reference's); the format names it for the docs.
Format.Set('cal-email-text', () => true);

export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

// Ids are 32-bit on PostgreSQL; a larger number can name nothing, so it is a bad parameter, not a 500.
export const MAX_ID = 2147483647;
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });
/**
 * Whether a number can be a record's id (a whole number from 1 to MAX_ID). Where an id comes in free-form
 * (an event's `{id}` venue, a category named by its digits), any other names no record and is never asked of
 * the database: PostgreSQL refuses a statement with one, where SQLite finds nothing.
 */
export const canBeId = (id: number): boolean => Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID;
/** The `{id}` path parameter (digits only: anything else matches no route). */
export const idParams = (label: string) =>
  Type.Object({ id: Type.Integer({ minimum: 0, maximum: MAX_ID, description: `Numeric id of the ${label}` }) });
export const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, description: 'Slug of the record' }) });

// A page past any list is a 404 anyway; the cap keeps the SQL offset a safe integer.
export const Page = Type.Integer({ minimum: 1, maximum: 10_000_000, default: 1, description: 'The archive page to return' });
export const PerPage = Type.Integer({ minimum: 1, default: 10, description: 'The number of records to return on each page' });
export const Flag = (description: string) => Type.Boolean({ description });
export const Text = (description: string) => Type.String({ description });
// Names and titles of only spaces would be stored as "": they are as empty as the empty string.
export const NonEmptyText = (description: string) => Type.String({ minLength: 1, pattern: '\\S', description });
export const DateInput = (description: string) => Type.String({ format: 'cal-date', description });
export const UrlOrEmpty = (description: string) => Type.String({ format: 'cal-url-or-empty', description });
export const StatusInput = Type.Union(POST_STATUSES.map((s) => Type.Literal(s)), { description: 'Post status' });
// `any` (every status but trash) is what list links echo for editing callers, so it must be accepted back.
export const StatusList = Type.Array(Type.Union([...POST_STATUSES.map((s) => Type.Literal(s)), Type.Literal('any')]), {
  description: 'Post statuses to list, as a CSV string or an array; any means every status but trash',
});
export const ImageInput = Type.Union([Type.Integer({ minimum: 0, maximum: MAX_ID }), Type.String(), Type.Boolean(), Type.Object({})], {
  description: 'Image id, http(s) URL, or an image object as returned (false or 0 removes it)',
});

/** Every field optional: input fields are optional unless a schema names them required on create. */
export function optional<T extends Record<string, TSchema>>(fields: T): { [K in keyof T]: TOptional<T[K]> } {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: TOptional<T[K]>;
  };
}
