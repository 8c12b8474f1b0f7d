import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { DatabaseOpenError, openDatabase } from './db/open.ts';
import { ImportError } from './import/source.ts';
import { rememberZoneOffsets } from './time/zone-offsets.ts';
import { createUserRepository } from './users/user.repository.ts';
import { createUserService, UserError } from './users/user.service.ts';
import { WebhookCommandError } from './webhooks/webhook-command-error.ts';

const USAGE = `usage: cal-events <command>
  serve                                   run the API (the default)
  migrate                                 bring the database schema up to date
  user add <login> --role <role> [--email <email>]
                                          create a user; prints {id, login, role, password} once
  user list                               list users (JSON lines)
  user remove <login>                     delete a user and its application passwords
  user reset-password <login>             replace a user's application passwords with a new one
  import <TEC REST root> [--user <login> --password <application password>] [--since <date>] [--dry-run]
                                          bring categories, tags, venues, organizers and events from a
                                          The Events Calendar site (e.g. https://site.example/wp-json/tribe/events/v1)
  import --ics <file or URL> [--since <date>] [--dry-run]
                                          bring the events of an iCalendar file
  webhook add <url> [--kinds event,venue,...] [--actions create,update,...] [--category <id>]
                                          subscribe a URL to changes; prints it with its secret, once
  webhook list | remove <id> | enable <id>
                                          list, remove, or re-enable (after failures) subscriptions
Every command works on the database DATABASE_URL names (default: the embedded SQLite file).`;

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

async function withUsers<T>(config: Config, work: (users: ReturnType<typeof createUserService>) => Promise<T>): Promise<T> {
  const { database } = await openDatabase(config.databaseUrl, config.database);
  try {
    return await work(createUserService(createUserRepository(database.db)));
  } finally {
    await database.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  rememberZoneOffsets();
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      role: { type: 'string' }, email: { type: 'string' }, help: { type: 'boolean', short: 'h' },
      user: { type: 'string' }, password: { type: 'string' }, since: { type: 'string' }, 'dry-run': { type: 'boolean' }, ics: { type: 'string' },
      kinds: { type: 'string' }, actions: { type: 'string' }, category: { type: 'string' },
    },
  });
  const [command = 'serve', sub, login] = positionals;
  if (values.help) return print(USAGE), 0;
  const config = loadConfig();

  // Each command loads what it needs: a user command starts in a third of the time the whole service takes.
  if (command === 'serve') return await (await import('./server.ts')).serve(config), -1;
  if (command === 'migrate') {
    const { database, migrated } = await openDatabase(config.databaseUrl, config.database);
    try {
      print({ migrated });
    } finally {
      await database.close();
    }
    return 0;
  }
  if (command === 'import') {
    const source = values.ics ?? sub;
    if (!source) throw new ImportError(`import needs the REST root of a The Events Calendar site, or --ics <file or URL>\n${USAGE}`);
    const { importCommand } = await import('./import/import.command.ts');
    return importCommand({ source, ics: values.ics !== undefined, user: values.user, password: values.password, since: values.since, dryRun: values['dry-run'] }, config);
  }
  if (command === 'user') {
    const needLogin = () => {
      if (!login) throw new UserError(`user ${sub} needs a login`);
      return login;
    };
    return withUsers(config, async (users) => {
      if (sub === 'add') {
        if (!values.role) throw new UserError('user add needs --role <role>');
        print(await users.add(needLogin(), values.role, values.email ?? ''));
      } else if (sub === 'list') (await users.list()).forEach(print);
      else if (sub === 'remove') print(await users.remove(needLogin()));
      else if (sub === 'reset-password') print(await users.resetPassword(needLogin()));
      else throw new UserError(`unknown user command "${sub ?? ''}"\n${USAGE}`);
      return 0;
    });
  }
  if (command === 'webhook') return (await import('./webhooks/webhook.command.ts')).webhookCommand(sub, login, values, config, print);
  throw new UserError(`unknown command "${command}"\n${USAGE}`);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    const expected = [ConfigError, DatabaseOpenError, UserError, ImportError, WebhookCommandError].some((kind) => error instanceof kind);
    process.stderr.write(`cal-events: ${expected ? (error as Error).message : error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);
