import type { DateTime } from 'luxon';
import { formatSql, parseDate } from './parse-date.ts';

export interface WindowQuery {
  start_date?: string;
  end_date?: string;
  starts_before?: string;
  starts_after?: string;
  ends_before?: string;
  ends_after?: string;
  /** Already coerced from true/1/yes/on. */
  strict_dates?: boolean;
  /** When present and non-empty: no date filter at all. */
  include?: number[];
}

export type WindowParam = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after';

/** Each bound is an instant expressed in the site zone, or undefined when it does not apply. */
export interface DateWindow {
  /** start >= */
  startFrom?: DateTime;
  /** end <= */
  endTo?: DateTime;
  /** start < */
  startsBefore?: DateTime;
  /** start > */
  startsAfter?: DateTime;
  /** end < */
  endsBefore?: DateTime;
  /** end > */
  endsAfter?: DateTime;
  /** What `rest_url` echoes, by public parameter name, as 'YYYY-MM-DD HH:MM:SS' site-time strings. */
  echo: Partial<Record<WindowParam, string>>;
}

/** An unparsable value; the caller turns it into 400 rest_invalid_param naming `param`. */
export class DateWindowError extends Error {
  constructor(readonly param: string) {
    super(`Invalid parameter(s): ${param}`);
    this.name = 'DateWindowError';
  }
}

type Bound = Exclude<keyof DateWindow, 'echo'>;

// Public name -> window key and which end of the day widening picks. The reference widens all four
// relative parameters to 23:59:59 (so `starts_after=2018-01-01` means from the 2nd on): kept on purpose.
const PARAMS: ReadonlyArray<readonly [WindowParam, Bound, 'start' | 'end']> = [
  ['start_date', 'startFrom', 'start'],
  ['end_date', 'endTo', 'end'],
  ['starts_before', 'startsBefore', 'end'],
  ['starts_after', 'startsAfter', 'end'],
  ['ends_before', 'endsBefore', 'end'],
  ['ends_after', 'endsAfter', 'end'],
];
const RELATIVE: readonly WindowParam[] = ['starts_before', 'starts_after', 'ends_before', 'ends_after'];

/**
 * Local wall-clock 00:00:00 or 23:59:59 of the instant's day in its (site) zone. Luxon's day
 * boundaries follow DST, and milliseconds are dropped so bounds match second-resolution columns.
 */
function widen(dt: DateTime, edge: 'start' | 'end'): DateTime {
  return edge === 'start' ? dt.startOf('day') : dt.endOf('day').set({ millisecond: 0 });
}

/** The list window of `GET /events` (API.md §5.7 over the reference's §5.3). */
export function resolveDateWindow(query: WindowQuery, opts: { siteZone: string; now: DateTime }): DateWindow {
  const now = opts.now.setZone(opts.siteZone);
  const strict = query.strict_dates === true;
  const window: DateWindow = { echo: {} };

  // Every supplied value is validated even when `include` discards it: syntax errors come first (§5.4).
  const parsed = new Map<WindowParam, DateTime>();
  for (const [param] of PARAMS) {
    const raw = query[param];
    if (raw === undefined) continue;
    const result = parseDate(raw, { zone: opts.siteZone, now });
    if (!result) throw new DateWindowError(param);
    parsed.set(param, result.value.setZone(opts.siteZone));
  }
  if (query.include !== undefined && query.include.length > 0) return window;

  // Defaults exist only for a plain listing; any relative parameter means the caller chose the window.
  if (!RELATIVE.some((p) => parsed.has(p))) {
    // Unlike the reference (yesterday 23:59 UTC), the default starts today in site time (§5.7).
    const start = strict ? now : now.startOf('day');
    if (!parsed.has('start_date')) parsed.set('start_date', start);
    if (!parsed.has('end_date')) parsed.set('end_date', start.plus({ years: 2 }));
  }

  for (const [param, key, edge] of PARAMS) {
    const value = parsed.get(param);
    if (!value) continue;
    const bound = strict ? value : widen(value, edge);
    window[key] = bound;
    window.echo[param] = formatSql(bound);
  }
  return window;
}

/**
 * The bound as the SQL text to compare with: in 'event' mode the site-time wall clock, which the
 * reference compares with each event's own local start/end; in 'site' mode UTC, for the utc columns.
 */
export function boundText(bound: DateTime, mode: 'event' | 'site'): string {
  return formatSql(mode === 'site' ? bound.toUTC() : bound);
}
