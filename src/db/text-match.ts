import { type Expression, type SqlBool, sql } from 'kysely';
import type { Dialect } from './database.ts';

/** A LIKE pattern matching `text` literally (`%`, `_` and `\` escaped; used with ESCAPE '\'). */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Case-insensitive substring match; both sides folded by the database's lower() (Unicode on both dialects). */
export const containsIgnoringCase = (column: string, text: string) =>
  sql<SqlBool>`lower(${sql.ref(column)}) like lower(${`%${escapeLike(text)}%`}) escape '\\'`;

/**
 * The slugs a new `base`, `base-2`, … could collide with (`base` and those starting with "base-"), found
 * through an index on either dialect. SQLite compares bytes, so one index range from `base` to `base.` (`.`
 * follows `-`) holds them, and slugs like `base%e2…` between, which match no `base-N` and do no harm: one
 * range reads the index alone, where `slug = base OR` a range read each row too. PostgreSQL's LIKE prefix
 * uses the `text_pattern_ops` indexes of migration 0004 whatever the database collation. A plain LIKE
 * scanned every slug (40 ms a create at 1M events).
 */
export function slugFamily(dialect: Dialect, base: string): Expression<SqlBool> {
  const [from, to] = slugFamilyParameters(dialect, base);
  return dialect === 'sqlite'
    ? sql<SqlBool>`(slug >= ${from} and slug < ${to})`
    : sql<SqlBool>`(slug = ${from} or slug like ${to} escape '\\')`;
}

/** `slugFamily`'s two parameters for `base`, in their order: to run it compiled once (see db/precompiled.ts). */
export const slugFamilyParameters = (dialect: Dialect, base: string): [string, string] =>
  dialect === 'sqlite' ? [base, `${base}.`] : [base, `${escapeLike(base)}-%`];

const SURROGATE = /[\ud800-\udfff]/;
/**
 * Two texts in the order SQLite's BINARY collation puts them (their UTF-8 bytes, so code point order): what
 * `<` gives, unless either holds a character beyond U+FFFF (two UTF-16 units, which `<` sorts below U+E000).
 * With `lower()` (create-db.ts: JavaScript's toLowerCase), an ORDER BY done in memory instead of by a sorter.
 */
export function compareAsSqlite(a: string, b: string): number {
  if (SURROGATE.test(a) || SURROGATE.test(b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : a > b ? 1 : 0;
}
