import type { Migration } from 'kysely';
import * as initial from './0001-initial.ts';

/** Ordered by name; a shipped migration is never edited, a change is a new entry. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
};
