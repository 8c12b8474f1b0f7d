import type { Config } from '../config.ts';
import { createCountCache, createPageCache } from '../db/read-cache.ts';
import type { TermTable } from '../db/database.ts';
import type { Repositories, Store } from '../store.ts';
import { ApiError, forbidden, invalidParam, invalidParams, notFound } from '../errors.ts';
import { checkIfMatch } from '../http/conditional.ts';
import { jsonText } from '../http/json-text.ts';
import { listPage, pageRequest } from '../http/pagination.ts';
import type { Urls } from '../http/urls.ts';
import { firstFreeSlug, slugify } from '../posts/slug.ts';
import { type Caller, canManageTerms } from '../users/roles.ts';
import { type Taxonomy, type TermKind, termKindOf } from './term.kind.ts';
import type { CountedTermRow, TermListFilter, TermRow } from './term.repository.ts';
import type { EmbeddedTermRecord, TermInput, TermLinks, TermListQuery, TermRecord } from './term.schemas.ts';

function termUrls(row: TermRow, kind: TermKind, urls: Urls): TermRecord['urls'] {
  const collection = urls.collection(kind.plural);
  const up = kind.hierarchical && row.parent_id !== 0 ? { up: `${collection}/${row.parent_id}` } : {};
  return { self: `${collection}/${row.id}`, collection, ...up };
}

const WRITE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The `_links` WordPress's terms controller adds to a single term. Its hrefs name WordPress-only routes
 * (`wp/v2/tribe_events_cat/6`, `wp/v2/taxonomies/…`, `wp/v2/tribe_events?tribe_events_cat=6`); a client that
 * follows them must land somewhere real, so each points at our closest route instead, in the same shape:
 * the term itself, its collection, the API document that describes the taxonomy (`about`), and the events
 * filtered by the term (`wp:post_type`). `allow` lists what this caller may do, as WordPress's target hints.
 */
function termLinks(row: TermRow, kind: TermKind, urls: Urls, caller: Caller | null): TermLinks {
  const collection = urls.collection(kind.plural);
  return {
    self: [{ href: `${collection}/${row.id}`, targetHints: { allow: canManageTerms(caller) ? WRITE_METHODS : ['GET'] } }],
    collection: [{ href: collection }],
    about: [{ href: urls.collection('doc') }],
    'wp:post_type': [{ href: `${urls.collection('events')}?${kind.plural}=${row.id}` }],
    curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
  };
}

/** The standalone term of the category and tag endpoints (reference §1.4 a); single ones with `_links`. */
export function toTerm(row: CountedTermRow, kind: TermKind, urls: Urls, linksFor?: { caller: Caller | null }): TermRecord {
  return {
    id: row.id,
    count: row.count,
    description: row.description,
    name: row.name,
    slug: row.slug,
    taxonomy: kind.taxonomy,
    ...(kind.hierarchical ? { parent: row.parent_id } : {}),
    meta: [],
    url: urls.permalink(kind.permalinkPrefix, row.slug),
    urls: termUrls(row, kind, urls),
    ...(linksFor ? { _links: termLinks(row, kind, urls, linksFor.caller) } : {}),
  };
}

/** The term inside an event's `categories`/`tags` (reference §1.4 b): no `url`, no `meta`. */
export function toEmbeddedTerm(row: TermRow, count: number, urls: Urls, taxonomy: Taxonomy): EmbeddedTermRecord {
  const kind = termKindOf(taxonomy);
  return {
    name: row.name,
    slug: row.slug,
    term_group: 0,
    term_taxonomy_id: row.id,
    taxonomy,
    description: row.description,
    parent: row.parent_id,
    count,
    filter: 'raw',
    id: row.id,
    urls: termUrls(row, kind, urls),
  };
}

type TermColumns = Omit<TermTable, 'id' | 'taxonomy' | 'count'>;

/** Categories or tags: WordPress's terms controller, as TEC exposes it. */
export function createTermService(kind: TermKind, deps: { store: Store; urls: Urls; config: Config }) {
  const { store, urls, config } = deps;
  const repo = store.repos.terms;
  const { taxonomy, label } = kind;
  // A filter's total and its pages, until the next write (in any process): the count walks every term of the
  // taxonomy, and on PostgreSQL a page is a round trip.
  const countOf = createCountCache();
  const pageOf = createPageCache<Awaited<ReturnType<typeof repo.list>>[number]>();

  async function load(id: number): Promise<CountedTermRow> {
    const row = await repo.findById(taxonomy, id);
    if (!row) throw notFound('rest_term_invalid', 'Term does not exist.');
    return row;
  }

  /**
   * On create WordPress's error first holds the bare term id, then the REST controller adds `{status, term_id}`:
   * the earlier data is sent as `additional_data`. Its update has no such check (ours keeps siblings apart).
   */
  function termExists(termId: number, creating: boolean): ApiError {
    const where = kind.hierarchical ? 'with this parent' : 'in this taxonomy';
    const message = `A term with the name provided already exists ${where}.`;
    return new ApiError(400, 'term_exists', message, { term_id: termId }, creating ? [termId] : undefined);
  }

  /** The columns a create (all of them) or an update (only what was sent, API.md §5.1) writes. */
  async function columnsFor(repos: Repositories, input: TermInput, existing?: TermRow): Promise<Partial<TermColumns>> {
    const columns: Partial<TermColumns> = {};
    if (input.name !== undefined) columns.name = input.name.trim();
    if (input.description !== undefined) columns.description = input.description.trim();
    if (kind.hierarchical && input.parent !== undefined && input.parent !== existing?.parent_id) columns.parent_id = input.parent;
    const name = columns.name ?? existing?.name ?? '';
    const parent = columns.parent_id ?? existing?.parent_id ?? 0;

    if (columns.parent_id) {
      // The reference checks `parent` as an argument (is_event_category), so an unknown one is a bad parameter.
      if (!(await repos.terms.findById(taxonomy, columns.parent_id))) throw invalidParam('parent');
      if (existing && (await repos.terms.lineage(columns.parent_id)).includes(existing.id)) {
        throw invalidParam('parent', `A ${label} cannot be its own parent or the child of one of its descendants.`);
      }
    }
    if (columns.name !== undefined || columns.parent_id !== undefined) {
      const sibling = await repos.terms.findSibling(taxonomy, parent, name, existing?.id);
      if (sibling) throw termExists(sibling.id, !existing);
    }
    if (input.slug !== undefined || !existing) {
      const base = slugify(input.slug ?? '') || slugify(name) || label;
      if (base !== existing?.slug) {
        await repos.lockName(`${taxonomy}-slug:${base}`); // writers allocating from one base take turns
        columns.slug = firstFreeSlug(base, await repos.terms.slugsStartingWith(taxonomy, base, existing?.id));
      }
    }
    return columns;
  }

  async function insertWithin(repos: Repositories, input: TermInput, caller: Caller): Promise<number> {
    // The same lock as an event naming a new term takes: one of two concurrent creators of a name wins.
    if (input.name !== undefined) await repos.lockName(`${taxonomy}:${input.name.trim().toLowerCase()}`);
    const columns = await columnsFor(repos, input);
    const id = await repos.terms.insert({
      taxonomy,
      name: columns.name ?? '',
      slug: columns.slug ?? label,
      description: columns.description ?? '',
      parent_id: columns.parent_id ?? 0,
    });
    repos.changes.note({ kind: label, id, action: 'create', userId: caller.id });
    return id;
  }

  /** The term as it is under this transaction's lock, after If-Match (when sent) is checked against its single read. */
  async function checked(repos: Repositories, existing: CountedTermRow, caller: Caller, ifMatch: string | undefined): Promise<CountedTermRow> {
    if (ifMatch === undefined) return existing;
    await repos.terms.lock(existing.id);
    const row = await repos.terms.findById(taxonomy, existing.id);
    if (!row) throw notFound('rest_term_invalid', 'Term does not exist.');
    const current = single(row, caller);
    checkIfMatch(ifMatch, jsonText(current), current);
    return row;
  }

  /** A term update that changes nothing (the same values sent back) is no change. */
  async function updateWithin(repos: Repositories, existing: TermRow, input: TermInput, caller: Caller) {
    const columns = await columnsFor(repos, input, existing);
    await repos.terms.update(existing.id, columns);
    if (Object.entries(columns).some(([key, value]) => existing[key as keyof TermRow] !== value)) {
      repos.changes.note({ kind: label, id: existing.id, action: 'update', userId: caller.id });
    }
  }

  /** Filters naming records must name existing ones: 400 naming every bad parameter at once. */
  async function checkListFilters(query: TermListQuery): Promise<void> {
    const bad: Record<string, string> = {};
    for (const name of ['include', 'exclude'] as const) {
      const ids = [...new Set(query[name] ?? [])];
      if (ids.length === 0) continue;
      const found = new Set((await repo.findByIds(taxonomy, ids)).map((row) => row.id));
      const unknown = ids.filter((id) => !found.has(id));
      if (unknown.length > 0) bad[name] = `Unknown ${label} id(s): ${unknown.join(', ')}.`;
    }
    if (kind.hierarchical && query.parent && !(await repo.findById(taxonomy, query.parent))) {
      bad.parent = `Unknown ${label} id: ${query.parent}.`;
    }
    for (const name of ['post', 'event'] as const) {
      const id = query[name];
      if (id !== undefined && !(await repo.eventExists(id))) bad[name] = `Unknown event id: ${id}.`;
    }
    if (Object.keys(bad).length > 0) throw invalidParams(bad);
  }

  const record = (row: CountedTermRow) => toTerm(row, kind, urls);
  const single = (row: CountedTermRow, caller: Caller | null) => toTerm(row, kind, urls, { caller });

  return {
    kind,

    get: async (id: number, caller: Caller | null) => single(await load(id), caller),

    /** Terms by id (the change feed): every term is public. */
    recordsFor: async (ids: number[]): Promise<Map<number, TermRecord>> =>
      new Map((await repo.findByIds(taxonomy, ids)).map((row) => [row.id, record(row)])),

    async list(query: TermListQuery) {
      await checkListFilters(query);
      const page = pageRequest(query, config.maxPerPage);
      const parent = kind.hierarchical ? query.parent : undefined;
      const include = query.include?.length ? query.include : undefined;
      const exclude = query.exclude?.length ? query.exclude : undefined;
      const filter: TermListFilter = {
        taxonomy,
        search: query.search,
        include,
        exclude,
        parent,
        slug: query.slug,
        eventId: query.event ?? query.post,
        hideEmpty: query.hide_empty ?? true,
      };
      const order = { by: query.orderby ?? 'name', direction: query.order ?? 'asc' } as const;
      const version = await store.dataVersion();
      const [rows, total] = await Promise.all([
        pageOf(JSON.stringify([filter, order, page.perPage, page.page]), version, () => repo.list(filter, order, page.perPage, (page.page - 1) * page.perPage)),
        countOf(JSON.stringify(filter), version, () => repo.count(filter)),
      ]);
      return listPage({
        items: rows.map(record),
        total,
        page,
        base: `${urls.collection(kind.plural)}/`,
        // Unlike the reference, links keep `per_page` and the filters (API.md §5.6).
        echo: {
          per_page: page.perPage, search: query.search, exclude, include, order: query.order, orderby: query.orderby,
          hide_empty: query.hide_empty, parent, post: query.post, event: query.event, slug: query.slug,
        },
        pageNotFound: { code: 'term-archive-page-not-found', message: 'The requested term archive page does not exist.' },
      });
    },

    async create(input: TermInput, caller: Caller) {
      if (!canManageTerms(caller)) throw forbidden(true);
      const id = await store.transaction((repos) => insertWithin(repos, input, caller));
      return single(await load(id), caller);
    },

    /** With `ifMatch` (a write's If-Match) the term is checked as it is under the write's lock: 412 when it moved on. */
    async update(id: number, input: TermInput, caller: Caller, ifMatch?: string) {
      const existing = await load(id);
      if (!canManageTerms(caller)) throw forbidden(true);
      await store.transaction(async (repos) => updateWithin(repos, await checked(repos, existing, caller, ifMatch), input, caller));
      return single(await load(id), caller);
    },

    /** A create (no id) or an update inside the caller's transaction, with their rights; returns the id. */
    async saveWithin(repos: Repositories, input: TermInput, caller: Caller, id?: number): Promise<number> {
      if (!canManageTerms(caller)) throw forbidden(true);
      if (id === undefined) return insertWithin(repos, input, caller);
      const existing = await repos.terms.findById(taxonomy, id);
      if (!existing) throw notFound('rest_term_invalid', 'Term does not exist.');
      await updateWithin(repos, existing, input, caller);
      return id;
    },

    /** Permanent (reference §3): the answer is the term as it was. */
    async remove(id: number, caller: Caller, ifMatch?: string) {
      const existing = await load(id);
      if (!canManageTerms(caller)) throw forbidden(true);
      await store.transaction(async (repos) => {
        await checked(repos, existing, caller, ifMatch);
        await repos.terms.remove(id);
        repos.changes.note({ kind: label, id, action: 'delete', userId: caller.id });
      });
      return record(existing);
    },
  };
}

export type TermService = ReturnType<typeof createTermService>;
