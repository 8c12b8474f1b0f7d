import type { VenueTable } from '../db/database.ts';
import { invalidParam } from '../errors.ts';
import {
  flagColumns, globalIds, type LinkedPostKind, recordHead, textColumns,
} from '../linked-posts/linked-post.kind.ts';

const TEXT_FIELDS = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website'];

/** `stateprovince` follows `state`, then `province`, unless it was set on its own. */
function stateProvince(input: Record<string, unknown>, existing?: VenueTable): Partial<VenueTable> {
  if (input.stateprovince !== undefined) return { stateprovince: String(input.stateprovince).trim() };
  if (input.state === undefined && input.province === undefined && existing) return {};
  const state = String(input.state ?? existing?.state ?? '').trim();
  const province = String(input.province ?? existing?.province ?? '').trim();
  const wasDerived = !existing || existing.stateprovince === (existing.state || existing.province);
  return wasDerived ? { stateprovince: state || province } : {};
}

export const venueKind: LinkedPostKind<'venue'> = {
  table: 'venue',
  nameField: 'venue',
  plural: 'venues',
  permalinkPrefix: 'venue',
  label: 'venue',
  // Country is not searched: the reference leaves it out.
  searchColumns: ['title', 'description', 'excerpt', 'address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],

  ownColumns(input, existing) {
    return Object.assign(
      {},
      textColumns(input, TEXT_FIELDS, !existing),
      flagColumns(input, { show_map: true, show_map_link: true }, !existing),
      stateProvince(input, existing),
      coordinates(input, existing),
    );
  },

  // Object.assign, not a literal that starts by spreading the head: V8 built that one ~50x slower (~19 µs a
  // venue, 14 % of a venue list), adding each property after the copied ones the slow way.
  toRecord(row, { image, urls, importedFrom }, single) {
    return Object.assign(recordHead(row, urls.permalink('venue', row.slug)), {
      venue: row.title,
      description: row.description,
      excerpt: row.excerpt,
      slug: row.slug,
      image,
      address: row.address,
      city: row.city,
      country: row.country,
      province: row.province,
      state: row.state,
      zip: row.zip,
      phone: row.phone,
      website: row.website,
      stateprovince: row.stateprovince,
      geo_lat: row.geo_lat,
      geo_lng: row.geo_lng,
    }, single ? { json_ld: venueJsonLd(row) } : undefined, {
      show_map: row.show_map === 1,
      show_map_link: row.show_map_link === 1,
    }, globalIds(urls, row.id, importedFrom));
  },
};

export function venueJsonLd(row: VenueTable) {
  return {
    '@type': 'Place',
    name: row.title,
    description: row.description.replace(/<[^>]*>/g, '').trim(),
    url: row.website,
    address: {
      '@type': 'PostalAddress',
      streetAddress: row.address,
      addressLocality: row.city,
      addressRegion: row.stateprovince,
      postalCode: row.zip,
      addressCountry: row.country,
    },
    telephone: row.phone,
    sameAs: row.website,
    ...(row.geo_lat !== null && row.geo_lng !== null ? { geo: { '@type': 'GeoCoordinates', latitude: row.geo_lat, longitude: row.geo_lng } } : {}),
  };
}

/** Sent coordinates (null or "" removes one); a venue ends up with both or neither, else 400. */
function coordinates(input: Record<string, unknown>, existing?: VenueTable): Partial<VenueTable> {
  const sent = (name: 'geo_lat' | 'geo_lng') => (input[name] === undefined ? undefined : input[name] === '' || input[name] === null ? null : Number(input[name]));
  const lat = sent('geo_lat');
  const lng = sent('geo_lng');
  const after = { geo_lat: lat === undefined ? (existing?.geo_lat ?? null) : lat, geo_lng: lng === undefined ? (existing?.geo_lng ?? null) : lng };
  if ((after.geo_lat === null) !== (after.geo_lng === null)) {
    throw invalidParam(after.geo_lat === null ? 'geo_lat' : 'geo_lng', 'A venue has both coordinates or neither: geo_lat and geo_lng go together.');
  }
  return { ...(lat !== undefined ? { geo_lat: lat } : {}), ...(lng !== undefined ? { geo_lng: lng } : {}) };
}
