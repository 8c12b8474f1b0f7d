import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import { jsonText } from '../http/json-text.ts';
import type { Urls } from '../http/urls.ts';
import { type EventRecord, eventRecord } from './event.record.ts';
import type { EventLinks, EventRow } from './event.repository.ts';

// What stands in the event's own JSON where a kept text goes. No stored text holds a NUL (requests with one
// are refused, and PostgreSQL could not store it), and the nonce keeps an imported one from passing for this.
const NONCE = randomBytes(6).toString('hex');
const mark = (name: string) => `\u0000${NONCE}:${name}\u0000`;
const JSON_LD_MARK = mark('jsonld');

/** A venue's or organizer's record as events embed it: its JSON and, in the single form, its JSON-LD's. */
export interface LinkedText {
  json: string;
  jsonLd?: string;
}

/**
 * Both forms of a venue's or organizer's record in one: its single form is its list form with `json_ld`
 * among its keys (venue.kind.ts, organizer.kind.ts), so the text is kept as the parts either side of that
 * key and the JSON-LD's text. Kept once instead of twice, twice as many of the records every event embeds fit.
 */
export interface LinkedTexts {
  head: string;
  tail: string;
  jsonLd: string;
}

/** The parts of a linked record built in its single form (the one with `json_ld`). */
export function linkedTexts(single: EventRecord): LinkedTexts {
  const json = jsonText({ ...single, json_ld: JSON_LD_MARK });
  const key = `,"json_ld":${JSON.stringify(JSON_LD_MARK)}`;
  const at = json.indexOf(key);
  if (at < 0 || single.json_ld === undefined) throw new Error('a linked record is kept from its single form, which has json_ld after its first key');
  return { head: json.slice(0, at), tail: json.slice(at + key.length), jsonLd: jsonText(single.json_ld) };
}

/** One form of a kept linked record. */
export const linkedForm = (texts: LinkedTexts, single: boolean): LinkedText =>
  single ? { json: `${texts.head},"json_ld":${texts.jsonLd}${texts.tail}`, jsonLd: texts.jsonLd } : { json: texts.head + texts.tail };

const MARKED = new RegExp(`"\\\\u0000${NONCE}:([a-z]+)(\\d*)\\\\u0000"`, 'g');

/**
 * An event's record as JSON text, put together from its own part (built from its row, the only part
 * serialized here) and the kept texts of the venue and organizers it embeds, so that what is kept as text is
 * never serialized again. Its term lists are left as `slot` (event-json.ts puts them in: their counts move).
 * The same record as `buildRecords` builds: both come from `eventRecord`.
 */
export function recordText(
  row: EventRow,
  parts: { links: EventLinks; venue?: LinkedText; organizers: LinkedText[]; image: { id: number; url: string; extension: string } | undefined },
  deps: { urls: Urls; config: Config },
  single: boolean,
  slot: string,
): string {
  const { venue, organizers } = parts;
  const withJsonLd = organizers.filter((organizer) => organizer.jsonLd !== undefined);
  const own = eventRecord(row, {
    categories: slot,
    tags: slot,
    venue: venue ? mark('venue') : [],
    organizers: mark('organizers'),
    venueJsonLd: venue?.jsonLd !== undefined ? mark('venueld') : undefined,
    organizerJsonLds: withJsonLd.map((_, i) => mark(`organizerld${i}`)),
    image: parts.image,
    imported: parts.links.imported,
  }, deps, single);
  return jsonText(own).replace(MARKED, (_, name: string, index: string) => {
    if (name === 'venue') return (venue as LinkedText).json;
    if (name === 'venueld') return (venue as LinkedText).jsonLd as string;
    if (name === 'organizers') return `[${organizers.map((organizer) => organizer.json).join(',')}]`;
    return withJsonLd[Number(index)].jsonLd as string;
  });
}
