import { type Kysely, PostgresAdapter } from 'kysely';

// Venues carry coordinates (issue 12's geolocation), in degrees (WGS 84), both or neither. Radius and box
// queries narrow by latitude then longitude on this index before any distance is computed.

export async function up(db: Kysely<any>): Promise<void> {
  const type = db.getExecutor().adapter instanceof PostgresAdapter ? 'double precision' : 'real';
  await db.schema.alterTable('venue').addColumn('geo_lat', type).execute();
  await db.schema.alterTable('venue').addColumn('geo_lng', type).execute();
  await db.schema.createIndex('venue_geo_idx').on('venue').columns(['geo_lat', 'geo_lng']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('venue_geo_idx').execute();
  await db.schema.alterTable('venue').dropColumn('geo_lng').execute();
  await db.schema.alterTable('venue').dropColumn('geo_lat').execute();
}
