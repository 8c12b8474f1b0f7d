/**
 * From a reference record (tribe/events/v1, tec-rest-v1.md §1) to the input our API takes for the same
 * record: the import writes through the API's own services, so validation, dates, HTML, slugs and term counts
 * follow one set of rules. References to other records are turned into local ids by `localId`.
 */
type Rec = Record<string, any>;
/** The local id of a record the source names by its id, with the record itself where the source embeds it. */
export type LocalId = (kind: string, sourceId: unknown, embedded?: Rec) => number | undefined;

const pick = (record: Rec, names: string[]) => {
  const out: Rec = {};
  for (const name of names) if (record[name] !== undefined && record[name] !== null) out[name] = record[name];
  return out;
};

const imageUrl = (image: unknown) => (image && typeof image === 'object' && typeof (image as Rec).url === 'string' ? (image as Rec).url : undefined);

// Object.assign from {}, not literals opening with a spread (a hidden class each, see QueryEcho in
// events/event-list.ts): an import maps thousands of records.
const common = (record: Rec) => Object.assign(
  {},
  pick(record, ['status', 'slug', 'description', 'excerpt', 'date']),
  imageUrl(record.image) ? { image: imageUrl(record.image) } : {},
);

export function termInput(record: Rec, localId: LocalId, kind: string) {
  const parent = record.parent ? localId(kind, record.parent) : undefined;
  // A term the reference lists without a description sends `""`, which a create refuses (reference §6.6): none.
  const texts = pick(record, ['name', 'slug', 'description']);
  for (const name of ['slug', 'description']) if (texts[name] === '') delete texts[name];
  return Object.assign(texts, parent ? { parent } : {});
}

export const venueInput = (record: Rec) => Object.assign(
  common(record),
  pick(record, ['venue', 'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'show_map', 'show_map_link']),
  // A site with the Pro add-on sends both coordinates (numbers) or neither.
  typeof record.geo_lat === 'number' && typeof record.geo_lng === 'number' ? { geo_lat: record.geo_lat, geo_lng: record.geo_lng } : {},
);

export const organizerInput = (record: Rec) => Object.assign(common(record), pick(record, ['organizer', 'phone', 'website', 'email']));

const ids = (list: unknown, kind: string, localId: LocalId) =>
  (Array.isArray(list) ? list : []).map((item) => localId(kind, (item as Rec)?.id ?? item, item as Rec)).filter((id): id is number => id !== undefined);

export function eventInput(record: Rec, localId: LocalId) {
  const venueId = record.venue && typeof record.venue === 'object' && !Array.isArray(record.venue) ? localId('venue', record.venue.id, record.venue) : undefined;
  const input: Rec = Object.assign(
    common(record),
    pick(record, ['title', 'start_date', 'end_date', 'timezone', 'all_day', 'website', 'featured', 'sticky', 'hide_from_listings', 'show_map', 'show_map_link']),
    {
      categories: ids(record.categories, 'category', localId),
      tags: ids(record.tags, 'tag', localId),
      organizer: ids(record.organizer, 'organizer', localId),
    },
  );
  if (typeof record.cost === 'string' && record.cost !== '') input.cost = record.cost;
  if (venueId !== undefined) input.venue = venueId;
  return input;
}

/** The idempotency key: the record's global_id, or the root and id for records without one (terms). */
export const sourceKey = (root: string, kind: string, record: Rec) =>
  usableKey(record.global_id) ? record.global_id : `${root}#${kind}:${record.id}`;
// A global_id is the reference's `host?id=N`, a UID an iCalendar text: one with control characters (a NUL,
// which PostgreSQL cannot store) or past any URL's length keys nothing.
export const usableKey = (value: unknown): value is string => typeof value === 'string' && value !== '' && value.length <= 2000 && !/[\u0000-\u001f\u007f]/.test(value);
