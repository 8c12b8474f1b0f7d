import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import { zoneAbbreviation } from '../../time/zone-abbr.ts';

// Abbreviations were stored at write time from Node's Intl, which knows letters for few zones ("+08" for
// Asia/Hong_Kong where PHP prints "HKT"). They are recomputed here rather than at every read: records are
// cached whole and pages, feeds and JSON all print the column, so the fix belongs in the stored data.
// Down puts back what Intl gave, so the older code reads what it wrote.

const FORMAT = 'yyyy-MM-dd HH:mm:ss';
const INTL_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-ZA', 'en-NZ', 'ja-JP'];

function intlAbbreviation(at: DateTime): string {
  if (at.zoneName === 'UTC') return 'UTC';
  for (const locale of INTL_LOCALES) {
    const name = at.setLocale(locale).toFormat('ZZZZ');
    if (/^[A-Z]{2,5}$/.test(name)) return name;
  }
  const hours = String(Math.floor(Math.abs(at.offset) / 60)).padStart(2, '0');
  const minutes = Math.abs(at.offset) % 60;
  return `${at.offset < 0 ? '-' : '+'}${hours}${minutes ? String(minutes).padStart(2, '0') : ''}`;
}

// In pages by id: a million events must not be held at once (the service runs with a capped heap).
async function recompute(db: Kysely<any>, abbreviation: (at: DateTime) => string): Promise<void> {
  for (let after = 0; ; ) {
    const rows: Array<{ id: number; timezone: string; start_utc: string; timezone_abbr: string }> = await db
      .selectFrom('event').select(['id', 'timezone', 'start_utc', 'timezone_abbr'])
      .where('id', '>', after).orderBy('id').limit(5000).execute();
    if (rows.length === 0) return;
    after = rows[rows.length - 1].id;
    const changes = new Map<string, number[]>();
    for (const row of rows) {
      const at = DateTime.fromFormat(row.start_utc, FORMAT, { zone: 'utc' }).setZone(row.timezone);
      const value = at.isValid ? abbreviation(at) : row.timezone_abbr;
      if (value === row.timezone_abbr) continue;
      const ids = changes.get(value);
      if (ids) ids.push(row.id);
      else changes.set(value, [row.id]);
    }
    for (const [value, ids] of changes) await db.updateTable('event').set({ timezone_abbr: value }).where('id', 'in', ids).execute();
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await recompute(db, zoneAbbreviation);
}

export async function down(db: Kysely<any>): Promise<void> {
  await recompute(db, intlAbbreviation);
}
