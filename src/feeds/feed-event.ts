import { type ICalEventData, ICalEventClass, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { isIanaZone } from '../time/iana-zone.ts';
import type { Static } from 'typebox';
import type { EventSchema } from '../events/event.schemas.ts';
import type { FeedEntry } from '../events/event-feed.ts';
import type { OrganizerSchema } from '../organizers/organizer.schemas.ts';
import { plainText } from '../posts/html.ts';
import type { VenueSchema } from '../venues/venue.schemas.ts';
import { wallUntil } from '../recurrence/expand.ts';
import { readStamp } from '../time/clock.ts';

type EventRecord = Static<typeof EventSchema>;
type Venue = Static<typeof VenueSchema>;
type Organizer = Static<typeof OrganizerSchema>;

const STATUS: Record<string, ICalEventStatus> = {
  publish: ICalEventStatus.CONFIRMED,
  future: ICalEventStatus.CONFIRMED,
  private: ICalEventStatus.CONFIRMED,
  draft: ICalEventStatus.TENTATIVE,
  pending: ICalEventStatus.TENTATIVE,
  trash: ICalEventStatus.CANCELLED,
};

/**
 * The zone an event's times are written in: its IANA zone, with a VTIMEZONE; or none (UTC, `…Z`) for `UTC`
 * and for the `UTC+5`-style fixed offsets the API stores, which no calendar app could resolve as a TZID.
 * The instants are the same either way.
 */
export function feedZone(timezone: string): string | null {
  return timezone !== 'UTC' && !timezone.startsWith('UTC') && isIanaZone(timezone) ? timezone : null;
}

/** A UID that stays when the event moves (the reference's changes with its times): its global id, `12@host`. */
export function uidOf(globalId: string): string {
  const match = /^(.*)\?id=(\d+)$/.exec(globalId);
  const safe = (text: string) => text.replace(/[^A-Za-z0-9.-]+/g, '-');
  return match ? `${match[2]}@${safe(match[1])}` : safe(globalId);
}

// URI values are not TEXT, but the library escapes `,` and `;` in them as TEXT: percent-encoded, they need no escape.
const uri = (url: string) => url.replace(/,/g, '%2C').replace(/;/g, '%3B');

const utc = (sql: string) => DateTime.fromSQL(sql, { zone: 'utc' });
const day = (sql: string) => DateTime.fromSQL(sql.slice(0, 10), { zone: 'utc' });

function location(venue: Venue): ICalEventData['location'] {
  const title = [venue.venue, venue.address, venue.city, venue.country].map((part) => part.trim()).filter(Boolean).join(', ');
  const lat = Number(venue.geo_lat);
  const lon = Number(venue.geo_lng);
  const geo = venue.geo_lat != null && venue.geo_lng != null && Number.isFinite(lat) && Number.isFinite(lon) ? { lat, lon } : undefined;
  return title ? { title, geo } : geo ? { geo } : null;
}

/**
 * ORGANIZER is a calendar address (RFC 5545 §3.8.4.3: a URI replies go to; the library writes `mailto:`),
 * and a VEVENT has one at most: the first organizer with an email. One without an email has no address and
 * is left out rather than given a made-up one. CN is a quoted parameter, which cannot hold a double quote
 * or a line break: those are written as RFC 6868 says (`^'`, `^n`, `^^`).
 */
function organizer(organizers: Organizer[]): ICalEventData['organizer'] {
  const first = organizers.find((o) => o.email.trim() !== '');
  if (!first) return null;
  const name = (first.organizer || first.email).replace(/\^/g, '^^').replace(/"/g, "^'").replace(/\r?\n|\r/g, '^n');
  return { name, email: first.email.trim() };
}

/**
 * A series' RRULE, RDATE and EXDATE lines (RFC 5545 §3.8.5), beside a DTSTART in `zone` (or UTC when the
 * feed writes the event in UTC). UNTIL is written in UTC, as §3.3.10 requires beside a DTSTART with a
 * TZID; a listed date alone stands for the series' time of day on it.
 */
function recurrenceLines(event: EventRecord, repeats: NonNullable<FeedEntry['repeats']>): string {
  const zone = feedZone(event.timezone);
  const wall = (text: string) => readStamp(text, event.timezone);
  const listed = (text: string) => {
    const value = text.trim().replace('T', ' ');
    return value.length <= 10 ? `${value} ${event.start_date.slice(11)}` : value.length === 16 ? `${value}:00` : value;
  };
  const written = (text: string) => (zone ? wall(text).toFormat("yyyyMMdd'T'HHmmss") : wall(text).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'"));
  const dates = (name: string, values: string[]) =>
    values.length === 0 ? [] : [`${name}${zone ? `;TZID=${zone}` : ''}:${[...new Set(values.map(listed))].sort().map(written).join(',')}`];
  const rules = repeats.rules.map((rule) => `RRULE:${rule.replace(/UNTIL=([0-9TZ]+)/, (_, until: string) =>
    `UNTIL=${wall(wallUntil(until, event.timezone, rule)).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")}`)}`);
  return [...rules, ...dates('RDATE', repeats.rdates ?? []), ...dates('EXDATE', [...(repeats.exdates ?? []), ...repeats.hidden])].join('\n');
}

/** One VEVENT from the record the API returns, so a feed and the API cannot disagree on any of it. */
export function toVEvent({ record, sequence, repeats, recurrenceOf }: FeedEntry): ICalEventData {
  const event = record as unknown as EventRecord;
  const venue = Array.isArray(event.venue) ? undefined : (event.venue as Venue);
  // DTSTAMP is the last modification, not the time of the request: the body changes only when the data does.
  const modified = utc(event.modified_utc);
  const times: ICalEventData = event.all_day
    // All-day: dates, the end being the day after the last day (RFC 5545 §3.6.1), not 23:59:59.
    ? { start: day(event.start_date), end: day(event.end_date).plus({ days: 1 }), allDay: true, timezone: null }
    : { start: utc(event.utc_start_date), end: utc(event.utc_end_date), timezone: feedZone(event.timezone) };
  return {
    // An edited occurrence is the same calendar component as its series, at its original start.
    id: uidOf(recurrenceOf?.globalId ?? event.global_id),
    recurrenceId: recurrenceOf ? readStamp(recurrenceOf.originalStart, recurrenceOf.timezone).toUTC() : null,
    repeating: repeats ? recurrenceLines(event, repeats) : null,
    sequence,
    stamp: modified,
    created: utc(event.date_utc),
    lastModified: modified,
    ...times,
    summary: event.title,
    description: event.description ? { plain: plainText(event.description), html: event.description } : null,
    url: uri(event.url),
    location: venue ? location(venue) : null,
    organizer: organizer(event.organizer),
    categories: event.categories.map((term) => ({ name: term.name })),
    attachments: event.image ? [uri(event.image.url)] : [],
    status: STATUS[event.status] ?? null,
    class: event.status === 'private' ? ICalEventClass.PRIVATE : null,
  };
}
