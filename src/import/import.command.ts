import { DateTime } from 'luxon';
import type { Config } from '../config.ts';
import type { DbHandle } from '../db/create-db.ts';
import { openDatabase } from '../db/open.ts';
import { databaseUnavailable } from '../db/unavailable.ts';
import { nowStamp } from '../time/clock.ts';
import type { Caller } from '../users/roles.ts';
import { createUserRepository } from '../users/user.repository.ts';
import { createImporter, type Failure, type ImportOptions, type Tally } from './importer.ts';
import { importIcs } from './ics.ts';
import { createProgress, type Progress } from './progress.ts';
import { createSource, ImportError, type SourceOptions } from './source.ts';
import { writeStamp } from '../time/clock.ts';

export { ImportError };

export interface ImportArgs {
  source: string;
  ics?: boolean;
  user?: string;
  password?: string;
  since?: string;
  dryRun?: boolean;
}

export interface ImportResult {
  summary: Record<string, Tally>;
  failures: Failure[];
}

/** The user imported records are written as: an administrator, so every status and author rule lets them in. */
const IMPORT_LOGIN = 'cal-import';

async function importCaller(database: DbHandle): Promise<Caller> {
  const users = createUserRepository(database.db);
  const found = await users.findByLogin(IMPORT_LOGIN);
  if (found) return { id: found.id, login: found.login, role: found.role as Caller['role'] };
  try {
    const id = await users.insert({ login: IMPORT_LOGIN, email: '', display_name: 'Import', role: 'administrator', created_utc: nowStamp('UTC').utc });
    return { id, login: IMPORT_LOGIN, role: 'administrator' };
  } catch (error) {
    // Another import made it meanwhile (the login is unique): that one is ours too.
    const made = await users.findByLogin(IMPORT_LOGIN);
    if (!made) throw error;
    return { id: made.id, login: made.login, role: made.role as Caller['role'] };
  }
}

/** `--since` as the source's modified_utc is written (`YYYY-MM-DD HH:MM:SS`, UTC). */
export function parseSince(value: string): string {
  const parsed = DateTime.fromISO(value.trim().replace(' ', 'T'), { zone: 'utc' });
  if (!parsed.isValid) throw new ImportError(`--since "${value}" is not a date (use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)`);
  return writeStamp(parsed.toUTC());
}

/** Runs one import into an open database; the CLI and the tests share it. */
export async function runImport(
  args: ImportArgs,
  deps: { config: Config; database: DbHandle; progress?: Progress; source?: SourceOptions },
): Promise<ImportResult> {
  const options: ImportOptions = { dryRun: args.dryRun, authenticated: args.user !== undefined };
  if (args.since !== undefined) options.since = parseSince(args.since);
  const progress = deps.progress ?? createProgress();
  // Made on the first write only: a run that stops before writing leaves nothing behind.
  let made: Promise<Caller> | undefined;
  const caller = () => (made ??= importCaller(deps.database));
  const importer = createImporter({ config: deps.config, database: deps.database, caller, progress });
  try {
    if (args.ics) return await importIcs(args.source, importer, options, deps.source);
    if (!/^https?:\/\//.test(args.source)) throw new ImportError(`"${args.source}" is not an http(s) URL of a The Events Calendar API`);
    const source = createSource(args.source, { ...deps.source, user: args.user, password: args.password });
    await source.check().catch((error: Error) => {
      throw new ImportError(`${args.source} is not a The Events Calendar API (tribe/events/v1) that answers: ${error.message}`);
    });
    return await importer.run(source, args.source.replace(/\/+$/, ''), options);
  } catch (error) {
    // Each page is written in its own transaction, so what came before is whole, and a run again goes on from it.
    if (databaseUnavailable(error)) {
      throw new ImportError(`the database stopped serving during the import (${(error as Error).message}); what was written is kept, and the same import run again goes on from there`, { cause: error });
    }
    throw error;
  } finally {
    progress.stop();
  }
}

/** `cal-events import …`: prints the one-line JSON summary and the failures; non-zero when anything failed. */
export async function importCommand(args: ImportArgs, config: Config): Promise<number> {
  const { database } = await openDatabase(config.databaseUrl, config.database);
  database.onConnectionLost?.((error) => process.stderr.write(`a database connection was lost (${error.message}); another is opened when needed\n`));
  try {
    database.checkpointInBackground?.({ failed: (error) => process.stderr.write(`the database's log could not be checkpointed: ${error.message}\n`) });
    const { summary, failures } = await runImport(args, { config, database });
    for (const failure of failures) process.stderr.write(`failed: ${failure.resource} ${failure.url}: ${failure.reason}\n`);
    process.stdout.write(`${JSON.stringify({ dry_run: args.dryRun === true, ...summary })}\n`);
    return failures.length > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}
