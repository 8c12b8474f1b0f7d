import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/open.ts';
import { createUserRepository } from './users/user.repository.ts';
import { createUserService } from './users/user.service.ts';

const STOP_DEADLINE_MS = 10_000;

/** loadConfig -> createDb -> migrate -> buildApp -> listen, and a clean stop on SIGTERM/SIGINT. */
export async function serve(config: Config): Promise<void> {
  const { database } = await openDatabase(config.databaseUrl, config.database);
  database.optimize?.();
  // SQLite's advice for long-running processes: refresh the statistics now and then (cheap when current).
  const optimizing = database.optimize ? setInterval(() => database.optimize?.(), 3_600_000).unref() : undefined;
  const app = await buildApp({ config, database });
  database.checkpointInBackground?.({ failed: (error) => app.log.error({ err: error }, "the database's log could not be checkpointed") });
  database.onConnectionLost?.((error) => app.log.warn({ err: error }, 'a database connection was lost; another is opened when needed'));

  const admin = await createUserService(createUserRepository(database.db)).ensureAdmin(config.adminPassword);
  if (admin) {
    const shown = config.adminPassword ? '(the value of CAL_ADMIN_PASSWORD)' : admin.password;
    // Printed once, on the first start only: the operator needs it to sign in.
    app.log.warn(`created user "admin" (administrator); application password: ${shown}`);
  }

  let stopping = false;
  let storing: Promise<unknown> = Promise.resolve();
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: finishing in-flight requests`);
    // A stop that cannot finish (a request or a query waiting on another process's lock, say) still ends:
    // what was acknowledged is committed already, and an orchestrator would kill the process anyway.
    setTimeout(() => {
      app.log.error(`${signal}: not finished within ${STOP_DEADLINE_MS / 1000} s, exiting now`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    clearInterval(optimizing);
    await storing;
    await app.close(); // stops accepting, waits for in-flight requests
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  (app.log as unknown as { flush(): void }).flush(); // "Server listening" now, not with the next 4 kB of log
  // Events no read has stored the text of yet (a database migrated or imported into, say): in the background,
  // which /readyz reports (the benchmark waits on it).
  const started = Date.now();
  storing = app.storeEventTexts(() => stopping).then(
    (count) => app.log.info(`event texts stored: ${count} in ${((Date.now() - started) / 1000).toFixed(1)} s`),
    (error: unknown) => app.log.error({ err: error }, 'event texts could not be stored'),
  );
}
