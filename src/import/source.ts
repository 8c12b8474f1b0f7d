/**
 * Reading a live The Events Calendar site (tribe/events/v1): list pages with retries on 5xx and timeouts,
 * 429 honoured through Retry-After (`createFetcher`, which reads an iCalendar feed's URL too). Once the first
 * page says how many there are, the next few are asked for at once (`concurrency`) while the caller writes;
 * pages are still yielded in order, and no more than `concurrency` wait, so memory stays flat whatever the
 * site's size.
 */
export interface SourceOptions {
  user?: string;
  password?: string;
  /** Milliseconds a request may take before it is retried. */
  timeoutMs?: number;
  retries?: number;
  /** First backoff in milliseconds; doubled on each retry. */
  backoffMs?: number;
  perPage?: number;
  /** Pages asked for at the same time (WordPress answers each in its own PHP worker). */
  concurrency?: number;
}

/** A mistake in the command line or a source that cannot be read: nothing has been written. */
export class ImportError extends Error {}

export class SourceError extends Error {
  constructor(
    message: string,
    readonly url: string,
    /** The site's answer, when it gave one: its HTTP status and its error's `code`. */
    readonly answer?: { status: number; code?: string },
  ) {
    super(message);
  }
}

export interface SourcePage {
  /** As the site sent them: records, or anything else a broken site lists (the importer checks each). */
  records: unknown[];
  total: number;
  totalPages: number;
  url: string;
}

/** A record as the reference sends one: an object with its post or term id (a positive integer). */
export const identified = (record: unknown): record is Record<string, any> =>
  typeof record === 'object' && record !== null && !Array.isArray(record) && Number.isSafeInteger((record as Record<string, unknown>).id) && (record as Record<string, number>).id > 0;

const PAST_THE_END = /^(404 \w+-archive-page-not-found|400 rest_term_invalid_page_number)$/;

/** The `code` of a WordPress REST error body, when the text is one. */
function errorCode(text: string): string | undefined {
  try {
    const code = JSON.parse(text)?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads URLs as a source should be read: a 5xx, a timeout (of the answer or its body) or a broken connection
 * is asked again after a backoff that doubles, a 429 after its Retry-After; another 4xx fails at once. `read`
 * makes the text what the caller wants, and throws (its message the reason) for an answer cut short, which is
 * asked again too.
 */
export function createFetcher(options: SourceOptions & { accept: string }) {
  const { timeoutMs = 30_000, retries = 4, backoffMs = 500 } = options;
  const headers: Record<string, string> = { accept: options.accept };
  if (options.user !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${options.user}:${options.password ?? ''}`).toString('base64')}`;
  }

  // Why a request got no whole answer: the timeout, or the network's reason.
  const failureOf = (error: unknown): string => {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `unreachable (${cause ?? (error as Error).message})`;
  };

  return async function get<T>(url: string, read: (text: string) => T): Promise<{ value: T; headers: Headers }> {
    let lastError = 'no answer';
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(backoffMs * 2 ** (attempt - 1));
      let response: Response;
      try {
        response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        lastError = failureOf(error);
        continue;
      }
      if (response.status === 429) {
        const wait = Number(response.headers.get('retry-after'));
        await response.body?.cancel();
        await sleep(Number.isFinite(wait) && wait > 0 ? wait * 1000 : backoffMs);
        lastError = 'HTTP 429';
        continue;
      }
      if (response.status >= 500) {
        await response.body?.cancel();
        lastError = `HTTP ${response.status}`;
        continue;
      }
      // The timeout covers the body too: one that stops coming is given up on, and asked for again, as a page
      // that never answers is (and so is one whose connection breaks midway).
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        lastError = failureOf(error);
        continue;
      }
      if (response.status >= 400) throw new SourceError(`HTTP ${response.status}: ${text.slice(0, 200)}`, url, { status: response.status, code: errorCode(text) });
      try {
        return { value: read(text), headers: response.headers };
      } catch (error) {
        // An answer cut short by a proxy is worth another try; one that stays broken is reported.
        lastError = (error as Error).message;
      }
    }
    throw new SourceError(lastError, url);
  };
}

const json = (text: string): any => {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error('the answer is not JSON');
  }
};

export function createSource(root: string, options: SourceOptions = {}) {
  const base = root.replace(/\/+$/, '');
  const { perPage = 50, concurrency = 4 } = options;
  const get = createFetcher({ ...options, accept: 'application/json' });

  /** The pages of one list (`events`, `venues`, …); `query` adds the list's own parameters. */
  async function fetchPage(resource: string, query: Record<string, string>, page: number): Promise<SourcePage> {
    const params = new URLSearchParams({ ...query, per_page: String(perPage), page: String(page) });
    const url = `${base}/${resource}?${params}`;
    const answer = await get(url, json).catch((error: unknown) => {
      // The reference answers a page past the end of its events, venues or organizers with a 404 of its own
      // (tec-rest-v1.md §2.2), where a list that shrank while it was read ends: an empty page, not a failure.
      // Its terms' lists pass on WordPress's answer, which newer versions may make a 400 of their own.
      if (page > 1 && error instanceof SourceError && PAST_THE_END.test(`${error.answer?.status} ${error.answer?.code}`)) return undefined;
      throw error;
    });
    if (!answer) return { records: [], total: NaN, totalPages: NaN, url };
    const { value: body, headers: h } = answer;
    const records = body?.[resource];
    if (!Array.isArray(records)) throw new SourceError(`not a list of ${resource} from The Events Calendar's API`, url);
    const total = Number(h.get('x-tec-total') ?? h.get('x-wp-total') ?? body.total ?? records.length);
    const totalPages = Number(h.get('x-tec-totalpages') ?? h.get('x-wp-totalpages') ?? body.total_pages ?? page);
    return { records, total, totalPages, url };
  }

  /**
   * The pages of a list, as many as the first says (or, when it says nothing usable, until one is empty or
   * lists nothing new). A site that does not page (a cache that ignores `?page=`) or lists fewer records than
   * it announced would have the import miss records without a word: a page of none but records already listed
   * while fewer than announced were, and a shortfall at the end, fail the list with why (what was read is
   * kept; a run again brings the rest).
   */
  async function* pages(resource: string, query: Record<string, string> = {}): AsyncGenerator<SourcePage> {
    const first = await fetchPage(resource, query, 1);
    const listed = new Set<unknown>();
    // What a page lists that no page before did: records by id, anything else by its text (it was listed, and
    // fails alone in the importer: not a record missed).
    const note = (page: SourcePage) => page.records.map((record) => (identified(record) ? record.id : JSON.stringify(record))).filter((id) => !listed.has(id) && listed.add(id));
    note(first);
    yield first;
    if (first.records.length === 0) return;
    const last = Number.isSafeInteger(first.totalPages) && first.totalPages >= 1 ? first.totalPages : Infinity;
    const ahead: Promise<SourcePage>[] = [];
    let next = 2;
    const fill = () => {
      while (ahead.length < concurrency && next <= last) {
        const pending = fetchPage(resource, query, next++);
        pending.catch(() => {}); // awaited in turn below; a page dropped by an early return must not crash the process
        ahead.push(pending);
      }
    };
    fill();
    let read = 1;
    while (ahead.length > 0) {
      const page = await (ahead.shift() as Promise<SourcePage>);
      if (page.records.length === 0) break;
      // Nothing new right after the first page: the site does not page (unless the first listed everything, its
      // per_page ignored). Later, records moved while the pages were read; the pages announced are read on,
      // but a list of no known length ends there (a site that does not page would never end).
      const fresh = note(page).length > 0;
      // `!(… >= …)`: a total that is no number cannot say that nothing was missed.
      if (!fresh && read === 1 && !(listed.size >= first.total)) {
        throw new SourceError(`this page lists only ${resource} of earlier pages: the site does not page (does a cache ignore ?page=?), so the rest cannot be read`, page.url);
      }
      if (!fresh && last === Infinity) break;
      read++;
      fill();
      yield page;
    }
    if (Number.isFinite(first.total) && listed.size < first.total) {
      throw new SourceError(`the site announced ${first.total} ${resource} and listed ${listed.size}: some may have moved between pages while they were read; the same import run again brings what was missed`, first.url);
    }
  }

  /** These records again, by id (`include`, which the reference takes with the list's other filters but its dates). */
  async function byIds(resource: string, ids: number[], query: Record<string, string>): Promise<Record<string, any>[]> {
    const found: Record<string, any>[] = [];
    for (let i = 0; i < ids.length; i += perPage) {
      const page = await fetchPage(resource, { ...query, include: ids.slice(i, i + perPage).join(',') }, 1);
      found.push(...page.records.filter(identified));
    }
    return found;
  }

  /** One record by id (`events/12`), with `query`'s parameters. */
  async function one(resource: string, id: number, query: Record<string, string>): Promise<Record<string, any> | undefined> {
    const { value } = await get(`${base}/${resource}/${id}?${new URLSearchParams(query)}`, json);
    return identified(value) ? value : undefined;
  }

  /** Checks that the root is a TEC API before anything is written. */
  async function check(): Promise<void> {
    await pages('categories', { per_page: '1' }).next();
  }

  return { pages, byIds, one, check };
}

export type Source = ReturnType<typeof createSource>;
