import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Event records stored ready to serve (issue 10): a read of an event no process holds in memory took its
// links from the database and built its ~4 kB of JSON again (~60% of a cold read). `event_text` keeps each
// event's own part as built (events/stored-texts.ts); what it embeds that other records own (venue,
// organizers, terms) stays out of it, put in when it is served.
//
// A stored text is served only while its `revision` is the event's: every change that can change the text
// moves the event's revision, here in the database, so no write path can forget it:
// - any update of the event's row (the repository moves it itself; the trigger catches the rest);
// - a link to a term or organizer taken away (links are only ever added to a new event or after links are
//   taken away, and a write that changes links updates the row);
// - a term renamed (an event lists its terms by name);
// - an import's lineage of the event added, changed or taken away (its global_id_lineage).
// A deleted event takes its text along (the foreign key).

const BUMPS: Array<{ name: string; table: string; on: string; when: string; events: string }> = [
  { name: 'event_term_gone', table: 'event_term', on: 'delete', when: 'true', events: 'id = old.event_id' },
  { name: 'event_organizer_gone', table: 'event_organizer', on: 'delete', when: 'true', events: 'id = old.event_id' },
  {
    name: 'term_renamed', table: 'term', on: 'update of name', when: 'new.name <> old.name',
    events: 'id in (select event_id from event_term where term_id = new.id)',
  },
  { name: 'lineage_added', table: 'import_lineage', on: 'insert', when: `new.kind = 'event'`, events: 'id = new.local_id' },
  { name: 'lineage_gone', table: 'import_lineage', on: 'delete', when: `old.kind = 'event'`, events: 'id = old.local_id' },
  {
    name: 'lineage_changed', table: 'import_lineage', on: 'update', when: `new.kind = 'event' or old.kind = 'event'`,
    events: `(id = new.local_id and new.kind = 'event') or (id = old.local_id and old.kind = 'event')`,
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('event').addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable('event_text')
    .addColumn('event_id', 'integer', (c) => c.primaryKey().references('event.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    // What shaped the text besides the event (settings, this code's version): see stored-texts.ts.
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // The ids its categories, tags and organizers are put in from, in order: `1,2|3|4,5`.
    .addColumn('links', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  if (postgres) {
    await sql`create function event_revision() returns trigger language plpgsql as $$
      begin
        if new.revision = old.revision then new.revision := old.revision + 1; end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger event_revision before update on event for each row execute function event_revision()`.execute(db);
    for (const bump of BUMPS) {
      await sql`create function ${sql.raw(bump.name)}() returns trigger language plpgsql as $$
        begin
          if ${sql.raw(bump.when)} then update event set revision = revision + 1 where ${sql.raw(bump.events)}; end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger ${sql.raw(bump.name)} after ${sql.raw(bump.on)} on ${sql.raw(bump.table)} for each row execute function ${sql.raw(bump.name)}()`.execute(db);
    }
    return;
  }
  // SQLite: an update that moved the revision itself (the repository's) is not written twice.
  await sql`create trigger event_revision after update on event when new.revision = old.revision
    begin update event set revision = old.revision + 1 where id = new.id; end`.execute(db);
  for (const bump of BUMPS) {
    await sql`create trigger ${sql.raw(bump.name)} after ${sql.raw(bump.on)} on ${sql.raw(bump.table)} when ${sql.raw(bump.when)}
      begin update event set revision = revision + 1 where ${sql.raw(bump.events)}; end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const { name, table } of [{ name: 'event_revision', table: 'event' }, ...BUMPS]) {
    await sql`drop trigger ${sql.raw(name)}${postgres ? sql` on ${sql.raw(table)}` : sql``}`.execute(db);
    if (postgres) await sql`drop function ${sql.raw(name)}()`.execute(db);
  }
  await db.schema.dropTable('event_text').execute();
  await db.schema.alterTable('event').dropColumn('revision').execute();
}
