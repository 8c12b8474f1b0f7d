import { createHash } from 'node:crypto';
import type { Config } from '../config.ts';
import type { DbHandle } from '../db/create-db.ts';
import { createEventService } from '../events/event.service.ts';
import { createUrls } from '../http/urls.ts';
import { createLinkedPostService } from '../linked-posts/linked-post.service.ts';
import { organizerKind } from '../organizers/organizer.kind.ts';
import { createStore } from '../store.ts';
import { categoryKind, tagKind } from '../terms/term.kind.ts';
import { createTermService } from '../terms/term.service.ts';
import type { Caller } from '../users/roles.ts';
import { venueKind } from '../venues/venue.kind.ts';
import { createLineage } from './lineage.ts';
import { eventInput, type LocalId, organizerInput, sourceKey, termInput, venueInput } from './mapping.ts';
import type { Progress } from './progress.ts';
import { type Source, SourceError } from './source.ts';

export interface ImportOptions {
  /** Only records modified at or after this UTC time (`YYYY-MM-DD HH:MM:SS`). */
  since?: string;
  dryRun?: boolean;
  /** Ask for every status (drafts, pending, private): needs credentials on the source. */
  authenticated?: boolean;
}

export interface Tally {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}

export interface Failure {
  resource: string;
  url: string;
  reason: string;
}

// Resources in the order references need them: terms and linked posts before the events that name them.
const RESOURCES = [
  { resource: 'categories', kind: 'category' },
  { resource: 'tags', kind: 'tag' },
  { resource: 'venues', kind: 'venue' },
  { resource: 'organizers', kind: 'organizer' },
  { resource: 'events', kind: 'event' },
] as const;

/** Every event, past and future: the reference's default window starts today (tec-rest-v1.md §5.3). */
const EVENT_WINDOW = { start_date: '1970-01-01 00:00:00', end_date: '2200-12-31 23:59:59' };

export function createImporter(deps: { config: Config; database: DbHandle; caller: () => Promise<Caller>; progress: Progress }) {
  const { config, database, caller, progress } = deps;
  const store = createStore(database.db, database.dialect);
  const services = { store, urls: createUrls(config), config };
  const venues = createLinkedPostService(venueKind, services);
  const organizers = createLinkedPostService(organizerKind, services);
  const categories = createTermService(categoryKind, services);
  const tags = createTermService(tagKind, services);
  const events = createEventService({ ...services, venues, organizers });
  const lineage = createLineage(database.db);

  // Source id -> local id, per kind, for references within this run (a kind's records are few next to events).
  const known = new Map<string, number>();
  const localId: LocalId = (kind, id) => known.get(`${kind}:${id}`);

  const writers = {
    category: (input: any, id: number | undefined, c: Caller) => (id ? categories.update(id, input, c) : categories.create(input, c)),
    tag: (input: any, id: number | undefined, c: Caller) => (id ? tags.update(id, input, c) : tags.create(input, c)),
    venue: (input: any, id: number | undefined, c: Caller) => (id ? venues.update({ id }, input, c) : venues.create(input, c)),
    organizer: (input: any, id: number | undefined, c: Caller) => (id ? organizers.update({ id }, input, c) : organizers.create(input, c)),
    event: (input: any, id: number | undefined, c: Caller) => (id ? events.update({ id }, input, c) : events.create(input, c)),
  };
  const inputs = {
    category: (r: any) => termInput(r, localId, 'category'),
    tag: (r: any) => termInput(r, localId, 'tag'),
    venue: venueInput,
    organizer: organizerInput,
    event: (r: any) => eventInput(r, localId),
  };

  async function run(source: Source, root: string, options: ImportOptions) {
    const summary: Record<string, Tally> = {};
    const failures: Failure[] = [];
    for (const { resource, kind } of RESOURCES) {
      const tally: Tally = (summary[resource] = { created: 0, updated: 0, unchanged: 0, failed: 0 });
      const query: Record<string, string> = kind === 'event' ? { ...EVENT_WINDOW } : {};
      // context=edit shows an editor password-protected events whole (tec-rest-v1.md §1.1).
      if (options.authenticated && kind !== 'category' && kind !== 'tag') Object.assign(query, { status: 'publish,future,draft,pending,private', context: 'edit' });
      let done = 0;
      try {
        // The same pages as a plain reader sees them: what is blanked there is password-protected (below).
        const plain = options.authenticated && kind === 'event' ? source.pages(resource, { ...query, context: 'view' }) : undefined;
        for await (const page of source.pages(resource, query)) {
          progress.total(resource, page.total);
          if (plain) markProtected(page.records, (await plain.next()).value?.records ?? []);
          for (const record of page.records) {
            const outcome = await one(kind, root, record, options).catch((error: unknown) => {
              failures.push({ resource, url: recordUrl(record, page.url), reason: (error as Error).message });
              return 'failed' as const;
            });
            tally[outcome]++;
            progress.tick(resource, ++done);
          }
        }
      } catch (error) {
        if (!(error instanceof SourceError)) throw error;
        tally.failed++;
        failures.push({ resource, url: error.url, reason: error.message });
      }
      progress.end(resource);
    }
    return { summary, failures };
  }

  async function one(kind: keyof typeof writers, root: string, record: Record<string, any>, options: ImportOptions) {
    const { outcome, id } = await write(kind, sourceKey(root, kind, record), modifiedMark(record), () => inputs[kind](record), options);
    if (id !== undefined) known.set(`${kind}:${record.id}`, id);
    return outcome;
  }

  /**
   * One source record through the API's own service: created when its key is new, updated when its
   * modification time moved, else left alone; its key remembered only once the write is done.
   */
  async function write(kind: keyof typeof writers, key: string, modified: string, input: () => unknown, options: ImportOptions) {
    const seen = await lineage.find(kind, key);
    const id = seen?.local_id;
    if (options.since && modified !== '' && modified < options.since) return { outcome: 'unchanged' as const, id };
    if (seen && modified !== '' && seen.source_modified === modified) return { outcome: 'unchanged' as const, id };
    const outcome = seen ? ('updated' as const) : ('created' as const);
    if (options.dryRun) return { outcome, id };
    const written = (await writers[kind](input(), id, await caller())) as { id: number };
    await lineage.save(kind, key, written.id, modified);
    return { outcome, id: written.id };
  }

  return { run, write, lineage };
}

/** modified_utc where the source has it; terms have none, so a digest of the record stands for it. */
const modifiedMark = (record: Record<string, any>) =>
  typeof record.modified_utc === 'string' ? record.modified_utc : createHash('sha256').update(JSON.stringify(record)).digest('base64url');

/**
 * The API never shows an event's password, so a protected event cannot stay protected here: it comes in
 * `private` (editors only) rather than public with the content its password guarded.
 */
function markProtected(whole: Record<string, any>[], plain: Record<string, any>[]) {
  const seen = new Map(plain.map((record) => [record.id, record]));
  for (const record of whole) {
    const view = seen.get(record.id);
    if (view && (view.description !== record.description || view.excerpt !== record.excerpt) && view.description === '') record.status = 'private';
  }
}

const recordUrl = (record: Record<string, any>, pageUrl: string) =>
  typeof record.url === 'string' && record.url !== '' ? record.url : `${pageUrl}#id=${record.id}`;
