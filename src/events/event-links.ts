import type { TSchema } from 'typebox';
import type { Repositories } from '../store.ts';
import { ApiError, invalidParam } from '../errors.ts';
import { toList } from '../http/coercion.ts';
import { canBeId } from '../http/schema-types.ts';
import { validatorCompiler } from '../http/validation.ts';
import type { LinkedPostService } from '../linked-posts/linked-post.service.ts';
import { OrganizerCreateBody } from '../organizers/organizer.schemas.ts';
import { slugify, firstFreeSlug } from '../posts/slug.ts';
import type { Taxonomy } from '../terms/term.kind.ts';
import type { Caller } from '../users/roles.ts';
import { VenueCreateBody } from '../venues/venue.schemas.ts';

export interface LinkContext {
  repos: Repositories;
  caller: Caller;
  venues: LinkedPostService<'venue'>;
  organizers: LinkedPostService<'organizer'>;
}

const isEmpty = (value: unknown) =>
  value === '' || value === 0 || value === '0' || value === null || (Array.isArray(value) && value.length === 0);
const asId = (value: unknown) =>
  typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : undefined;

/** Inline venue/organizer data is checked with the resource's own create schema; a failure names the event field. */
function validated(schema: TSchema, value: Record<string, unknown>, param: string, kind = param): Record<string, unknown> {
  const result = validatorCompiler({ schema } as never)(value) as { value?: Record<string, unknown>; error?: ApiError };
  if (result.error) {
    const inner = result.error.data.params;
    const names = Array.isArray(inner) ? inner : Object.keys(inner as object);
    throw invalidParam(param, `Invalid ${kind} data: ${names.join(', ')}.`);
  }
  return result.value as Record<string, unknown>;
}

const objectOf = (entry: unknown) => (entry && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined);
/** The id a linked record's entry names (an id, or `{id}`), if any. */
const idOf = (entry: unknown) => asId(objectOf(entry)?.id ?? entry);

/** One linked record: an id, `{id}` (a record's own GET shape), or fields of a new (or duplicate) record. */
async function linkedId(
  entry: unknown,
  kind: 'venue' | 'organizer',
  ctx: LinkContext,
  param: string = kind,
  statuses?: Map<number, string>,
): Promise<number> {
  const service = kind === 'venue' ? ctx.venues : ctx.organizers;
  const repo = kind === 'venue' ? ctx.repos.venues : ctx.repos.organizers;
  const object = objectOf(entry);
  const id = idOf(entry);
  if (id !== undefined) {
    const status = !canBeId(id) ? undefined : statuses ? statuses.get(id) : await repo.statusOf(id);
    if (status === undefined || status === 'trash') throw invalidParam(param, `No ${kind} has the id ${id}.`);
    return id;
  }
  if (!object || object[kind] === undefined) throw invalidParam(param, `Each ${kind} needs an id or a name.`);
  const fields = validated(kind === 'venue' ? VenueCreateBody : OrganizerCreateBody, object, param, kind);
  return service.createWithin(ctx.repos, fields, ctx.caller);
}

/** The venue id to store, or null to remove it. */
export async function resolveVenue(input: unknown, ctx: LinkContext): Promise<number | null> {
  if (isEmpty(input)) return null;
  const entry = Array.isArray(input) ? input[0] : input;
  return isEmpty(entry) ? null : linkedId(entry, 'venue', ctx);
}

/**
 * Organizer ids in the order given: ids, a CSV, `{id}` objects, organizer fields, or one object alone.
 * `param` is the parameter errors name (`organizers` when the alias was sent).
 */
export async function resolveOrganizers(input: unknown, ctx: LinkContext, param = 'organizer'): Promise<number[]> {
  if (isEmpty(input)) return [];
  const entries = input && typeof input === 'object' && !Array.isArray(input) && !Object.keys(input).every((k) => /^\d+$/.test(k))
    ? [input]
    : toList(input);
  const given = entries.filter((entry) => !isEmpty(entry));
  // The ids named are checked in one statement.
  const statuses = await ctx.repos.organizers.statusesOf([...new Set(given.map(idOf).filter((id): id is number => id !== undefined && canBeId(id)))]);
  const ids: number[] = [];
  for (const entry of given) {
    const id = await linkedId(entry, 'organizer', ctx, param, statuses);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * Categories or tags by id, slug or name (or a term object as a GET returns it). Unknown names become new
 * terms; an existing term is reused, never duplicated; an id that is no term of this taxonomy is a 400.
 * Each once, in the order a record embeds them (`idsOf`), so a create's answer is built from what it wrote.
 */
export async function resolveTerms(input: unknown, taxonomy: Taxonomy, param: string, repos: Repositories, caller: Caller): Promise<number[]> {
  const entries: unknown[] = [];
  for (const raw of toList(input)) {
    const entry = raw && typeof raw === 'object' ? termKey(raw as Record<string, unknown>, param) : raw;
    if (entry !== undefined && entry !== null && String(entry).trim() !== '') entries.push(entry);
  }
  // The ids given are checked together, the first unknown one named.
  const given = entries.map(asId).filter((id) => id !== undefined);
  const known = await repos.terms.idsOf(taxonomy, [...new Set(given.filter(canBeId))]);
  const unknown = given.find((id) => !known.has(id));
  if (unknown !== undefined) throw invalidParam(param, `No ${param} term has the id ${unknown}.`);
  if (given.length === entries.length) return [...known];
  const ids: number[] = [];
  for (const entry of entries) {
    const id = asId(entry);
    if (id !== undefined) {
      if (!ids.includes(id)) ids.push(id);
      continue;
    }
    const text = String(entry).trim();
    await repos.lockName(`${taxonomy}:${text.toLowerCase()}`);
    const [found] = await repos.terms.findByNamesOrSlugs(taxonomy, [text]);
    const termId = found?.id ?? (await createTerm(text, taxonomy, repos, caller));
    if (!ids.includes(termId)) ids.push(termId);
  }
  // Some were named: put in order once all are known (new terms included, as this transaction sees them).
  return [...(await repos.terms.idsOf(taxonomy, ids))];
}

/** A term object (a GET's embedded term, or `{slug}`/`{name}`) names its term; one naming none is a 400, not skipped. */
function termKey(term: Record<string, unknown>, param: string): unknown {
  const key = term.id ?? term.slug ?? term.name;
  if (key === undefined || key === null || String(key).trim() === '') throw invalidParam(param, `Each ${param} term needs an id, a slug or a name.`);
  return key;
}

async function createTerm(name: string, taxonomy: Taxonomy, repos: Repositories, caller: Caller): Promise<number> {
  const base = slugify(name) || 'term';
  await repos.lockName(`${taxonomy}-slug:${base}`);
  const slug = firstFreeSlug(base, await repos.terms.slugsStartingWith(taxonomy, base));
  const id = await repos.terms.insert({ taxonomy, name, slug, description: '', parent_id: 0 });
  repos.changes.note({ kind: taxonomy === 'post_tag' ? 'tag' : 'category', id, action: 'create', userId: caller.id });
  return id;
}
