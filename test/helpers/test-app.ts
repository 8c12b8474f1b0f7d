import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterEach, beforeEach, describe } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { assertDocumented } from './openapi-conformance.ts';
import { assertMessagesTranslated } from './message-check.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
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

/** A fresh, migrated database for each test: SQLite in memory, or a PostgreSQL schema of its own. */
export async function openTestDatabase(dialect: 'sqlite' | 'postgres'): Promise<DbHandle> {
  if (dialect === 'sqlite') return createDb('sqlite::memory:');
  const url = process.env.TEST_DATABASE_URL as string;
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = createDb(url, { searchPath: schema });
  return {
    ...handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
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
      beforeEach(async () => {
        const database = await openTestDatabase(dialect);
        await migrateToLatest(database.db);
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
