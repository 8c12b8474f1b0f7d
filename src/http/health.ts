import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { pendingMigrations } from '../db/migrator.ts';
import { ApiError } from '../errors.ts';

/**
 * `/healthz`: the process answers (liveness: restart it when this fails). `/readyz`: the database answers
 * and its schema is current (readiness: send it traffic only then), 503 in the contract's shape otherwise.
 */
export function registerHealth(app: FastifyInstance, db: Db) {
  app.get('/healthz', { config: { hidden: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { hidden: true } }, async () => {
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      throw new ApiError(503, 'rest_not_ready', `The database does not answer: ${(error as Error).message}`);
    }
    const pending = await pendingMigrations(db);
    if (pending.length > 0) throw new ApiError(503, 'rest_not_ready', `The database schema is not current: ${pending.join(', ')} not applied.`, { pending });
    return { status: 'ready' };
  });
}
