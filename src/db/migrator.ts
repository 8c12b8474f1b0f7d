import { type DatabaseIntrospector, type Kysely, type MigrationResultSet, Migrator, PostgresAdapter, sql } from 'kysely';
import { migrations } from './migrations/index.ts';

async function migrator(db: Kysely<any>): Promise<Migrator> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return new Migrator({ db, provider: { getMigrations: async () => migrations } });
  // Kysely looks for its bookkeeping tables in every schema; several schemas in one PostgreSQL database
  // (tests, benchmarks, tenants chosen by search_path) would see each other's. Pin them to our own schema.
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema;
  return new Migrator({ db: ownSchemaOnly(db), provider: { getMigrations: async () => migrations }, migrationTableSchema: schema });
}

/**
 * `db` whose introspection lists the tables of the current schema alone, which is all the Migrator asks it.
 * Kysely's own reads every column of every schema in the database through functions that look each schema
 * up by name (`has_schema_privilege`, `pg_get_serial_sequence`): a schema anyone dropped meanwhile failed a
 * start or a readiness check with "schema … does not exist", and a database of many schemas made both slow.
 */
export function ownSchemaOnly(db: Kysely<any>): Kysely<any> {
  const own = db.introspection;
  const introspection: DatabaseIntrospector = {
    getSchemas: () => own.getSchemas(),
    // The same tables as getTables (Kysely's own getMetadata is its getTables, with the faults above).
    getMetadata: async () => ({ tables: await introspection.getTables() }),
    getTables: async () =>
      (await sql<{ name: string; schema: string }>`select c.relname as name, n.nspname as schema
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p')`.execute(db)).rows.map((row) => ({ ...row, isView: false, columns: [] })),
  };
  return new Proxy(db, {
    get: (target, key) => {
      if (key === 'introspection') return introspection;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
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
