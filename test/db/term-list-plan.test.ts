import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { createTermRepository } from '../../src/terms/term.repository.ts';

// On SQLite, lower() is our JavaScript function (create-db.ts): a term list in name order must walk the
// (taxonomy, lower(name)) index, which holds the lowered names, rather than sort every term by calling it.
describe('SQLite: a term list in name order', () => {
  const folder = mkdtempSync(join(tmpdir(), 'cal-terms-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reads a page of non-empty terms from the name index, lowering no name', async () => {
    const handle = createDb(`sqlite:${join(folder, 'cal.db')}`);
    try {
      await migrateToLatest(handle.db);
      for (let i = 0; i < 60; i++) {
        await sql`insert into term (taxonomy, name, slug, description, parent_id, count)
          values ('tribe_events_cat', ${`Category ${String(59 - i).padStart(2, '0')}`}, ${`category-${i}`}, '', 0, ${i % 12 === 0 ? 0 : 1 + i * 7})`.execute(handle.db);
      }
      for (let i = 0; i < 200; i++) {
        await sql`insert into term (taxonomy, name, slug, description, parent_id, count)
          values ('post_tag', ${`Tag ${i}`}, ${`tag-${i}`}, '', 0, ${1 + (i % 100)})`.execute(handle.db);
      }
      handle.optimize?.(); // the statistics a running service has: two taxonomies, counts mostly distinct
      let lowered = 0;
      handle.defineFunction?.('lower', (text: unknown) => {
        lowered++;
        return text === null ? null : String(text).toLowerCase();
      });
      const terms = createTermRepository(handle.db, 'sqlite');
      const page = await terms.list({ taxonomy: 'tribe_events_cat', hideEmpty: true }, { by: 'name', direction: 'asc' }, 10, 10);
      // 55 of the 60 have events, each its own count (as on a real calendar); their second page in name order.
      expect(page.map((term) => term.name)).toEqual(
        Array.from({ length: 60 }, (_, i) => i).filter((i) => (59 - i) % 12 !== 0).map((i) => `Category ${String(i).padStart(2, '0')}`).slice(10, 20),
      );
      expect(page.every((term) => term.count > 0)).toBe(true);
      expect(lowered).toBe(0);
    } finally {
      await handle.close();
    }
  });
});
