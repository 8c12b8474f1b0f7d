import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Every signed-in request looked its application password up (users/user.service.ts): a statement on SQLite,
// a round trip on PostgreSQL, for an answer that changes only when a user or a password does. The service now
// keeps who a credential names while `credentials_version` stands still, and the database itself moves it on
// every change of a user or an application password, whoever makes it (the CLI, an import, another process,
// a hand-written statement): a password taken away is refused from the next data version read on, in every
// process, as a record changed in another process is seen (db/store.ts).

const TABLES = ['user', 'app_password'];
const BUMP = 'update data_version set credentials_version = credentials_version + 1 where id = 1';

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('data_version').addColumn('credentials_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  if (postgres) {
    await sql`create function credentials_changed() returns trigger language plpgsql as $$
      begin ${sql.raw(BUMP)}; return null; end $$`.execute(db);
    for (const table of TABLES) {
      await sql`create trigger ${sql.raw(`${table}_credentials`)} after insert or update or delete on ${sql.table(table)}
        for each statement execute function credentials_changed()`.execute(db);
    }
    return;
  }
  // SQLite has row triggers alone, and one event a trigger.
  for (const table of TABLES) {
    for (const on of ['insert', 'update', 'delete']) {
      await sql`create trigger ${sql.raw(`${table}_credentials_${on}`)} after ${sql.raw(on)} on ${sql.table(table)}
        begin ${sql.raw(BUMP)}; end`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const table of TABLES) {
    if (postgres) await sql`drop trigger ${sql.raw(`${table}_credentials`)} on ${sql.table(table)}`.execute(db);
    else for (const on of ['insert', 'update', 'delete']) await sql`drop trigger ${sql.raw(`${table}_credentials_${on}`)}`.execute(db);
  }
  if (postgres) await sql`drop function credentials_changed()`.execute(db);
  await db.schema.alterTable('data_version').dropColumn('credentials_version').execute();
}
