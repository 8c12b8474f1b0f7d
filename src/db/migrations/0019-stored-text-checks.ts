import { type Kysely, PostgresAdapter, sql } from 'kysely';

// A single read of an event not kept in memory (events/event-json.ts `single`) read two rows: the event's, for
// the columns a read is checked against (status, password, author, ...) and its revision, and its stored text,
// served only if of that revision. On the cold read path that is two B-tree descents and two pages, the
// event's page holding ~2 kB of its ~36 columns, for a few of them: at 1M events, part of the file is not in
// the page cache, and each page is a wait for the disk.
//
// Now the stored text carries the checked columns (copied from the event's row when it is stored), and a text
// is valid for as long as it is there: every change that moves the event's revision deletes it, here in the
// database (0017's triggers move the revision for every change that can change the text, so none is missed).
// A single read takes one row.
//
// The texts stored before have no checked columns: the table is made anew (it is a cache; a service stores the
// texts of every event again, in the background, when it starts: events/stored-texts.ts).

const createTable = (db: Kysely<any>, checks: boolean) => {
  let table = db.schema
    .createTable('event_text')
    .addColumn('event_id', 'integer', (c) => c.primaryKey().references('event.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('links', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('digest', 'text');
  if (checks) {
    table = table
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('author_id', 'integer', (c) => c.notNull())
      .addColumn('password', 'text', (c) => c.notNull())
      .addColumn('venue_id', 'integer');
  }
  return table.execute();
};

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable('event_text').execute();
  await createTable(db, true);
  if (postgres) {
    await sql`create function event_text_stale() returns trigger language plpgsql as $$
      begin
        delete from event_text where event_id = new.id;
        return null;
      end $$`.execute(db);
    await sql`create trigger event_text_stale after update on event for each row
      when (new.revision <> old.revision) execute function event_text_stale()`.execute(db);
    return;
  }
  await sql`create trigger event_text_stale after update on event when new.revision <> old.revision
    begin delete from event_text where event_id = new.id; end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql`drop trigger event_text_stale${postgres ? sql` on event` : sql``}`.execute(db);
  if (postgres) await sql`drop function event_text_stale()`.execute(db);
  await db.schema.dropTable('event_text').execute();
  await createTable(db, false);
}
