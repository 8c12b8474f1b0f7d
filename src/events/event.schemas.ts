import { isIanaZone } from '../time/iana-zone.ts';
import { Type } from 'typebox';
import { geoQueryFields } from '../geo/geo.ts';
import { modifiedQueryFields } from '../posts/list-order.ts';
import Format from 'typebox/format';
import {
  DateInput, Flag, Id, MAX_ID, NonEmptyText, optional, Page, PerPage, StatusList, Text, UrlOrEmpty,
} from '../http/schema-types.ts';
import {
  globalIdFields, ImageSchema, JsonLdSchema, postInputFields, postRecordHead,
} from '../posts/record.schemas.ts';
import { EmbeddedTermSchema } from '../terms/term.schemas.ts';
import { OrganizerSchema } from '../organizers/organizer.schemas.ts';
import { VenueSchema } from '../venues/venue.schemas.ts';
import { RecurrenceSchema, SeriesSchema } from '../recurrence/recurrence.schemas.ts';

/**
 * An IANA zone, a `UTC+5`/`UTC-03:30` offset as the reference stores them, or empty (the site's). Offsets
 * go to ±14 hours, as real ones do, in the forms Luxon reads (it has no `UTC+0530`).
 */
export function isTimezone(value: string): boolean {
  return value === '' || value === 'UTC' || isIanaZone(value) || /^UTC[+-](0?\d|1[0-4])(:[0-5]\d)?$/.test(value);
}
Format.Set('cal-timezone', isTimezone);

const TermList = (taxonomy: string) =>
  Type.Array(Type.Union([Type.Integer({ minimum: 1 }), Type.String(), Type.Object({})]), {
    description: `${taxonomy} ids, slugs or names (unknown names are created), as an array or a CSV string; empty removes all`,
  });

const OrganizerInput = (description: string) =>
  Type.Union([Type.Integer({ minimum: 0 }), Type.String(), Type.Object({}), Type.Array(Type.Unknown())], { description });

const Title = NonEmptyText('The event title');

const fields = optional({
  ...postInputFields('event'),
  description: Text('The event description (HTML); empty clears it'),
  title: Title,
  start_date: DateInput('The event start, wall-clock time in the event time zone'),
  end_date: DateInput('The event end, wall-clock time in the event time zone'),
  timezone: Type.String({ format: 'cal-timezone', description: 'The event time zone (IANA name or UTC offset); empty for the site time zone' }),
  all_day: Flag('Whether the event lasts the whole day'),
  cost: Type.Union([Type.String(), Type.Number(), Type.Array(Type.Union([Type.String(), Type.Number()]))], {
    description: 'The event cost: a string like "$10" or "10 - 20 EUR", or an array of them',
  }),
  website: UrlOrEmpty('The event website URL, or empty'),
  show_map: Flag('Whether a map is shown'),
  show_map_link: Flag('Whether a map link is shown'),
  hide_from_listings: Flag('Whether the event is hidden from lists'),
  sticky: Flag('Whether the event sticks to the top of calendar views'),
  featured: Flag('Whether the event is featured'),
  categories: TermList('Category'),
  tags: TermList('Tag'),
  venue: Type.Union([Type.Integer({ minimum: 0 }), Type.String(), Type.Object({}), Type.Array(Type.Unknown())], {
    description: 'A venue id, {id}, or an object of venue fields (created, or the existing duplicate reused); 0 or empty removes it',
  }),
  organizer: OrganizerInput('Organizer ids (array or CSV), {id} objects, or objects of organizer fields; empty removes them'),
  // The reference's own MCP client sends the plural (which the reference drops): taken, unless `organizer` is sent too.
  organizers: OrganizerInput('An alias of organizer, used when organizer is not sent'),
  password: Text('The event password; empty removes it'),
  recurrence: Type.Union([RecurrenceSchema, Type.Null()], {
    description: 'Makes the event a recurring series (its occurrences are events whose post_parent is this one); null makes it a single event again',
  }),
  recurrence_scope: Type.Union([Type.Literal('occurrence'), Type.Literal('following')], {
    description: 'Updating an occurrence: this one alone (default; it becomes an override), or this and the following (a new series from here)',
  }),
});

export const EventCreateBody = Type.Object({
  ...fields,
  title: Title,
  start_date: DateInput('The event start, wall-clock time in the event time zone'),
  end_date: DateInput('The event end, wall-clock time in the event time zone'),
});
export const EventUpdateBody = Type.Object(fields);

const Context = Type.Union([Type.Literal('view'), Type.Literal('edit')], {
  description: 'view, or edit: editors see password-protected events whole',
});
const IdList = (description: string) => Type.Array(Id, { description });
export const EventListQuery = Type.Object(optional({
  page: Page,
  per_page: PerPage,
  start_date: DateInput('Events that start on or after this date (whole day unless strict_dates)'),
  end_date: DateInput('Events that end on or before this date (whole day unless strict_dates)'),
  starts_before: DateInput('Events that start before this date'),
  starts_after: DateInput('Events that start after this date'),
  ends_before: DateInput('Events that end before this date'),
  ends_after: DateInput('Events that end after this date'),
  strict_dates: Flag('Use the given times as they are instead of whole days'),
  search: NonEmptyText('Events whose title, description or excerpt contains this text'),
  categories: Type.Array(Type.Union([Id, NonEmptyText('Category id or slug')]), { description: 'Events in any of these categories (ids or slugs)' }),
  tags: Type.Array(Type.Union([Id, NonEmptyText('Tag id or slug')]), { description: 'Events with any of these tags (ids or slugs)' }),
  venue: IdList('Events at any of these venues'),
  organizer: IdList('Events with any of these organizers'),
  featured: Flag('Only featured (true) or only not featured (false) events'),
  status: StatusList,
  ...geoQueryFields,
  include: IdList('Only these event ids; drops every date filter'),
  post_parent: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Events whose parent is this event (the occurrences of a series)' }),
  hide_subsequent_recurrences: Flag('Only the first matching event of each recurring series'),
  ticketed: Flag('Needs the ticketing module when true'),
  ...modifiedQueryFields,
  password: Text('Shows password-protected events with this password in full'),
  context: Context,
}));

export const EventReadQuery = Type.Object(optional({ password: Text('The event password'), context: Context }));
export const EventDeleteQuery = Type.Object(optional({
  force: Flag('Delete permanently instead of moving to the trash (editors and above)'),
  password: Text('The event password'),
}));

const str = Type.String();
const DateDetails = Type.Object({ year: str, month: str, day: str, hour: str, minutes: str, seconds: str }, { title: 'DateDetails' });
export const CostDetailsSchema = Type.Object({
  currency_symbol: str, currency_code: str, currency_position: str, values: Type.Array(str),
}, { title: 'CostDetails' });
const nullableFlag = Type.Union([Type.Boolean(), Type.Null()]);

const { id, ...recordHeadAfterId } = postRecordHead;
export const EventSchema = Type.Object({
  id,
  ...globalIdFields,
  ...recordHeadAfterId,
  rest_url: str, title: str, description: str, excerpt: str, slug: str, image: ImageSchema,
  all_day: nullableFlag,
  start_date: str, start_date_details: DateDetails, end_date: str, end_date_details: DateDetails,
  utc_start_date: str, utc_start_date_details: DateDetails, utc_end_date: str, utc_end_date_details: DateDetails,
  timezone: str, timezone_abbr: str, cost: str, cost_details: CostDetailsSchema, website: str,
  show_map: nullableFlag, show_map_link: nullableFlag, hide_from_listings: nullableFlag, sticky: nullableFlag, featured: nullableFlag,
  categories: Type.Array(EmbeddedTermSchema), tags: Type.Array(EmbeddedTermSchema),
  venue: Type.Union([VenueSchema, Type.Array(VenueSchema)]),
  organizer: Type.Array(OrganizerSchema),
  custom_fields: Type.Array(Type.Unknown()),
  recurrence: Type.Union([RecurrenceSchema, Type.Null()]),
  series: Type.Union([SeriesSchema, Type.Null()], { description: 'The series this event is or belongs to; null for a single event' }),
  json_ld: Type.Optional(JsonLdSchema),
  distance: Type.Optional(Type.Number({ description: 'Kilometres from the geoloc_lat/geoloc_lng centre to the venue (lists with a centre only)' })),
}, { title: 'Event' });
