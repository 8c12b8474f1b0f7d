import { type Kysely, type MigrationResultSet, Migrator, PostgresAdapter, sql } from 'kysely';
import { migrations } from './migrations/index.ts';

async function migrator(db: Kysely<any>): Promise<Migrator> {
  // Kysely looks for its bookkeeping tables in every schema; several schemas in one PostgreSQL database
  // (tests, benchmarks, tenants chosen by search_path) would see each other's. Pin them to our own schema.
  const migrationTableSchema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema
      : undefined;
  return new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema });
}

function unwrap({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).map((r) => `${r.direction === 'Up' ? 'applied' : 'reverted'} ${r.migrationName}`);
}

/** Brings the schema to the newest migration; returns what it did, one line each. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return unwrap(await (await migrator(db)).migrateToLatest());
}

/** Reverts the newest applied migration (used by the migration test and by operators who must roll back). */
export async function migrateDown(db: Kysely<any>): Promise<string[]> {
  return unwrap(await (await migrator(db)).migrateDown());
}

/** The migrations not yet applied to this database (readiness: a schema behind the code is not ready). */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrations = await (await migrator(db)).getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
