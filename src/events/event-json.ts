import type { ChangeWatch, Forget } from '../changes/change-watch.ts';
import { cacheBytes, textBytes } from '../db/cache-budget.ts';
import { createRecordCache } from '../db/record-cache.ts';
import { digestTag, type TaggedText } from '../http/conditional.ts';
import { jsonText } from '../http/json-text.ts';

// What a kept row or text takes besides its long strings: the object, its short fields, the map entry.
const ROW_OVERHEAD = 1024;
import { toEmbeddedTerm } from '../terms/term.service.ts';
import type { Taxonomy } from '../terms/term.kind.ts';
import type { EventCheck, EventLinks, EventRow } from './event.repository.ts';
import { blanked, isLocked, type RecordDeps, type RecordOptions } from './event.record.ts';
import type { LinkedTexts } from '../linked-posts/linked-texts.ts';
import { embedsIn, fillText, ownPieces, ownText } from './event-text.ts';
import { type Own, ownDigest, type StoredTexts } from './stored-texts.ts';

/**
 * An event record as JSON text with its two term lists left out: the terms it embeds carry their counts,
 * which every write of another event in them moves, so they are put in when the text is served. The rest of
 * the text changes only when the event, its venue, one of its organizers or one of its terms does.
 */
interface RecordText {
  /** The whole text as last put together, where its two term lists are in it, and their terms' digests. */
  json: string;
  at: { categories: [number, number]; tags: [number, number] };
  termDigests: string;
  /** The term generation (see `termsSeen`) its term lists are of; -1 when they may be out of date. */
  terms: number;
  /** The term generation its term lists were last put together at without being kept (see `put`); -1 never. */
  spliced: number;
  categories: number[];
  tags: number[];
  venue: number | null;
  organizers: number[];
  /** The text for a caller the event's password does not unlock: no terms in it, so kept as it is. */
  blanked?: string;
  /** What a single read checks before serving the text (the event's row as it was when the text was built). */
  check: EventCheck;
  /** What the entity tag of a single form's text is composed from besides its term lists (see `composedTag`). */
  sources: TagSources;
  /** The entity tag of `json`, once a single read composed it (forgotten when `json` is replaced). */
  etag: string | undefined;
}

/** A term's record as events embed it, with its digest (taken once, for every event that embeds it). */
interface TermText {
  json: string;
  digest: string;
}
const termTextOf = (json: string): TermText => ({ json, digest: digestTag(json) });

/** The digests of the parts a record's text is put together from (event-text.ts `fillText`). */
interface TagSources {
  own: string;
  venue: string | undefined;
  organizers: string[];
}

/**
 * What the code makes of sample parts: composed into every tag, so a tag changes with the code that puts a
 * record's text together, as the text would (the own text's code is in the stored texts' fingerprint).
 */
const ASSEMBLY = digestTag(fillText(ownPieces(`{"a":1,\u0001venue\u0001,"o":\u0001organizers\u0001,"c":\u0001categories\u0001,"t":\u0001tags\u0001\u0001ld\u0001,"json_ld":{"v":\u0001venueld\u0001,"o":[\u0001organizerld0\u0001]}}`), true, {
  venue: { head: '{"v":1', tail: '}', jsonLd: '{"vl":1}', digest: '' }, organizers: [{ head: '{"o":1', tail: '}', jsonLd: '{"ol":1}', digest: '' }], categories: '[1]', tags: '[2]',
}).json);

/**
 * The entity tag of a record's single-form text, composed from the digests of its parts, its term lists' among
 * them (`termDigests`, those of the terms in each list, in order): the text is a function of these parts alone
 * (`fillText`), so equal parts make equal texts, and a text whose bytes differ has other parts. Each part's
 * digest is taken once (an own text's when it is stored, a linked record's or term's when it is kept), so a
 * read digests a few hundred bytes, not the ~10 kB it sends; a write's If-Match is checked against the same
 * composition.
 */
function composedTag(sources: TagSources, termDigests: string, fingerprint: string): string {
  return digestTag(`${ASSEMBLY}\n${fingerprint}\n${sources.own}\n${sources.venue ?? ''}\n${sources.organizers.join(',')}\n${termDigests}`);
}

/** A record's whole text, where its term lists are in it, and their terms' digests (see `composedTag`). */
type Filled = Pick<RecordText, 'json' | 'at' | 'termDigests'>;

/** The texts a record embeds, found: its venue's, its organizers' and its terms', each list in its order. */
interface Parts {
  venue: LinkedTexts | undefined;
  organizers: LinkedTexts[];
  categories: TermText[];
  tags: TermText[];
}

/** The values `ids` name that `get` finds, in order; with `all`, undefined unless it finds every one. */
function found<T>(ids: number[], get: (id: number) => T | undefined, all: true): T[] | undefined;
function found<T>(ids: number[], get: (id: number) => T | undefined): T[];
function found<T>(ids: number[], get: (id: number) => T | undefined, all = false): T[] | undefined {
  const values: T[] = [];
  for (const id of ids) {
    const value = get(id);
    if (value !== undefined) values.push(value);
    else if (all) return undefined;
  }
  return values;
}

const checkOf = ({ id, slug, status, author_id, password, revision, venue_id }: EventCheck): EventCheck =>
  ({ id, slug, status, author_id, password, revision, venue_id });
/** A row read whole, as opposed to a single read's checked columns (which build a text only from a stored one). */
const isWhole = (row: EventRow | EventCheck): row is EventRow => 'description' in row;

/**
 * Whether building texts reads the stored ones (stored-texts.ts), and offers those it builds to be stored. A
 * write's answer does neither: nothing is stored for the revision it just made, and its reader may never come.
 */
interface Stored {
  read: boolean;
  offer: boolean;
  /** Nothing kept in memory is used or kept either: a write's check sees what its own transaction sees. */
  fresh?: boolean;
  /** Links known without a read, by event (a create's, as it wrote them): an event not here has its read. */
  links?: Map<number, EventLinks>;
}

/**
 * Event rows and records as JSON text, kept per record and forgotten per record when the change log says
 * what changed (changes/change-watch.ts): a write to one event leaves every other kept record valid.
 */
export function createEventJson(watch: ChangeWatch, stored: StoredTexts) {
  const since = watch.generation;
  // Rows of a few kB (the description twice: as written and as searched) and JSON text of ~10 kB a record.
  const rows = createRecordCache<number, EventRow>(5000, since, 'event-rows', {
    bytes: cacheBytes(0.1),
    weigh: (row) => ROW_OVERHEAD + textBytes(row.description) + textBytes(row.search_text) + textBytes(row.excerpt) + textBytes(row.title),
  }, { admitByFrequency: true });
  const slugs = createRecordCache<string, number>(5000, since, 'event-slugs');
  // Each event's text in either form, keyed by a number (a string made for each lookup is hashed anew, by the
  // frequency sketch too).
  const textKey = (id: number, single: boolean) => (single ? 2 * id + 1 : 2 * id);
  const texts = createRecordCache<number, RecordText>(3000, since, 'event-records', {
    bytes: cacheBytes(0.3),
    weigh: (text) => ROW_OVERHEAD + textBytes(text.json),
  }, { admitByFrequency: true });
  const MOST_TERMS = 20000;
  const terms = createRecordCache<number, TermText>(MOST_TERMS, since, 'embedded-terms');
  // Image rows never change once written (images are deduplicated by URL and never edited or deleted).
  const images = new Map<number, { id: number; url: string; extension: string }>();
  const MOST_IMAGES = 5000;
  // Moves whenever a kept term text is forgotten. A whole text put together before is out of date if one of
  // its own terms was forgotten since (`termForgotten`), or every term was (`allTermsForgotten`): a new event
  // moves the counts of its two or three terms, and the texts that embed none of them stay as they are.
  let termsSeen = 0;
  let allTermsForgotten = 0;
  const termForgotten = new Map<number, number>();
  const forgetTerm = (id: number) => {
    // Bounded as the kept texts are: past as many terms as there are kept term texts, forgetting all is cheaper.
    if (termForgotten.size >= MOST_TERMS) return forgetAllTerms();
    terms.delete(id);
    termForgotten.set(id, ++termsSeen);
  };
  const forgetAllTerms = () => {
    terms.clear();
    termForgotten.clear();
    allTermsForgotten = ++termsSeen;
  };
  /** Whether none of the text's terms was forgotten since generation `seen`. */
  const termsSince = (text: RecordText, seen: number) =>
    seen >= allTermsForgotten &&
    text.categories.every((id) => (termForgotten.get(id) ?? 0) <= seen) &&
    text.tags.every((id) => (termForgotten.get(id) ?? 0) <= seen);
  const termsCurrent = (text: RecordText) => termsSince(text, text.terms);
  // Events changed since the term texts were brought up to date: the counts of the terms they are in now
  // moved (those they were in are forgotten at once, from their kept text). Read before any text is served.
  const touched = new Set<number>();
  let catchingUp: Promise<void> | undefined;

  watch.onForget((forget: Forget) => {
    if (forget === 'all') {
      for (const cache of [rows, slugs, texts]) cache.clear();
      forgetAllTerms();
      return;
    }
    for (const { kind, id, action } of forget) {
      if (kind === 'event') {
        // The counts of the terms it was in moved (known from its kept text; a new event was in none), and
        // of those it is in now (read before the next text is served).
        const was = texts.get(textKey(id, false)) ?? texts.get(textKey(id, true));
        if (was) for (const term of [...was.categories, ...was.tags]) forgetTerm(term);
        else if (action !== 'create') forgetAllTerms();
        touched.add(id);
        rows.delete(id);
        texts.delete(textKey(id, true));
        texts.delete(textKey(id, false));
      } else if (kind === 'venue' || kind === 'organizer') {
        // Their own texts are forgotten by their services (linked-post.service.ts), which watch too.
        texts.deleteWhere((text) => (kind === 'venue' ? text.venue === id : text.organizers.includes(id)));
      }
      else {
        texts.deleteWhere((text) => text.categories.includes(id) || text.tags.includes(id));
        forgetTerm(id);
      }
    }
  });

  /**
   * Brings the term texts of the terms the events changed since the last look are in now up to date: they are
   * forgotten (the texts that embed them are put together again) and kept anew from the same read, so the
   * requests that serve those texts next do not each read the terms again.
   */
  async function catchUpTerms(deps: RecordDeps, from: number): Promise<void> {
    while (catchingUp) await catchingUp;
    if (touched.size === 0) return;
    const ids = [...touched];
    touched.clear();
    catchingUp = deps.repos.events.termsOfEvents(ids).then((rows) => {
      for (const row of rows) {
        forgetTerm(row.id);
        const taxonomy = row.taxonomy as Taxonomy;
        terms.set(row.id, termTextOf(jsonText(toEmbeddedTerm(row, Number(row.count ?? 0), deps.urls, taxonomy))), from);
      }
    }).finally(() => (catchingUp = undefined));
    await catchingUp;
  }

  /** The embedded terms' JSON, from those kept, the rest read in one query a taxonomy. */
  async function termTexts(ids: { categories: number[]; tags: number[] }, deps: RecordDeps, from: number, fresh = false) {
    const found = new Map<number, TermText>();
    for (const [taxonomy, wanted] of [['tribe_events_cat', ids.categories], ['post_tag', ids.tags]] as Array<[Taxonomy, number[]]>) {
      const missing: number[] = [];
      for (const id of wanted) {
        const text = fresh ? undefined : terms.get(id);
        if (text === undefined) missing.push(id);
        else found.set(id, text);
      }
      if (missing.length === 0) continue;
      for (const row of await deps.repos.terms.findByIds(taxonomy, [...new Set(missing)])) {
        const text = termTextOf(jsonText(toEmbeddedTerm(row, row.count, deps.urls, taxonomy)));
        found.set(row.id, text);
        if (!fresh) terms.set(row.id, text, from);
      }
    }
    return found;
  }

  /** A term list's JSON, and its terms' digests (`composedTag`). */
  const termList = (texts: TermText[]) => {
    let json = '';
    let digests = '';
    for (const text of texts) {
      json += json === '' ? text.json : `,${text.json}`;
      digests += `${text.digest},`;
    }
    return { json: `[${json}]`, digests };
  };

  /**
   * The whole text with its term lists as they are now. The text keeps it (one copy, the old one let go)
   * when nothing was forgotten since `from`, and only when it is served a second time with the same terms:
   * a kept text lives in V8's old space, so keeping each new version of a text that is out of date again
   * before it is next served (a busy calendar moves the counts of its terms with every new event) turned
   * ~10 kB a time into old-space garbage, which only a full collection gives back.
   */
  function put(text: RecordText, termText: Map<number, TermText>, from: number): Filled {
    if (termsCurrent(text)) return text;
    const { json, at } = text;
    const term = (id: number) => termText.get(id);
    const categories = termList(found(text.categories, term));
    const tags = termList(found(text.tags, term));
    const whole = json.slice(0, at.categories[0]) + categories.json + json.slice(at.categories[1], at.tags[0]) + tags.json + json.slice(at.tags[1]);
    const again = termsSince(text, text.spliced);
    text.spliced = termsSeen;
    const tagsStart = at.categories[0] + categories.json.length + (at.tags[0] - at.categories[1]);
    const filled: Filled = {
      json: whole,
      at: { categories: [at.categories[0], at.categories[0] + categories.json.length], tags: [tagsStart, tagsStart + tags.json.length] },
      termDigests: `${categories.digests}|${tags.digests}`,
    };
    if (again && from === since()) Object.assign(text, filled, { terms: termsSeen, etag: undefined });
    return filled;
  }

  /** A record's text to keep (where its term lists are, to put new ones in), and the whole text to serve now. */
  function textOf({ json, at, termDigests }: Filled, row: EventCheck, links: Own['links'], sources: TagSources, from: number): { text: RecordText; json: string } {
    const text: RecordText = {
      json, at, termDigests,
      // Its term lists are current only if nothing was forgotten since the read began.
      terms: from === since() ? termsSeen : -1,
      spliced: -1,
      categories: links.categories, tags: links.tags, venue: row.venue_id, organizers: links.organizers, check: checkOf(row),
      sources, etag: undefined,
    };
    return { text, json };
  }

  /** The image rows of these events, kept ones from memory. */
  async function imageRows(eventRows: EventRow[], deps: RecordDeps) {
    const missing = [...new Set(eventRows.map((row) => row.image_id).filter((id): id is number => id !== null && !images.has(id)))];
    if (images.size + missing.length > MOST_IMAGES) images.clear();
    for (const image of await deps.repos.images.findByIds(missing)) images.set(image.id, image);
    return images;
  }

  /**
   * The texts of events not kept: their own texts (event-text.ts) from those stored (one statement), the rest
   * built from their rows and their links (one statement) and offered to be stored when `use` says so; then
   * filled with the venue, organizer and term texts kept, the few missing read for all at once. A stored text
   * that embeds a venue or organizer no longer there (or not one now there) is built again. `owned`: own texts
   * already read. A row of a single read's checked columns alone is built only from its own text: left out
   * otherwise, for its reader to read whole.
   */
  async function build(missing: Array<EventRow | EventCheck>, deps: RecordDeps, single: boolean, from: number, use: Stored, owned?: Map<number, Own>) {
    const made = new Map<number, { text: RecordText; json: string }>();
    if (missing.length === 0) return made;
    const owns = owned ?? (use.read ? await stored.read(missing) : new Map<number, Own>());
    const fromStore = new Set(owns.keys());
    const fresh = missing.filter((row) => !fromStore.has(row.id)).filter(isWhole);
    const known = use.links;
    const links = known && fresh.every((row) => known.has(row.id)) ? known : await deps.repos.events.linksOf(fresh.map((row) => row.id));
    const venueIds: number[] = [];
    for (const row of missing) if (row.venue_id !== null) venueIds.push(row.venue_id);
    const venues = await deps.venues.texts(venueIds, from, deps.repos, use.fresh);
    const organizerIds: number[] = [];
    for (const own of owns.values()) organizerIds.push(...own.links.organizers);
    for (const link of links.values()) organizerIds.push(...link.organizers);
    const organizers = await deps.organizers.texts(organizerIds, from, deps.repos, use.fresh);
    const imagesById = await imageRows(fresh, deps);
    // Built in the single form unless neither this read nor the store wants it (a write's answer), whose
    // json_ld would be built for nothing.
    const form = single || use.offer;
    for (const row of fresh) {
      const own = links.get(row.id) as EventLinks;
      const found = own.organizers.filter((id) => organizers.has(id));
      const text = ownText(row, {
        links: own,
        venue: row.venue_id !== null && venues.has(row.venue_id),
        organizers: found.length,
        image: row.image_id === null ? undefined : imagesById.get(row.image_id),
      }, deps, form);
      const built = { own: text, links: { categories: own.categories, tags: own.tags, organizers: found } };
      owns.set(row.id, built);
      if (use.offer) stored.offer(row, built);
    }
    const termIds = { categories: [] as number[], tags: [] as number[] };
    for (const own of owns.values()) {
      termIds.categories.push(...own.links.categories);
      termIds.tags.push(...own.links.tags);
    }
    const termText = await termTexts(termIds, deps, from, use.fresh);
    const again: EventRow[] = [];
    const term = (id: number) => termText.get(id);
    for (const row of missing) {
      const own = owns.get(row.id);
      if (own === undefined) continue;
      const parts: Parts = {
        venue: row.venue_id === null ? undefined : venues.get(row.venue_id),
        organizers: found(own.links.organizers, (id) => organizers.get(id)),
        categories: found(own.links.categories, term),
        tags: found(own.links.tags, term),
      };
      const text = assemble(row, own, parts, single, from, fromStore.has(row.id));
      if (text) made.set(row.id, text);
      else if (isWhole(row)) again.push(row);
    }
    if (again.length > 0) for (const [id, text] of await build(again, deps, single, from, { read: false, offer: use.offer, fresh: use.fresh })) made.set(id, text);
    return made;
  }

  /**
   * One event's text from its own text and the parts found of what it embeds, in the single form unless
   * `single` is false; undefined for a stored own text (`fromStore`) that embeds a venue or organizer other than
   * those found (one gone since, or one there now that was not when it was built): it is built again from the row.
   */
  function assemble(row: EventCheck, own: Own, parts: Parts, single: boolean, from: number, fromStore: boolean) {
    const { links } = own;
    const { venue, organizers } = parts;
    const pieces = ownPieces(own.own);
    if (fromStore) {
      const built = embedsIn(pieces);
      if (built.venue !== (venue !== undefined) || organizers.length !== links.organizers.length || built.organizers !== organizers.length) return undefined;
    }
    const categories = termList(parts.categories);
    const tags = termList(parts.tags);
    const { json, at } = fillText(pieces, single, { venue, organizers, categories: categories.json, tags: tags.json });
    // Only a single form's text is ever tagged.
    const sources = { own: single ? ownDigest(own) : '', venue: venue?.digest, organizers: organizers.map((organizer) => organizer.digest) };
    return textOf({ json, at, termDigests: categories.digests + '|' + tags.digests }, row, links, sources, from);
  }

  /**
   * A single read's text from its stored own text and the parts kept in memory, without a statement or a
   * turn of the event loop; undefined when a part it names is not kept (`build` reads those), or the own
   * text embeds other parts than there are now.
   */
  function fromKept(row: EventCheck, own: Own, from: number, deps: RecordDeps) {
    const venue = row.venue_id === null ? undefined : deps.venues.keptText(row.venue_id);
    if (row.venue_id !== null && venue === undefined) return undefined;
    const organizers = found(own.links.organizers, (id) => deps.organizers.keptText(id), true);
    const term = (id: number) => terms.get(id);
    const categories = found(own.links.categories, term, true);
    const tags = found(own.links.tags, term, true);
    if (organizers === undefined || categories === undefined || tags === undefined) return undefined;
    return assemble(row, own, { venue, organizers, categories, tags }, true, from, true);
  }

  /** The text as this caller may see it: blanked (and kept so) behind a password it has not unlocked. */
  function forCaller(text: RecordText, json: string, row: EventCheck, options: RecordOptions): string {
    if (!isLocked(row, options)) return json;
    text.blanked ??= jsonText(blanked(JSON.parse(json)));
    return text.blanked;
  }

  /**
   * The text as this caller may see it, with its tag: composed once for as long as the text is kept as it is
   * (`composedTag`); the blanked text of a protected event, digested.
   */
  function tagged(text: RecordText, { json, termDigests }: Filled, options: RecordOptions): TaggedText {
    const served = forCaller(text, json, text.check, options);
    if (served !== json) return { json: served, etag: () => digestTag(served) };
    const tag = () => composedTag(text.sources, termDigests, stored.fingerprint);
    return { json, etag: () => (json === text.json ? (text.etag ??= tag()) : tag()) };
  }

  return {
    /**
     * An event's row by id or slug, kept until it changes; `load` reads it when not kept. `from` is the
     * generation taken after `watch.sync()`, before anything was read.
     */
    async row(ref: { id: number } | { slug: string }, from: number, load: () => Promise<EventRow>): Promise<EventRow> {
      const id = 'id' in ref ? ref.id : slugs.get(ref.slug);
      const kept = id === undefined ? undefined : rows.get(id);
      // A slug is not forgotten when its event changes (that walked every kept slug on every write): one that
      // names a kept row of another slug now (moved, or taken since by another event) is looked up again.
      if (kept && ('id' in ref || kept.slug === ref.slug)) return kept;
      const row = await load();
      rows.set(row.id, row, from);
      slugs.set(row.slug, row.id, from);
      return row;
    },

    /** Rows by id in the order asked, kept ones from memory, the rest read with one `loadMany`. */
    async rows(ids: number[], from: number, loadMany: (ids: number[]) => Promise<EventRow[]>): Promise<EventRow[]> {
      const found = new Map<number, EventRow>();
      const missing: number[] = [];
      for (const id of ids) {
        const row = rows.get(id);
        if (row) found.set(id, row);
        else missing.push(id);
      }
      for (const row of await loadMany(missing)) {
        found.set(row.id, row);
        rows.set(row.id, row, from);
      }
      // An id whose row went in between (deleted since the ids were read) is left out.
      return ids.map((id) => found.get(id)).filter((row) => row !== undefined);
    },

    /**
     * The entity tag a single read of this row's event would send an unlocked caller, from its parts as `deps`
     * (a write's transaction) sees them, nothing kept in memory used: what a write's If-Match is checked against.
     */
    async tagOf(row: EventRow, deps: RecordDeps): Promise<string> {
      const made = (await build([row], deps, true, since(), { read: false, offer: false, fresh: true })).get(row.id);
      if (!made) throw new Error(`event ${row.id}: no text was built`);
      return composedTag(made.text.sources, made.text.termDigests, stored.fingerprint);
    },

    /** Builds and stores the own texts of these rows (stored-texts.ts), and waits until they are written. */
    async store(eventRows: EventRow[], deps: RecordDeps): Promise<void> {
      await build(eventRows, deps, true, since(), { read: false, offer: true });
      await stored.flush();
    },

    /**
     * The records of these rows as JSON text: kept text reused, the rest built with a fixed number of
     * queries. Protection is applied per caller on a copy.
     */
    async texts(eventRows: EventRow[], deps: RecordDeps, options: RecordOptions & { from: number; stored?: Stored }): Promise<string[]> {
      await catchUpTerms(deps, options.from);
      const single = options.single ?? false;
      const kept = eventRows.map((row) => texts.get(textKey(row.id, single)));
      const missing = eventRows.filter((_, i) => kept[i] === undefined);
      const made = await build(missing, deps, single, options.from, options.stored ?? { read: true, offer: true });
      for (const [id, { text }] of made) texts.set(textKey(id, single), text, options.from);
      const stale = kept.filter((text) => text !== undefined && !termsCurrent(text)) as RecordText[];
      const wanted = { categories: stale.flatMap((text) => text.categories), tags: stale.flatMap((text) => text.tags) };
      const termText = await termTexts(wanted, deps, options.from);
      return eventRows.map((row, i) => {
        const own = made.get(row.id);
        const text = own?.text ?? (kept[i] as RecordText);
        return forCaller(text, own ? own.json : put(text, termText, options.from).json, row, options);
      });
    },

    /**
     * One event's text for a single read (by id, or by lowercase slug). `check` is given the event's checked
     * columns (undefined: there is no such event) and throws for a caller who may not read it. A kept text is
     * served with no statement; otherwise one statement reads its stored own text, which carries the checked
     * columns (stored-texts.ts), and only an event without a valid one is read whole and its text built.
     */
    async single(ref: { id: number } | { slug: string }, deps: RecordDeps, options: RecordOptions & { from: number }, check: (row: EventCheck | undefined) => asserts row is EventCheck): Promise<TaggedText> {
      const { from } = options;
      await catchUpTerms(deps, from);
      const id = 'id' in ref ? ref.id : slugs.get(ref.slug);
      const kept = id === undefined ? undefined : texts.get(textKey(id, true));
      // A kept slug that names an event of another slug now (moved, or taken since) is read again.
      if (kept && ('id' in ref || kept.check.slug === ref.slug)) {
        check(kept.check);
        const termText = termsCurrent(kept) ? new Map<number, TermText>() : await termTexts(kept, deps, from);
        return tagged(kept, put(kept, termText, from), options);
      }
      const read = await deps.repos.eventTexts.served(ref, stored.fingerprint);
      let made: { text: RecordText; json: string } | undefined;
      if (read) {
        check(read);
        const row = checkOf(read);
        const own = stored.validOwn(read);
        made = fromKept(row, own, from, deps) ?? (await build([row], deps, true, from, { read: false, offer: false }, new Map([[row.id, own]]))).get(row.id);
      }
      if (!made) {
        // No valid stored text (none yet, or the event changed since), or one that embeds a venue or organizer
        // no longer there: the event is read whole.
        const { events } = deps.repos;
        const whole = await (read ? events.findById(read.id) : 'id' in ref ? events.findById(ref.id) : events.findBySlug(ref.slug));
        check(whole);
        made = (await build([whole], deps, true, from, { read: false, offer: true })).get(whole.id);
        if (!made) throw new Error(`event ${whole.id}: no text was built`);
      }
      const row = made.text.check;
      // Kept for reads by slug only: most reads by id are of texts never kept (admitByFrequency), and every
      // slug kept pushes out another.
      if ('slug' in ref) slugs.set(row.slug, row.id, from);
      texts.set(textKey(row.id, true), made.text, from);
      return tagged(made.text, made.text, options);
    },
  };
}

export type EventJson = ReturnType<typeof createEventJson>;
