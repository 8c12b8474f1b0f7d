import type { ChangeWatch } from '../changes/change-watch.ts';
import { createRecordCache } from '../db/record-cache.ts';
import { invalidParam } from '../errors.ts';
import { canBeId } from '../http/schema-types.ts';
import type { Repositories } from '../store.ts';
import type { Taxonomy } from '../terms/term.kind.ts';

/** What a list query names by reference: terms by id, slug or name; venues and organizers by id. */
export interface FilterRefs {
  categories?: Array<number | string>;
  tags?: Array<number | string>;
  venue?: number[];
  organizer?: number[];
}

/** The same, as the ids of records that exist (each named one must, else 400). */
export interface ResolvedRefs {
  categoryIds?: number[];
  tagIds?: number[];
  venueIds?: number[];
  organizerIds?: number[];
}

export type ResolveRefs = (refs: FilterRefs, repos: Repositories) => Promise<ResolvedRefs>;

// Distinct filters kept: a site's widgets and category pages name a few hundred at most.
const MOST_KEPT = 1000;

/**
 * A list's references resolved once and kept until a term, venue or organizer changes, in any process
 * (changes/change-watch.ts): on PostgreSQL each lookup is a round trip (a list of one category at one venue
 * made two of its four), and on either database a statement Kysely builds anew. Events changing leave them
 * valid; a reference that does not resolve (a 400) is not kept, so a record created later is found.
 */
export function createFilterRefs(watch: ChangeWatch): ResolveRefs {
  const kept = createRecordCache<string, ResolvedRefs>(MOST_KEPT, watch.generation, 'list-filter-refs');
  watch.onForget((forget) => {
    if (forget === 'all' || forget.some((change) => change.kind !== 'event')) kept.clear();
  });
  return async (refs, repos) => {
    if (!refs.categories?.length && !refs.tags?.length && !refs.venue?.length && !refs.organizer?.length) return {};
    await watch.sync();
    const since = watch.generation();
    const key = JSON.stringify([refs.categories, refs.tags, refs.venue, refs.organizer]);
    const known = kept.get(key);
    if (known) return known;
    const resolved = await resolveRefs(refs, repos);
    kept.set(key, resolved, since);
    return resolved;
  };
}

/** Each reference looked up in the database. */
export async function resolveRefs(refs: FilterRefs, repos: Repositories): Promise<ResolvedRefs> {
  return {
    categoryIds: refs.categories?.length ? await termIds(refs.categories, 'tribe_events_cat', 'categories', repos) : undefined,
    tagIds: refs.tags?.length ? await termIds(refs.tags, 'post_tag', 'tags', repos) : undefined,
    venueIds: refs.venue?.length ? await existingIds(refs.venue, 'venue', repos.venues.findByIds) : undefined,
    organizerIds: refs.organizer?.length ? await existingIds(refs.organizer, 'organizer', repos.organizers.findByIds) : undefined,
  };
}

/** Category or tag filter values: ids or slugs (a name also matches); each must exist, else 400. */
async function termIds(values: Array<number | string>, taxonomy: Taxonomy, param: string, repos: Repositories) {
  const ids: number[] = [];
  for (const value of values) {
    // All digits is an id (query strings carry no types), as when an event names its terms.
    const matches = typeof value === 'number' || /^\d+$/.test(value)
      ? canBeId(Number(value)) ? await repos.terms.findByIds(taxonomy, [Number(value)]) : []
      : await repos.terms.findByNamesOrSlugs(taxonomy, [value]);
    // A slug wins over another term's name, as in the reference (slug first).
    const found = matches.find((term) => term.slug === value) ?? matches[0];
    if (!found) throw invalidParam(param, `No ${param} term matches "${value}".`);
    ids.push(found.id);
  }
  return ids;
}

async function existingIds(ids: number[], param: string, find: (ids: number[]) => Promise<Array<{ id: number }>>) {
  const found = new Set((await find(ids)).map((row) => row.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) throw invalidParam(param, `No ${param} has the id ${missing.join(', ')}.`);
  return ids;
}
