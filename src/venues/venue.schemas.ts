import { type Static, Type } from 'typebox';
import { Flag, NonEmptyText, optional, Text, UrlOrEmpty } from '../http/schema-types.ts';
import { geoQueryFields, venueGeoFields } from '../geo/geo.ts';
import {
  globalIdFields, ImageSchema, JsonLdSchema, postInputFields, postListQuery, postRecordHead,
} from '../posts/record.schemas.ts';

const fields = optional({
  ...postInputFields('venue'),
  show_map: Flag('Whether a map is shown for the venue'),
  show_map_link: Flag('Whether a map link is shown for the venue'),
  address: Text('The venue address'),
  city: Text('The venue city'),
  country: Text('The venue country'),
  province: Text('The venue province'),
  state: Text('The venue state'),
  zip: Text('The venue ZIP or postal code'),
  phone: Text('The venue phone number'),
  stateprovince: Text('The venue state or province'),
  website: UrlOrEmpty('The venue website URL, or empty'),
  ...venueGeoFields,
});

export const VenueCreateBody = Type.Object({ venue: NonEmptyText('The venue name'), ...fields });
export const VenueUpdateBody = Type.Object({ ...fields, ...optional({ venue: NonEmptyText('The venue name') }) });
export type VenueInput = Static<typeof VenueUpdateBody>;

export const VenueListQuery = postListQuery('Venues', 'name, description or address fields', geoQueryFields);

const str = Type.String();
export const VenueSchema = Type.Object({
  ...postRecordHead,
  venue: str, description: str, excerpt: str, slug: str, image: ImageSchema,
  address: str, city: str, country: str, province: str, state: str, zip: str, phone: str, website: str,
  stateprovince: str,
  geo_lat: Type.Union([Type.Number(), Type.Null()], { description: 'Latitude in degrees (WGS 84), or null' }),
  geo_lng: Type.Union([Type.Number(), Type.Null()], { description: 'Longitude in degrees (WGS 84), or null' }),
  json_ld: Type.Optional(JsonLdSchema),
  show_map: Type.Boolean(), show_map_link: Type.Boolean(),
  ...globalIdFields,
  distance: Type.Optional(Type.Number({ description: 'Kilometres from the geoloc_lat/geoloc_lng centre (lists with a centre only)' })),
}, { title: 'Venue' });
