import { Type } from 'typebox';
import { NonEmptyText, optional, Text, UrlOrEmpty } from '../http/schema-types.ts';
import {
  globalIdFields, ImageSchema, JsonLdSchema, postInputFields, postListQuery, postRecordHead,
} from '../posts/record.schemas.ts';

const fields = optional({
  ...postInputFields('organizer'),
  phone: Text('The organizer phone number'),
  website: UrlOrEmpty('The organizer website URL, or empty'),
  // Not format-checked: the reference accepts any text here (the format only names it an e-mail).
  email: Type.String({ format: 'cal-email-text', description: 'The organizer e-mail address' }),
});

export const OrganizerCreateBody = Type.Object({ organizer: NonEmptyText('The organizer name'), ...fields });
export const OrganizerUpdateBody = Type.Object({ ...fields, ...optional({ organizer: NonEmptyText('The organizer name') }) });

export const OrganizerListQuery = postListQuery('Organizers', 'name, description, phone, e-mail or website');

const str = Type.String();
export const OrganizerSchema = Type.Object({
  ...postRecordHead,
  organizer: str, description: str, excerpt: str, slug: str, image: ImageSchema,
  phone: str, website: str, email: str,
  json_ld: Type.Optional(JsonLdSchema),
  ...globalIdFields,
}, { title: 'Organizer' });
