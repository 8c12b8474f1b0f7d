import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import { Type } from 'typebox';
import { invalidParam } from '../errors.ts';
import { Flag } from '../http/schema-types.ts';
import type { Dialect } from '../db/database.ts';

/**
 * Geolocation (issue 12): venues carry coordinates (never geocoded: a client sends them), and event and
 * venue lists filter by them: any coordinates at all, a circle around a centre, a box. The circle is found
 * with a box on the indexed columns first (migration 0013), then the exact great-circle distance.
 */

/** The mean Earth radius of the IUGG, in km: what distances are measured with. */
export const EARTH_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI * EARTH_KM) / 180;
/** A centre without `geoloc_radius`: 25 km, the reference Pro add-on's default geofence. */
export const DEFAULT_RADIUS_KM = 25;
const MAX_RADIUS_KM = 20_037.6; // half the Earth's circumference: every point

const Latitude = (description: string) => Type.Number({ minimum: -90, maximum: 90, description });
const Longitude = (description: string) => Type.Number({ minimum: -180, maximum: 180, description });

/** What a venue create or update takes: a coordinate, or null / "" to remove it. */
export const venueGeoFields = {
  geo_lat: Type.Union([Type.Number({ minimum: -90, maximum: 90 }), Type.Null(), Type.Literal('')], { description: 'The venue latitude in degrees (WGS 84)' }),
  geo_lng: Type.Union([Type.Number({ minimum: -180, maximum: 180 }), Type.Null(), Type.Literal('')], { description: 'The venue longitude in degrees (WGS 84)' }),
};

/** The list filters, on `/events` and `/venues` alike. */
export const geoQueryFields = {
  geoloc: Flag('Only records whose venue has coordinates (true), or has none (false)'),
  geoloc_lat: Latitude('Centre latitude of a circle (with geoloc_lng); each record then carries its distance in km'),
  geoloc_lng: Longitude('Centre longitude of a circle (with geoloc_lat)'),
  geoloc_radius: Type.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, description: `Radius of the circle in km (default ${DEFAULT_RADIUS_KM})` }),
  geoloc_bbox: Type.String({ description: 'A box west,south,east,north in degrees (GeoJSON order; west > east crosses the antimeridian)' }),
};

export interface GeoQuery {
  geoloc?: boolean;
  geoloc_lat?: number;
  geoloc_lng?: number;
  geoloc_radius?: number;
  geoloc_bbox?: string;
}

export interface Point {
  lat: number;
  lng: number;
}

/** A longitude range never wraps: a box across the antimeridian is two. */
interface Box {
  south: number;
  north: number;
  lngRanges: Array<[number, number]>;
}

export interface GeoFilter {
  /** true: coordinates set; false: none. */
  located?: boolean;
  circle?: { centre: Point; radiusKm: number; box: Box };
  box?: Box;
}

/** What a list's page links echo of the geolocation query: as sent, the default radius made explicit. */
export const geoEcho = (query: GeoQuery, filter: GeoFilter | undefined) => ({
  geoloc: query.geoloc,
  geoloc_lat: query.geoloc_lat,
  geoloc_lng: query.geoloc_lng,
  geoloc_radius: filter?.circle?.radiusKm,
  geoloc_bbox: query.geoloc_bbox,
});

/** Great-circle distance in km (haversine), as the database computes it in `distanceSql`. */
export function distanceKm(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Distances as lists show them: kilometres to the metre. */
export const roundKm = (km: number) => Math.round(km * 1000) / 1000;

const lngRanges = (west: number, east: number): Array<[number, number]> =>
  west <= east ? [[west, east]] : [[west, 180], [-180, east]];

/** The smallest box holding the circle (every longitude near a pole, or when the circle spans them). */
function boxAround(centre: Point, radiusKm: number): Box {
  const dLat = radiusKm / KM_PER_DEGREE;
  const south = Math.max(-90, centre.lat - dLat);
  const north = Math.min(90, centre.lat + dLat);
  const cos = Math.cos((centre.lat * Math.PI) / 180);
  const dLng = cos > 1e-9 ? Math.asin(Math.min(1, Math.sin(radiusKm / EARTH_KM) / cos)) * (180 / Math.PI) : 180;
  if (north === 90 || south === -90 || dLng >= 180) return { south, north, lngRanges: [[-180, 180]] };
  const west = centre.lng - dLng;
  const east = centre.lng + dLng;
  if (west < -180) return { south, north, lngRanges: lngRanges(west + 360, east) };
  if (east > 180) return { south, north, lngRanges: lngRanges(west, east - 360) };
  return { south, north, lngRanges: [[west, east]] };
}

function parseBox(text: string): Box {
  const parts = text.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  const [west, south, east, north] = numbers;
  const valid = parts.length === 4 && parts.every((part) => part !== '') && numbers.every(Number.isFinite) &&
    Math.abs(west) <= 180 && Math.abs(east) <= 180 && south >= -90 && north <= 90 && south <= north;
  if (!valid) throw invalidParam('geoloc_bbox', 'Give the box as west,south,east,north in degrees, south not above north.');
  return { south, north, lngRanges: lngRanges(west, east) };
}

/** The query's geolocation filter, or undefined; a half-given centre or a bad box is a 400 naming it. */
export function geoFilter(query: GeoQuery): GeoFilter | undefined {
  const { geoloc_lat: lat, geoloc_lng: lng } = query;
  if ((lat === undefined) !== (lng === undefined)) {
    const missing = lat === undefined ? 'geoloc_lat' : 'geoloc_lng';
    throw invalidParam(missing, 'geoloc_lat and geoloc_lng go together.');
  }
  if (query.geoloc_radius !== undefined && lat === undefined) throw invalidParam('geoloc_radius', 'geoloc_radius needs geoloc_lat and geoloc_lng.');
  const filter: GeoFilter = {};
  if (query.geoloc !== undefined) filter.located = query.geoloc;
  if (lat !== undefined && lng !== undefined) {
    const radiusKm = query.geoloc_radius ?? DEFAULT_RADIUS_KM;
    filter.circle = { centre: { lat, lng }, radiusKm, box: boxAround({ lat, lng }, radiusKm) };
  }
  if (query.geoloc_bbox !== undefined) filter.box = parseBox(query.geoloc_bbox);
  if ((filter.circle || filter.box) && filter.located === false) {
    throw invalidParam('geoloc', 'geoloc=false finds records without coordinates: it cannot go with a circle or a box.');
  }
  return Object.keys(filter).length > 0 ? filter : undefined;
}

/** The SQLite function `distanceSql` calls there (see `defineGeoFunctions`). */
const GREAT_CIRCLE_KM = 'great_circle_km';

/**
 * Makes `distanceSql` work on SQLite: the haversine as one function of ours instead of a dozen of SQLite's
 * (each a step of its virtual machine; a radius query's venues cost ~30 % less), and the very `distanceKm` the
 * listed distances are computed with, so a record in the circle always shows a distance within the radius.
 */
export function defineGeoFunctions(database: { defineFunction?(name: string, fn: (...args: never[]) => unknown): void }): void {
  database.defineFunction?.(GREAT_CIRCLE_KM, (lat: number | null, lng: number | null, centreLat: number, centreLng: number) =>
    (lat === null || lng === null ? null : distanceKm({ lat: centreLat, lng: centreLng }, { lat, lng })));
}

/**
 * Great-circle distance in SQL from the centre to the row's coordinates, the same haversine as
 * `distanceKm`: on SQLite `distanceKm` itself (see `defineGeoFunctions`), on PostgreSQL its own math functions.
 */
export function distanceSql(centre: Point, lat: string, lng: string, dialect: Dialect): RawBuilder<number> {
  const la = sql.ref(lat);
  const ln = sql.ref(lng);
  // The centre as parameters, so every centre shares one prepared statement (literals made each a new SQL
  // text to prepare, and pushed others out of the statement cache).
  if (dialect === 'sqlite') return sql<number>`${sql.raw(GREAT_CIRCLE_KM)}(${la}, ${ln}, ${centre.lat}, ${centre.lng})`;
  // Cast, or PostgreSQL would type a bare parameter in `x - $1` after the column and one in `2 * $1` as an integer.
  const [cLat, cLng] = [centre.lat, centre.lng].map((n) => sql`cast(${n} as double precision)`);
  return sql<number>`(2.0 * ${sql.lit(EARTH_KM)} * asin(least(1.0, sqrt(power(sin(radians(${la} - ${cLat}) / 2.0), 2) + cos(radians(${cLat})) * cos(radians(${la})) * power(sin(radians(${ln} - ${cLng}) / 2.0), 2)))))`;
}

/**
 * The filter over a venue's coordinate columns (`lat`, `lng`: qualified column names), as one condition.
 * The circle's box comes first so the (geo_lat, geo_lng) index narrows the rows the distance is computed for.
 */
export function geoCondition(eb: any, filter: GeoFilter, lat: string, lng: string, dialect: Dialect): Expression<SqlBool> {
  const clauses: Expression<SqlBool>[] = [];
  if (filter.located === false) clauses.push(eb.or([eb(lat, 'is', null), eb(lng, 'is', null)]));
  else clauses.push(eb(lat, 'is not', null), eb(lng, 'is not', null));
  const inBox = (box: Box) =>
    eb.and([
      eb(lat, '>=', box.south), eb(lat, '<=', box.north),
      eb.or(box.lngRanges.map(([west, east]) => eb.and([eb(lng, '>=', west), eb(lng, '<=', east)]))),
    ]);
  if (filter.box) clauses.push(inBox(filter.box));
  if (filter.circle) {
    clauses.push(inBox(filter.circle.box));
    clauses.push(eb(distanceSql(filter.circle.centre, lat, lng, dialect), '<=', filter.circle.radiusKm));
  }
  return eb.and(clauses);
}
