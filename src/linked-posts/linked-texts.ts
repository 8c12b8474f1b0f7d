import { randomBytes } from 'node:crypto';
import { digestTag } from '../http/conditional.ts';
import { jsonText } from '../http/json-text.ts';

// What stands in a record's JSON where its json_ld goes, while it is cut there. No stored text holds a NUL
// (requests with one are refused), and the nonce keeps an imported one from passing for this.
const JSON_LD_MARK = `\u0000${randomBytes(6).toString('hex')}:jsonld\u0000`;

/**
 * A venue's or organizer's record as text, both forms in one: its single form is its list form with `json_ld`
 * among its keys (venue.kind.ts, organizer.kind.ts), so the text is kept as the parts either side of that key
 * and the JSON-LD's text. Kept once instead of twice, twice as many records fit; events put it into their
 * texts part by part (events/event-text.ts `fillText`), lists join its two parts (`listText`).
 */
export interface LinkedTexts {
  head: string;
  tail: string;
  jsonLd: string;
  /** Of the three parts: digested once for every event that embeds the record (see event-json.ts `composedTag`). */
  digest: string;
}

/** The parts of a linked record built in its single form (the one with `json_ld`). */
export function linkedTexts(single: Record<string, unknown>): LinkedTexts {
  const json = jsonText({ ...single, json_ld: JSON_LD_MARK });
  const key = `,"json_ld":${JSON.stringify(JSON_LD_MARK)}`;
  const at = json.indexOf(key);
  if (at < 0 || single.json_ld === undefined) throw new Error('a linked record is kept from its single form, which has json_ld after its first key');
  const [head, tail, jsonLd] = [json.slice(0, at), json.slice(at + key.length), jsonText(single.json_ld)];
  // Newlines part them: JSON text holds none unescaped.
  return { head, tail, jsonLd, digest: digestTag(`${head}\n${jsonLd}\n${tail}`) };
}

/** The record's list form (no `json_ld`), with `distance` (km from a list's centre) as its last key when given. */
export const listText = (linked: LinkedTexts, distance?: number): string =>
  distance === undefined ? linked.head + linked.tail : `${linked.head}${linked.tail.slice(0, -1)},"distance":${distance}}`;
