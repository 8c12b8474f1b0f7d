import { type TSchema, Type } from 'typebox';
import { modifiedQueryFields } from './list-order.ts';
import {
  DateInput, ImageInput, MAX_ID, NonEmptyText, optional, Page, PerPage, StatusInput, StatusList, Text,
} from '../http/schema-types.ts';

/** Shapes shared by the records of several resources. */
export const ImageSchema = Type.Union([
  Type.Object({
    url: Type.String(),
    id: Type.Integer(),
    extension: Type.String(),
    sizes: Type.Object({}, { additionalProperties: true }),
  }, { title: 'Image' }),
  Type.Literal(false),
]);

/** schema.org data, only on single reads. */
export const JsonLdSchema = Type.Object({}, { additionalProperties: true });

const str = Type.String();
/** The keys every post-like record starts with. */
export const postRecordHead = {
  id: Type.Integer(),
  author: str, status: str, date: str, date_utc: str, modified: str, modified_utc: str, url: str,
};
export const globalIdFields = { global_id: str, global_id_lineage: Type.Array(str) };

/** Input fields every post-like record shares. */
export function postInputFields(label: string) {
  return {
    author: Type.Integer({ minimum: 1, maximum: MAX_ID, description: `The ${label} author id` }),
    date: DateInput(`The ${label} publication date, in the site time zone`),
    date_utc: DateInput(`The ${label} publication date, in UTC`),
    description: Text(`The ${label} description (HTML)`),
    excerpt: Text(`The ${label} excerpt (HTML)`),
    slug: NonEmptyText(`The ${label} slug`),
    status: StatusInput,
    image: ImageInput,
  };
}

/** The list query of venues and organizers. */
export function postListQuery(plural: string, searched: string, extra: Record<string, TSchema> = {}) {
  return Type.Object(optional({
    ...extra,
    page: Page,
    per_page: PerPage,
    search: NonEmptyText(`${plural} whose ${searched} contain every word of this text`),
    status: StatusList,
    event: Type.Integer({ minimum: 1, maximum: MAX_ID, description: `${plural} linked to this event` }),
    has_events: Type.Boolean({ description: `true: ${plural.toLowerCase()} linked from a published, future or private event; false: linked from none` }),
    only_with_upcoming: Type.Boolean({ description: `true: only ${plural.toLowerCase()} with an event that has not started yet` }),
    ...modifiedQueryFields,
  }));
}
