import type { Static } from 'typebox';
import type { EventSchema } from '../events/event.schemas.ts';
import type { OrganizerSchema } from '../organizers/organizer.schemas.ts';
import { plainText } from '../posts/html.ts';
import type { VenueSchema } from '../venues/venue.schemas.ts';

/**
 * Pages show the records the API returns (the same service calls, so visibility, passwords and dates cannot
 * disagree), typed by the API's own schemas, plus a plain-text summary for lists.
 */
export type EventRecord = Static<typeof EventSchema>;
export type VenueRecord = Static<typeof VenueSchema>;
export type OrganizerRecord = Static<typeof OrganizerSchema>;
export type EventView = EventRecord & { summary: string };

const SUMMARY_LENGTH = 240;

export function toEventView(json: string): EventView {
  const record = JSON.parse(json) as EventRecord;
  const text = plainText(record.excerpt || record.description).replace(/\s+/g, ' ');
  const summary = text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH).replace(/\s+\S*$/, '')}…` : text;
  return Object.assign(record, { summary });
}
