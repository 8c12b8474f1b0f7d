import { type Static, type TSchema, Type } from 'typebox';
import { idParams, MAX_ID, NonEmptyText, optional, Page, PerPage, Text } from '../http/schema-types.ts';
import type { TermKind } from './term.kind.ts';

const str = Type.String();

const TermUrlsSchema = Type.Object({
  self: str,
  collection: str,
  up: Type.Optional(str),
});

const Link = Type.Object({ href: str });
/** WordPress's HAL links of a single term (reference samples 27, 28); lists and deletes have none. */
const TermLinksSchema = Type.Object({
  self: Type.Array(Type.Object({ href: str, targetHints: Type.Object({ allow: Type.Array(str) }) })),
  collection: Type.Array(Link),
  about: Type.Array(Link),
  'wp:post_type': Type.Array(Link),
  curies: Type.Array(Type.Object({ name: str, href: str, templated: Type.Boolean() })),
});
export type TermLinks = Static<typeof TermLinksSchema>;

function termObject(title: string, parent: Record<string, TSchema>) {
  return Type.Object({
    id: Type.Integer(),
    count: Type.Integer(),
    description: str,
    name: str,
    slug: str,
    taxonomy: str,
    ...parent,
    meta: Type.Array(Type.Unknown(), { maxItems: 0 }),
    url: str,
    urls: TermUrlsSchema,
    _links: Type.Optional(TermLinksSchema),
  }, { title });
}

/** A category or tag as its own endpoints return it (reference §1.4 a); tags have no `parent`. */
export const TermSchema = termObject('Term', { parent: Type.Optional(Type.Integer()) });
// The serializer writes optional keys last, so each taxonomy's responses use an exact schema to keep
// `parent` between `taxonomy` and `meta`, where the reference has it.
const CategorySchema = termObject('Category', { parent: Type.Integer() });
const TagSchema = termObject('Tag', {});
export const termRecordSchema = (kind: TermKind) => (kind.hierarchical ? CategorySchema : TagSchema);
export type TermRecord = Static<typeof TermSchema>;

/** A category or tag inside an event (reference §1.4 b): WordPress's raw term plus `id` and `urls`. */
export const EmbeddedTermSchema = Type.Object({
  name: str,
  slug: str,
  term_group: Type.Integer(),
  term_taxonomy_id: Type.Integer(),
  taxonomy: str,
  description: str,
  parent: Type.Integer(),
  count: Type.Integer(),
  filter: str,
  id: Type.Integer(),
  urls: TermUrlsSchema,
}, { title: 'EmbeddedTerm' });
export type EmbeddedTermRecord = Static<typeof EmbeddedTermSchema>;

// At least one character that is not white space: the name is stored trimmed.
const Name = (label: string) => Type.String({ minLength: 1, pattern: '\\S', description: `The ${label} name` });
const ParentInput = Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'The parent category id (0 for none)' });

/** Create: `name` required; `description` and `slug`, when sent, not empty (reference §6.6). */
export function termCreateBody(kind: TermKind) {
  return Type.Object({
    name: Name(kind.label),
    ...optional({
      description: NonEmptyText(`The ${kind.label} description`),
      slug: NonEmptyText(`The ${kind.label} slug`),
      ...(kind.hierarchical ? { parent: ParentInput } : {}),
    }),
  });
}

/**
 * Update: every field optional. An empty `description` is accepted here (it clears it) so that a term
 * read with GET can be sent back unchanged (API.md §5.2); the read shape's other keys are ignored.
 */
export function termUpdateBody(kind: TermKind) {
  return Type.Object(optional({
    name: Name(kind.label),
    description: Text(`The ${kind.label} description`),
    slug: NonEmptyText(`The ${kind.label} slug`),
    ...(kind.hierarchical ? { parent: ParentInput } : {}),
  }));
}

export interface TermInput {
  name?: string;
  description?: string;
  slug?: string;
  parent?: number;
}

const IdList = (description: string) => Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { description });

/** The list query; `parent` only for hierarchical taxonomies (on tags it is an unknown, ignored key). */
export function termListQuery(kind: TermKind) {
  return Type.Object(optional({
    page: Page,
    per_page: PerPage,
    search: NonEmptyText(`Limit to ${kind.plural} whose name or slug contains this text`),
    exclude: IdList(`Leave out these ${kind.label} ids (a CSV string or an array)`),
    include: IdList(`Limit to these ${kind.label} ids (a CSV string or an array); \`exclude\` is then ignored`),
    order: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Sort direction', default: 'asc' }),
    orderby: Type.Union(['id', 'name', 'slug', 'count'].map((key) => Type.Literal(key)), {
      description: `The ${kind.label} attribute to sort by`,
      default: 'name',
    }),
    hide_empty: Type.Boolean({ description: `Hide ${kind.plural} not used by any published event`, default: true }),
    ...(kind.hierarchical ? { parent: Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'Limit to children of this category (0: top level)' }) } : {}),
    post: Type.Integer({ minimum: 1, maximum: MAX_ID, description: `Limit to the ${kind.plural} of this event` }),
    event: Type.Integer({ minimum: 1, maximum: MAX_ID, description: `Limit to the ${kind.plural} of this event (wins over \`post\`)` }),
    slug: NonEmptyText(`Limit to the ${kind.label} with this slug`),
  }));
}

export interface TermListQuery {
  page?: number;
  per_page?: number;
  search?: string;
  exclude?: number[];
  include?: number[];
  order?: 'asc' | 'desc';
  orderby?: 'id' | 'name' | 'slug' | 'count';
  hide_empty?: boolean;
  parent?: number;
  post?: number;
  event?: number;
  slug?: string;
}

/** The envelope, keys in the reference's order for term lists (reference §2.1). */
export function termListSchema(kind: TermKind): TSchema {
  return Type.Object({
    rest_url: str,
    total: Type.Integer(),
    total_pages: Type.Integer(),
    [kind.plural]: Type.Array(termRecordSchema(kind)),
    next_rest_url: Type.Optional(str),
    previous_rest_url: Type.Optional(str),
  }, { title: kind.hierarchical ? 'CategoryList' : 'TagList' });
}

export const TermIdParams = idParams('term');
