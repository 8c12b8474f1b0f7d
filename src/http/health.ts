import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { pendingMigrations } from '../db/migrator.ts';
import { ApiError } from '../errors.ts';

/** Where a piece of background work stands, as `/readyz` shows it: how many it did once done. */
export type BackgroundState =
  | { state: 'running'; seconds: number }
  | { state: 'done'; count: number; seconds: number }
  | { state: 'failed'; seconds: number };

/** Runs background work under a name, so that `/readyz` shows where it stands; the work's own promise back. */
export type TrackBackground = (name: string, work: () => Promise<number>) => Promise<number>;

const secondsSince = (started: number) => Math.round((Date.now() - started) / 100) / 10;

/**
 * `/healthz`: the process answers (liveness: restart it when this fails). `/readyz`: the database answers
 * and its schema is current (readiness: send it traffic only then), 503 in the contract's shape otherwise.
 * `/readyz` also says where the process's background work stands (storing event texts after a start, say):
 * the process serves while it runs, so it does not hold readiness back, but a benchmark or an operator can
 * wait for it. Its failures' causes go to the log, not to this public answer.
 */
export function registerHealth(app: FastifyInstance, db: Db): TrackBackground {
  const background = new Map<string, () => BackgroundState>();
  app.get('/healthz', { config: { hidden: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { hidden: true } }, async () => {
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      throw new ApiError(503, 'rest_not_ready', `The database does not answer: ${(error as Error).message}`);
    }
    const pending = await pendingMigrations(db);
    if (pending.length > 0) throw new ApiError(503, 'rest_not_ready', `The database schema is not current: ${pending.join(', ')} not applied.`, { pending });
    return { status: 'ready', background: Object.fromEntries([...background].map(([name, state]) => [name, state()])) };
  });

  return (name, work) => {
    const started = Date.now();
    background.set(name, () => ({ state: 'running', seconds: secondsSince(started) }));
    const running = work();
    // Its end is kept as it was when it came, not counted on from each later look.
    const ended = (state: BackgroundState) => void background.set(name, () => state);
    running.then(
      (count) => ended({ state: 'done', count, seconds: secondsSince(started) }),
      () => ended({ state: 'failed', seconds: secondsSince(started) }),
    );
    return running;
  };
}
