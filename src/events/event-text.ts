import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import { jsonText } from '../http/json-text.ts';
import type { Urls } from '../http/urls.ts';
import type { LinkedTexts } from '../linked-posts/linked-texts.ts';
import { eventRecord } from './event.record.ts';
import type { EventLinks, EventRow } from './event.repository.ts';

// What stands in the event's own JSON where a kept text goes. No stored text holds a NUL (requests with one
// are refused, and PostgreSQL could not store it), and the nonce keeps an imported one from passing for this.
const NONCE = randomBytes(6).toString('hex');
const mark = (name: string) => `\u0000${NONCE}:${name}\u0000`;

const MARKED = new RegExp(`"\\\\u0000${NONCE}:([a-z]+\\d*)\\\\u0000"`, 'g');
// What stands for an embedded part in an own text (below): a control character, which JSON text never holds
// unescaped, so no text of the event can pass for one; and unlike a NUL, PostgreSQL can store it.
const SEP = '\u0001';
// Where the single form's json_ld begins (the record's last key): the list form ends there.
const JSON_LD_KEY = ',"json_ld":';

/**
 * An event's own part of its record: its JSON (in the single form unless `single` is false), built from its
 * row (the only part serialized here), with a mark (`\u0001name\u0001`) where each part other records own
 * goes: its venue and organizers (and their JSON-LD), its term lists, and the start of its json_ld. Kept in
 * memory and stored (stored-texts.ts, the single form only); `fillText` puts either form together from one
 * in the single form.
 */
export function ownText(
  row: EventRow,
  parts: { links: EventLinks; venue: boolean; organizers: number; image: { id: number; url: string; extension: string } | undefined },
  deps: { urls: Urls; config: Config },
  single = true,
): string {
  const own = eventRecord(row, {
    categories: mark('categories'),
    tags: mark('tags'),
    venue: parts.venue ? mark('venue') : [],
    organizers: mark('organizers'),
    venueJsonLd: parts.venue ? mark('venueld') : undefined,
    organizerJsonLds: Array.from({ length: parts.organizers }, (_, i) => mark(`organizerld${i}`)),
    image: parts.image,
    imported: parts.links.imported,
  }, deps, single);
  const json = jsonText(own).replace(MARKED, (_, name: string) => `${SEP}${name}${SEP}`);
  if (!single) return json;
  const ld = json.lastIndexOf(JSON_LD_KEY);
  return `${json.slice(0, ld)}${SEP}ld${SEP}${json.slice(ld)}`;
}

/** An own text cut at its marks: text, name, text, name, …, text (the names at odd places). */
export const ownPieces = (own: string): string[] => own.split(SEP);

/** Whether an own text (in pieces) embeds a venue, and how many organizers: what it was built with. */
export function embedsIn(pieces: string[]): { venue: boolean; organizers: number } {
  let venue = false;
  let organizers = 0;
  for (let i = 1; i < pieces.length; i += 2) {
    if (pieces[i] === 'venue') venue = true;
    else if (pieces[i].startsWith('organizerld')) organizers++;
  }
  return { venue, organizers };
}

/**
 * A record's JSON in one form, from its own text (in pieces, `ownPieces`) and the texts of what it embeds
 * (each organizer's in the order of its marks), and where its two term lists are in it (event-json.ts puts new
 * ones in there).
 */
export function fillText(
  pieces: string[],
  single: boolean,
  embedded: { venue?: LinkedTexts; organizers: LinkedTexts[]; categories: string; tags: string },
): { json: string; at: { categories: [number, number]; tags: [number, number] } } {
  // Joined once at the end, not added piece by piece: `+` makes a tree of ~30 strings, and Node counts the
  // UTF-8 bytes of such a tree (Content-Length) by copying it flat and then a character at a time, where
  // `join` writes one flat string whose bytes it counts in bulk (callgrind: a cold read 320k -> 309k instructions).
  const parts = [pieces[0]];
  let length = pieces[0].length;
  const add = (text: string) => {
    parts.push(text);
    length += text.length;
  };
  // A linked record in the form asked for, its parts added as they are kept.
  const addLinked = (linked: LinkedTexts) => {
    add(linked.head);
    if (single) {
      add(JSON_LD_KEY);
      add(linked.jsonLd);
    }
    add(linked.tail);
  };
  const at = { categories: [0, 0] as [number, number], tags: [0, 0] as [number, number] };
  for (let i = 1; i < pieces.length; i += 2) {
    const name = pieces[i];
    if (name === 'ld' && !single) {
      parts.push('}');
      break;
    }
    if (name === 'categories' || name === 'tags') {
      const list = embedded[name];
      at[name] = [length, length + list.length];
      add(list);
    } else if (name === 'venue') addLinked(embedded.venue as LinkedTexts);
    else if (name === 'venueld') add((embedded.venue as LinkedTexts).jsonLd);
    else if (name === 'organizers') {
      add('[');
      embedded.organizers.forEach((organizer, n) => {
        if (n > 0) add(',');
        addLinked(organizer);
      });
      add(']');
    } else if (name.startsWith('organizerld')) add(embedded.organizers[Number(name.slice('organizerld'.length))].jsonLd);
    add(pieces[i + 1]);
  }
  return { json: parts.join(''), at };
}
