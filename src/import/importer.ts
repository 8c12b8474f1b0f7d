import { createHash } from 'node:crypto';
import type { Config } from '../config.ts';
import type { DbHandle } from '../db/create-db.ts';
import { databaseUnavailable } from '../db/unavailable.ts';
import { createChangeWatch } from '../changes/change-watch.ts';
import { EventCreateBody } from '../events/event.schemas.ts';
import { createEventService } from '../events/event.service.ts';
import { checkInput } from '../http/validation.ts';
import { OrganizerCreateBody } from '../organizers/organizer.schemas.ts';
import { termCreateBody } from '../terms/term.schemas.ts';
import { VenueCreateBody } from '../venues/venue.schemas.ts';
import { createUrls } from '../http/urls.ts';
import { createLinkedPostService } from '../linked-posts/linked-post.service.ts';
import { organizerKind } from '../organizers/organizer.kind.ts';
import { createStore, type Repositories } from '../store.ts';
import { categoryKind, tagKind } from '../terms/term.kind.ts';
import { createTermService } from '../terms/term.service.ts';
import type { Caller } from '../users/roles.ts';
import { venueKind } from '../venues/venue.kind.ts';
import { eventInput, type LocalId, organizerInput, sourceKey, termInput, venueInput } from './mapping.ts';
import type { Progress } from './progress.ts';
import { createGuard, type Guard, unreadableToVisitors } from './password-guard.ts';
import { identified, type Source, SourceError } from './source.ts';

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

/** One source record on its way in: its key, its modification mark, and the API input it maps to. */
export interface Incoming {
  key: string;
  modified: string;
  input: () => unknown;
  /**
   * What the record names that is not here (`venue 1008`), as its last `input()` found: it is written without
   * them, its lineage without its modification mark, so that a run again writes it whole once they are.
   */
  missing?: string[];
  /** How other records of the source name it (`venue:1001`), when they do. */
  ref?: string;
  /**
   * A record already here that a new key is written onto instead of a new one: an .ics exception
   * (RECURRENCE-ID) is the occurrence its series' rules made here.
   */
  target?: (repos: Repositories) => Promise<number | undefined>;
}

export type Outcome = { outcome: 'created' | 'updated' | 'unchanged'; id?: number } | { outcome: 'failed'; reason: string };

type Kind = (typeof RESOURCES)[number]['kind'];
type Seen = Map<string, { local_id: number; source_modified: string }>;
type Writer = {
  saveWithin(repos: Repositories, input: any, caller: Caller, id?: number): Promise<number>;
  /** A bulk create, where the kind has one (events: most of an import). */
  createManyWithin?(repos: Repositories, inputs: any[], caller: Caller): Promise<number[]>;
};

export function createImporter(deps: { config: Config; database: DbHandle; caller: () => Promise<Caller>; progress: Progress }) {
  const { config, database, caller, progress } = deps;
  const store = createStore(database.db, database.dialect);
  const services = { store, urls: createUrls(config), config, watch: createChangeWatch(store) };
  const venues = createLinkedPostService(venueKind, services);
  const organizers = createLinkedPostService(organizerKind, services);
  const writers: Record<Kind, Writer> = {
    category: createTermService(categoryKind, services),
    tag: createTermService(tagKind, services),
    venue: venues,
    organizer: organizers,
    event: createEventService({ ...services, venues, organizers }),
  };

  // What each kind's input must be, as the API's create takes it: a source's record may hold anything (a number
  // for a title, a NUL in a text), and the services trust what the API's validation let through.
  const bodies = { category: termCreateBody(categoryKind), tag: termCreateBody(tagKind), venue: VenueCreateBody, organizer: OrganizerCreateBody, event: EventCreateBody };
  const inputOf = (kind: Kind, item: Incoming) => checkInput(bodies[kind], item.input());

  // Source id -> local id, per kind, for references within this run (a kind's records are few next to events);
  // what the open transaction wrote counts only once it commits (a rolled-back id may be given again).
  const known = new Map<string, number>();
  let uncommitted = new Map<string, number>();
  const localId: LocalId = (kind, id) => known.get(`${kind}:${id}`) ?? uncommitted.get(`${kind}:${id}`);
  async function committed<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    try {
      // Reset on each attempt: the store may run `work` again after a conflict with another writer.
      const result = await store.transaction((repos) => {
        uncommitted = new Map();
        return work(repos);
      });
      for (const [ref, id] of uncommitted) known.set(ref, id);
      return result;
    } finally {
      uncommitted = new Map();
    }
  }
  const inputs: Record<Kind, (record: any, ids: LocalId) => unknown> = {
    category: (r, ids) => termInput(r, ids, 'category'),
    tag: (r, ids) => termInput(r, ids, 'tag'),
    venue: venueInput,
    organizer: organizerInput,
    event: eventInput,
  };
  /** A record's input, and what it names that is not here (each reference looked up and not found). */
  const mapped = (kind: Kind, record: Record<string, any>) => {
    const missing: Array<{ kind: string; id: unknown; embedded?: Record<string, any> }> = [];
    const input = inputs[kind](record, (refKind, id, embedded) => {
      const found = localId(refKind, id);
      // A reference that is no id (`{}`, `"x"`) names nothing that could come: it is left out, as before.
      if (found === undefined && identified({ id })) missing.push({ kind: refKind, id, embedded });
      return found;
    });
    return { input, missing };
  };
  /**
   * What a page's records name that this run has not listed (deleted at the source since, say) but an earlier
   * run brought: found by its lineage (its source key, from the embedded record where the source embeds one).
   */
  async function recallEarlier(kind: Kind, root: string, records: Record<string, any>[]) {
    const wanted = new Map<string, Map<string, string>>(); // kind -> source key -> reference
    for (const record of records) {
      for (const ref of mapped(kind, record).missing) {
        const keys = wanted.get(ref.kind) ?? wanted.set(ref.kind, new Map()).get(ref.kind) as Map<string, string>;
        keys.set(sourceKey(root, ref.kind, typeof ref.embedded === 'object' && ref.embedded !== null ? ref.embedded : { id: ref.id }), `${ref.kind}:${ref.id}`);
      }
    }
    for (const [refKind, keys] of wanted) {
      for (const [key, row] of await store.repos.lineage.findMany(refKind, [...keys.keys()])) known.set(keys.get(key) as string, row.local_id);
    }
  }
  const incomingOf = (kind: Kind, root: string, record: Record<string, any>): Incoming => {
    const item: Incoming = {
      key: sourceKey(root, kind, record), modified: modifiedMark(record), ref: `${kind}:${record.id}`,
      input: () => {
        const { input, missing } = mapped(kind, record);
        item.missing = missing.map((ref) => `${ref.kind} ${JSON.stringify(ref.id)}`);
        return input;
      },
    };
    return item;
  };

  async function run(source: Source, root: string, options: ImportOptions) {
    const summary: Record<string, Tally> = {};
    const failures: Failure[] = [];
    for (const { resource, kind } of RESOURCES) {
      const tally: Tally = (summary[resource] = { created: 0, updated: 0, unchanged: 0, failed: 0 });
      const query: Record<string, string> = kind === 'event' ? { ...EVENT_WINDOW } : {};
      // context=edit shows an editor password-protected records whole (tec-rest-v1.md §1.1-1.3).
      const posts = kind !== 'category' && kind !== 'tag';
      if (options.authenticated && posts) Object.assign(query, { status: 'publish,future,draft,pending,private', context: 'edit' });
      let done = 0;
      // Written without something they name: a category whose parent comes on a later page, an event whose
      // venue failed. Written again at the end of their list if what they name is here by then.
      const partial: Array<{ record: Record<string, any>; url: string; missing: string[] }> = [];
      try {
        const guard = options.authenticated && posts ? await createGuard(source, resource, query) : undefined;
        for await (const { page, records, refused } of sorted(source.pages(resource, query), (page) => writable(page.records, resource, guard))) {
          progress.total(resource, page.total);
          for (const [record, reason] of refused) {
            tally.failed++;
            failures.push({ resource, url: identified(record) ? recordUrl(record, page.url) : page.url, reason });
          }
          await recallEarlier(kind, root, records);
          const incoming = records.map((record) => incomingOf(kind, root, record));
          const outcomes = await writeBatch(kind, incoming, options);
          outcomes.forEach((result, i) => {
            tally[result.outcome]++;
            if (result.outcome === 'failed') failures.push({ resource, url: recordUrl(records[i], page.url), reason: result.reason });
            else if (incoming[i].missing?.length) partial.push({ record: records[i], url: page.url, missing: incoming[i].missing as string[] });
          });
          progress.tick(resource, (done += page.records.length));
        }
      } catch (error) {
        if (!(error instanceof SourceError)) throw error;
        tally.failed++;
        failures.push({ resource, url: error.url, reason: error.message });
      }
      const completable = partial.filter(({ record }) => mapped(kind, record).missing.length === 0);
      if (completable.length > 0) await writeBatch(kind, completable.map(({ record }) => incomingOf(kind, root, record)), options);
      // Not listed to this import (a draft venue without credentials) nor brought by an earlier run: written
      // (counted so), and listed among the failures, as the run did not bring them whole.
      for (const { record, url, missing } of partial.filter((entry) => !completable.includes(entry))) {
        failures.push({ resource, url: recordUrl(record, url), reason: `written without its ${missing.join(', ')}: not imported (failed, or not listed to this import); the same import run again completes it once they are` });
      }
      progress.end(resource);
    }
    return { summary, failures };
  }

  /**
   * A page of source records through the API's own services, in one transaction with their lineage rows: each
   * created when its key is new, updated when its modification mark moved, else left alone. One transaction a
   * page is what makes the import fast (a commit per record costs more than the record), and new events go in
   * through the service's bulk create, a few statements for the page; should any record fail, the page is
   * written again one record per transaction, so one bad record fails alone.
   */
  async function writeBatch(kind: Kind, batch: Incoming[], options: ImportOptions): Promise<Outcome[]> {
    const seen = await store.repos.lineage.findMany(kind, batch.map((item) => item.key));
    // A dry run, or a page with nothing new: no transaction (each one moves the data version, emptying caches).
    if (options.dryRun || batch.every((item) => plan(item, seen, options) === 'unchanged')) {
      return batch.map((item) => {
        const id = seen.get(item.key)?.local_id;
        if (item.ref && id !== undefined) known.set(item.ref, id);
        return { outcome: plan(item, seen, options), id };
      });
    }
    const as = await caller();
    try {
      return await committed(async (repos) => {
        const outcomes: Outcome[] = [];
        const seenHere = new Map(seen); // what this attempt learns, forgotten if it rolls back
        // Not with targets: one is found through what an earlier record of the page wrote (its lineage).
        const bulk = writers[kind].createManyWithin && !batch.some((item) => item.target) ? new Set(batch.map((item) => item.key)).size === batch.length : false;
        const creates: number[] = [];
        for (const [i, item] of batch.entries()) {
          if (bulk && plan(item, seenHere, options) === 'created') creates.push(i);
          else outcomes[i] = await writeOne(repos, kind, item, seenHere, options, as);
        }
        if (creates.length > 0) {
          const made = creates.map((i) => batch[i]);
          const ids = await (writers[kind].createManyWithin as NonNullable<Writer['createManyWithin']>)(repos, made.map((item) => inputOf(kind, item)), as);
          await repos.lineage.add(kind, made.map((item, n) => ({ sourceKey: item.key, localId: ids[n], sourceModified: markOf(item) })));
          for (const id of ids) repos.changes.noteTouched({ kind, id, userId: as.id });
          creates.forEach((i, n) => {
            outcomes[i] = { outcome: 'created', id: ids[n] };
            if (batch[i].ref) uncommitted.set(batch[i].ref as string, ids[n]);
          });
        }
        return outcomes;
      });
    } catch {
      // Each record on its own, its lineage read again: another import may have brought it meanwhile.
      const outcomes: Outcome[] = [];
      for (const item of batch) {
        const fresh = await store.repos.lineage.findMany(kind, [item.key]);
        outcomes.push(
          await committed((repos) => writeOne(repos, kind, item, new Map(fresh), options, as))
            .catch((error: Error): Outcome => {
              // Not this record's fault, and every record after it would fail alike: the import stops.
              if (databaseUnavailable(error)) throw error;
              return { outcome: 'failed', reason: error.message };
            }),
        );
      }
      return outcomes;
    }
  }

  /** One record and its lineage row, in the caller's transaction. `seen` learns the key: a key twice in a page is written once. */
  async function writeOne(repos: Repositories, kind: Kind, item: Incoming, seen: Seen, options: ImportOptions, as: Caller): Promise<Outcome> {
    const outcome = plan(item, seen, options);
    const last = seen.get(item.key);
    const onto = last?.local_id ?? (outcome === 'created' ? await item.target?.(repos) : undefined);
    const id = outcome === 'unchanged' ? last?.local_id : await writers[kind].saveWithin(repos, inputOf(kind, item), as, onto);
    if (outcome !== 'unchanged' && id !== undefined) {
      const entry = [{ sourceKey: item.key, localId: id, sourceModified: markOf(item) }];
      await (outcome === 'created' ? repos.lineage.add(kind, entry) : repos.lineage.save(kind, entry));
      // A record found here already (its duplicate, or a target) and left as it was still names a new source.
      repos.changes.noteTouched({ kind, id, userId: as.id });
      seen.set(item.key, { local_id: id, source_modified: markOf(item) });
    }
    if (item.ref && id !== undefined) uncommitted.set(item.ref, id);
    return { outcome, id };
  }

  return { run, writeBatch };
}

/** What a record needs: nothing when older than `--since` or unchanged since the last run. */
function plan(item: Incoming, seen: Seen, options: ImportOptions): 'created' | 'updated' | 'unchanged' {
  const last = seen.get(item.key);
  // One written without something it names (its lineage without a mark) is written again, however old.
  // A digest (a term's, or a record without a time) says nothing of when: only a time is compared with --since.
  if (options.since && isStamp(item.modified) && item.modified < options.since && last?.source_modified !== '') return 'unchanged';
  if (last && item.modified !== '' && last.source_modified === item.modified) return 'unchanged';
  return last ? 'updated' : 'created';
}
/** The modification mark a record's lineage keeps: none for one written without something it names (so a run again writes it). */
const markOf = (item: Incoming) => (item.missing?.length ? '' : item.modified);
/** modified_utc where the source has it; terms have none, so a digest of the record stands for it. */
const modifiedMark = (record: Record<string, any>) =>
  isStamp(record.modified_utc) ? record.modified_utc : createHash('sha256').update(JSON.stringify(record)).digest('base64url');
/** A UTC time as the reference writes one; anything else a broken site sends (a NUL, a list) is no mark to keep. */
const isStamp = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value);

/**
 * What of a page can be written, and what fails alone and why: what is no record (null, a number) or names
 * none (its key would be no one's); with credentials, a record whose protection by a password is not known;
 * without, a venue or an organizer a password guards (its name comes blank).
 */
async function writable(listed: unknown[], resource: string, guard?: Guard): Promise<{ records: Record<string, any>[]; refused: Array<[unknown, string]> }> {
  const refused: Array<[unknown, string]> = [];
  const [identifiable, unkeyed] = partition(listed, identified);
  for (const record of unkeyed) refused.push([record, `not a record with an id: ${JSON.stringify(record)?.slice(0, 100)}`]);
  let records = identifiable as Record<string, any>[];
  if (guard) {
    const [found, unseen] = await guard(records);
    for (const record of unseen) refused.push([record, 'not found again as a visitor sees it, so whether a password guards it is not known (deleted or changed while the import read it?); the same import run again brings it']);
    records = found;
  } else {
    const [readable, guarded] = partition(records, (record) => !unreadableToVisitors(resource, record));
    for (const record of guarded) refused.push([record, 'password-protected: a visitor sees it blank, its name too; import with --user and --password to bring it (it comes in private)']);
    records = readable;
  }
  return { records, refused };
}

/**
 * The pages with what `sort` makes of each, the next few pages' sorting begun while the caller writes this one
 * (as many as the source asks for ahead): a guard's requests (a visitor's view of each page) wait on the site
 * together, not one after another behind the database.
 */
async function* sorted<P, S>(pages: AsyncGenerator<P>, sort: (page: P) => Promise<S>, depth = 4): AsyncGenerator<{ page: P } & S> {
  // An async generator answers its next() calls in the order they were made: the queue stays in page order.
  const ahead: Array<Promise<({ page: P } & S) | undefined>> = [];
  const fill = () => {
    while (ahead.length < depth) {
      const next = pages.next().then(async (step) => (step.done ? undefined : { page: step.value, ...(await sort(step.value)) }));
      next.catch(() => {}); // awaited in turn below; one left behind by an early return must not crash the process
      ahead.push(next);
    }
  };
  fill();
  for (let current = await ahead.shift(); current; current = await ahead.shift()) {
    fill();
    yield current;
  }
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}

const recordUrl = (record: Record<string, any>, pageUrl: string) =>
  typeof record.url === 'string' && record.url !== '' ? record.url : `${pageUrl}#id=${record.id}`;
