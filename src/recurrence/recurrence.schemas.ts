import { type Static, Type } from 'typebox';
import { DateInput, Flag, optional } from '../http/schema-types.ts';
import { MAX_DATES, MAX_RULES } from './expand.ts';

/** The most occurrences a preview lists, and its default span when `through` is not given. */
export const PREVIEW_MOST = 1000;
export const PREVIEW_DAYS = 365;

export const RecurrenceSchema = Type.Object({
  rules: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: MAX_RULES, description: `RFC 5545 rules (RRULE values), 1 to ${MAX_RULES}` }),
  ...optional({
    rdates: Type.Array(Type.String(), { maxItems: MAX_DATES, description: 'Extra occurrences, YYYY-MM-DD HH:MM:SS (or a date: at the series time) in the event time zone' }),
    exdates: Type.Array(Type.String(), { maxItems: MAX_DATES, description: 'Occurrences left out, the same way; a date alone leaves out that whole day' }),
  }),
}, { title: 'Recurrence', description: 'When the event recurs: rules, extra dates and exception dates in the event time zone' });

export const SeriesSchema = Type.Object({
  id: Type.Integer({ description: 'The series event (the occurrences\' post_parent)' }),
  rest_url: Type.String(),
  original_start: Type.String({ description: 'The start the rules gave this occurrence (RFC 5545 RECURRENCE-ID), event time zone' }),
  override: Type.Boolean({ description: 'Edited on its own: edits of the series leave it alone' }),
}, { title: 'Series' });

export const PreviewBody = Type.Object({
  start_date: DateInput('The first occurrence start, in the event time zone'),
  end_date: DateInput('The first occurrence end, in the event time zone'),
  recurrence: RecurrenceSchema,
  ...optional({
    timezone: Type.String({ format: 'cal-timezone', description: 'The event time zone (IANA name or UTC offset); empty for the site time zone' }),
    all_day: Flag('Whether the event is all day'),
    through: DateInput(`The last start to list (default: ${PREVIEW_DAYS} days after start_date)`),
    limit: Type.Integer({ minimum: 1, maximum: PREVIEW_MOST, description: `The most occurrences to list (at most ${PREVIEW_MOST})` }),
  }),
});
export type PreviewInput = Static<typeof PreviewBody>;

const str = Type.String();
export const PreviewAnswer = Type.Object({
  occurrences: Type.Array(Type.Object({ start_date: str, end_date: str, utc_start_date: str, utc_end_date: str, timezone_abbr: str })),
  total: Type.Integer({ description: 'How many occurrences are listed' }),
  capped: Type.Boolean({ description: 'True when the limit was reached before the rules or through ended' }),
  warnings: Type.Array(str, { description: 'Times that do not exist in the zone, exceptions that match nothing, a start off its rule' }),
}, { title: 'RecurrencePreview' });
