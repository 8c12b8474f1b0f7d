import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { assertDocumented } from './openapi-conformance.ts';
import { withPgClient } from './spawn-service.ts';
import { assertMessagesTranslated } from './message-check.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { createUserService } from '../../src/users/user.service.ts';
import { createUserRepository } from '../../src/users/user.repository.ts';
import type { Role } from '../../src/users/roles.ts';

export const API = '/cal/events/v1';
export const PUBLIC_URL = 'http://cal.test';
export const API_URL = `${PUBLIC_URL}${API}`;

export interface TestUser {
  id: number;
  login: string;
  headers: { authorization: string };
}

export interface TestContext {
  dialect: 'sqlite' | 'postgres';
  app: FastifyInstance;
  config: Config;
  database: DbHandle;
  /** A user of this role, made on first use in each test (the same one when asked again). */
  user(role: Role, login?: string): Promise<TestUser>;
  /** Shorthand: app.inject with JSON parsed into `json`. */
  request(options: InjectOptions): Promise<LightMyRequestResponse & { json: any }>;
}

// SQLite always, PostgreSQL with TEST_DATABASE_URL; TEST_DIALECTS=postgres leaves SQLite out (CI has just run
// the suite on SQLite alone, and runs it again on PostgreSQL only).
const dialects = (): Array<'sqlite' | 'postgres'> => {
  const all: Array<'sqlite' | 'postgres'> = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  const only = process.env.TEST_DIALECTS?.split(',').map((d) => d.trim());
  return only ? all.filter((d) => only.includes(d)) : all;
};

/**
 * Whether this run covers SQLite. The files that test a command, the service's process or the browser on
 * SQLite alone (what is under test is not the database) run then, not again in a PostgreSQL-only run.
 */
export const sqliteRuns = (): boolean => dialects().includes('sqlite');

/** A fresh database, not migrated: SQLite in memory, or a PostgreSQL schema of its own, dropped at `close`. */
export async function openTestDatabase(dialect: 'sqlite' | 'postgres'): Promise<DbHandle> {
  if (dialect === 'sqlite') return createDb('sqlite::memory:');
  const url = process.env.TEST_DATABASE_URL as string;
  const schema = `test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`create schema ${schema}`));
  const handle = createDb(url, { searchPath: schema });
  return {
    ...handle,
    async close() {
      await handle.close();
      await dropSchema(schema);
    },
  };
}

const admin = <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => withPgClient(process.env.TEST_DATABASE_URL as string, work);

const dropSchema = async (schema: string) => void (await admin((client) => client.query(`drop schema ${schema} cascade`)));
const MIGRATIONS = Object.keys(migrations).length;
const KYSELY_TABLES = ['kysely_migration', 'kysely_migration_lock'];

/**
 * Migrated databases for one block of tests, each test's fresh. On PostgreSQL a schema is migrated once and
 * emptied for the next test (creating and migrating one took ~400 ms a test, most of the PostgreSQL run): its
 * tables truncated, their sequences restarted, the rows the migrations wrote put back. A schema a test left
 * behind the newest migration (the readiness test migrates down) is dropped instead.
 */
function migratedDatabases(dialect: 'sqlite' | 'postgres') {
  let spare: Contents | undefined;
  return {
    async open(): Promise<DbHandle> {
      if (dialect === 'sqlite') {
        const handle = createDb('sqlite::memory:');
        await migrateToLatest(handle.db);
        return handle;
      }
      const url = process.env.TEST_DATABASE_URL as string;
      let contents = spare;
      spare = undefined;
      let handle: DbHandle;
      if (contents === undefined) {
        const schema = `test_${randomBytes(6).toString('hex')}`;
        await admin((client) => client.query(`create schema ${schema}`));
        handle = createDb(url, { searchPath: schema });
        await migrateToLatest(handle.db);
        contents = await contentsOf(schema);
      } else handle = createDb(url, { searchPath: contents.schema });
      const own = contents;
      return {
        ...handle,
        async close() {
          await handle.close();
          const reused = await admin(async (client) => {
            const { rows } = await client.query(`select count(*)::int as n from ${own.schema}.kysely_migration`);
            return rows[0].n === MIGRATIONS && (await empty(client, own), true);
          });
          if (reused) spare = own;
          else await dropSchema(own.schema);
        },
      };
    },
    /** Drops the schema kept for the next test. */
    async end(): Promise<void> {
      if (spare) await dropSchema(spare.schema);
      spare = undefined;
    },
  };
}

/** A migrated schema's tables (but Kysely's own), and the rows the migrations wrote in them (as JSON). */
interface Contents {
  schema: string;
  tables: string[];
  seeds: Array<{ table: string; rows: string }>;
}

const contentsOf = (schema: string): Promise<Contents> =>
  admin(async (client) => {
    const tables = (await client.query<{ name: string }>(`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p') order by 1`, [schema])).rows.map((row) => row.name).filter((name) => !KYSELY_TABLES.includes(name));
    const seeds = [];
    for (const table of tables) {
      const { rows } = await client.query<{ rows: string | null }>(`select json_agg(t)::text as rows from ${schema}."${table}" t`);
      if (rows[0].rows !== null) seeds.push({ table, rows: rows[0].rows });
    }
    return { schema, tables, seeds };
  });

/** The schema as its migrations left it: every table emptied, every sequence restarted, their rows back. */
async function empty(client: pg.Client, { schema, tables, seeds }: Contents): Promise<void> {
  await client.query(`truncate table ${tables.map((table) => `${schema}."${table}"`).join(', ')} restart identity cascade`);
  for (const { table, rows } of seeds) {
    await client.query(`insert into ${schema}."${table}" select * from json_populate_recordset(null::${schema}."${table}", $1)`, [rows]);
  }
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ CAL_PUBLIC_URL: PUBLIC_URL, LOG_LEVEL: 'silent', ...overrides });
}

/**
 * Runs `body` once per dialect (SQLite always; PostgreSQL when TEST_DATABASE_URL is set), each test on a
 * fresh database. `env` sets configuration for the app under test; `only`: behaviour one database has alone.
 */
export function describeEachDialect(name: string, body: (t: () => TestContext) => void, env: Record<string, string> = {}, only?: 'postgres') {
  for (const dialect of dialects().filter((d) => only === undefined || d === only)) {
    describe(`${name} [${dialect}]`, () => {
      let context: TestContext | undefined;
      const databases = migratedDatabases(dialect);
      afterAll(() => databases.end());
      beforeEach(async () => {
        const database = await databases.open();
        const config = testConfig(env);
        const app = await buildApp({ config, database, logger: false });
        const users = createUserService(createUserRepository(database.db));
        const made = new Map<string, TestUser>();
        context = {
          dialect,
          app,
          config,
          database,
          async user(role, login = role) {
            const existing = made.get(login);
            if (existing) return existing;
            const created = await users.add(login, role);
            const token = Buffer.from(`${login}:${created.password}`).toString('base64');
            const user = { id: created.id, login, headers: { authorization: `Basic ${token}` } };
            made.set(login, user);
            return user;
          },
          async request(options) {
            const response = await app.inject(options);
            let json: unknown;
            try {
              json = response.json();
            } catch {
              json = undefined;
            }
            const method = (options.method ?? 'GET').toUpperCase();
            const url = options.url ?? options.path ?? '/';
            await assertDocumented(app, method, String(url), response.statusCode, json, String(response.headers['content-type'] ?? ''));
            // Every error message the suite meets must ship in every language (see message-check.ts).
            assertMessagesTranslated(json);
            return Object.assign(response, { json });
          },
        };
      });
      afterEach(async () => {
        await context?.app.close();
        await context?.database.close();
        context = undefined;
      });
      body(() => {
        if (!context) throw new Error('test context used outside a test');
        return context;
      });
    });
  }
}
