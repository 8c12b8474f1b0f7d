import { ApiError } from '../errors.ts';
import { jsonText } from './json-text.ts';

export interface PageRequest {
  page: number;
  perPage: number;
}

/** `per_page` defaults to 10 and is silently clamped to the cap, as the reference does. */
export function pageRequest(query: { page?: number; per_page?: number }, maxPerPage: number): PageRequest {
  return { page: query.page ?? 1, perPage: Math.min(query.per_page ?? 10, maxPerPage) };
}

export type QueryEcho = Record<string, string | number | boolean | Array<string | number> | undefined>;

// Booleans are written as WordPress's add_query_arg writes PHP booleans: `featured=1`, `strict_dates=0`.
function linkTo(base: string, echo: QueryEcho, page: number | undefined): string {
  const params = new URLSearchParams();
  if (page !== undefined) params.set('page', String(page));
  for (const [key, value] of Object.entries(echo)) {
    if (value === undefined) continue;
    params.set(key, Array.isArray(value) ? value.join(',') : typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

export interface ListPage<T> {
  items: T[];
  total: number;
  totalPages: number;
  restUrl: string;
  nextRestUrl?: string;
  previousRestUrl?: string;
}

/**
 * Page links and totals for every list. Links echo the effective query (filters included, unlike the
 * reference's term lists), `next`/`previous` appear only when those pages have items, and a page past
 * the end (`page > 1` with nothing on it) is 404 on every list.
 */
export function listPage<T>(args: {
  items: T[];
  total: number;
  page: PageRequest;
  base: string;
  echo: QueryEcho;
  pageNotFound: { code: string; message: string };
}): ListPage<T> {
  const { items, total, page, base, echo } = args;
  if (items.length === 0 && page.page > 1) throw new ApiError(404, args.pageNotFound.code, args.pageNotFound.message);
  const totalPages = total === 0 ? 0 : Math.ceil(total / page.perPage);
  const result: ListPage<T> = { items, total, totalPages, restUrl: linkTo(base, echo, page.page) };
  if (page.page < totalPages) result.nextRestUrl = linkTo(base, echo, page.page + 1);
  if (page.page > 1 && page.page - 1 <= totalPages) {
    result.previousRestUrl = linkTo(base, echo, page.page - 1 === 1 ? undefined : page.page - 1);
  }
  return result;
}

/**
 * The events, venues and organizers envelope (reference §2.1 key order) around records that are already
 * JSON text, so cached records are not serialized again.
 */
export function postListJson(key: string, list: ListPage<string>): string {
  const link = (name: string, url: string | undefined) => (url === undefined ? '' : `,"${name}":${jsonText(url)}`);
  // One join, one flat string: the envelope added around the joined records made a tree of strings, whose
  // UTF-8 bytes Node counts (Content-Length) by copying it flat and then a character at a time (callgrind:
  // ~90k instructions of a kept ten-event page's ~850k).
  const parts = [`{"${key}":[`];
  for (const [i, item] of list.items.entries()) parts.push(i === 0 ? item : `,${item}`);
  parts.push(
    `],"rest_url":${jsonText(list.restUrl)}${link('next_rest_url', list.nextRestUrl)}${link('previous_rest_url', list.previousRestUrl)}` +
    `,"total":${list.total},"total_pages":${list.totalPages}}`,
  );
  return parts.join('');
}

/** The list headers of the reference; lists send them on every response, empty ones included. */
export function listHeaders(list: { total: number; totalPages: number }): Record<string, string> {
  return { 'X-TEC-Total': String(list.total), 'X-TEC-TotalPages': String(list.totalPages) };
}
