import type { Kysely } from 'kysely';
import { searchText } from '../../events/event-search.ts';

// An event search matched the stored HTML, so `search=p` found every event with a paragraph. Each event
// now keeps the plain text of its description and excerpt (written with them), which the search reads;
// rows already stored get it here, in pages by id, from the same HTML-to-text function.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event').addColumn('search_text', 'text', (c) => c.notNull().defaultTo('')).execute();
  for (let after = 0; ; ) {
    const rows: Array<{ id: number; description: string; excerpt: string }> = await db
      .selectFrom('event').select(['id', 'description', 'excerpt'])
      .where('id', '>', after).orderBy('id').limit(2000).execute();
    if (rows.length === 0) return;
    after = rows[rows.length - 1].id;
    for (const row of rows) {
      const text = searchText(row.description, row.excerpt);
      if (text !== '') await db.updateTable('event').set({ search_text: text }).where('id', '=', row.id).execute();
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event').dropColumn('search_text').execute();
}
