import { DateTime } from 'luxon';
import { Type } from 'typebox';
import { invalidParam } from '../errors.ts';
import { DateInput } from '../http/schema-types.ts';
import { formatSql, parseDate } from '../time/parse-date.ts';

/**
 * What incremental readers add to the event, venue and organizer lists: records modified in a window, and
 * an explicit order (`orderby=modified&order=asc` walks every change since a time, page by page).
 */
export const ORDER_BY = ['date', 'modified', 'title', 'id', 'distance'] as const;
export type OrderBy = (typeof ORDER_BY)[number];

export const modifiedQueryFields = {
  modified_after: DateInput('Records modified after this time (UTC unless the value names its offset)'),
  modified_before: DateInput('Records modified before this time (UTC unless the value names its offset)'),
  orderby: Type.Union(ORDER_BY.map((o) => Type.Literal(o)), { description: 'Sort by publication date, last modification, title, id, or distance from the geoloc_lat/geoloc_lng centre (default: the list\'s own order)' }),
  order: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Sort direction with orderby (default desc, as WordPress)' }),
};

export interface ModifiedQuery {
  modified_after?: string;
  modified_before?: string;
  orderby?: OrderBy;
  order?: 'asc' | 'desc';
}

/** A column every post-like table has, and a direction; ties are broken by id in the same direction. */
export interface ListOrder<Column extends string = string> {
  /** `distance`: from the list's geolocation centre (nearest first unless `order` says otherwise). */
  column: Column | 'date_utc' | 'modified_utc' | 'title' | 'id' | 'distance';
  direction: 'asc' | 'desc';
}

const COLUMNS = { date: 'date_utc', modified: 'modified_utc', title: 'title', id: 'id', distance: 'distance' } as const;

/**
 * The order a query asks for, or `fallback` (the list's own) when it names none. `distance` needs a centre
 * (`hasCentre`), else 400.
 */
export function listOrder<Column extends string>(query: ModifiedQuery, fallback: ListOrder<Column>, hasCentre = false): ListOrder<Column> {
  if (!query.orderby) return fallback;
  if (query.orderby === 'distance') {
    if (!hasCentre) throw invalidParam('orderby', 'orderby=distance needs a centre: geoloc_lat and geoloc_lng.');
    return { column: 'distance', direction: query.order ?? 'asc' };
  }
  return { column: COLUMNS[query.orderby], direction: query.order ?? 'desc' };
}

/** The modification window as stored UTC text (`modified_utc` compares as text). */
export function modifiedWindow(query: ModifiedQuery): { after?: string; before?: string } {
  const utc = (name: 'modified_after' | 'modified_before') => {
    const value = query[name];
    if (value === undefined) return undefined;
    const parsed = parseDate(value, { zone: 'UTC', now: DateTime.utc() });
    if (!parsed) throw invalidParam(name);
    return formatSql(parsed.value.toUTC());
  };
  return { after: utc('modified_after'), before: utc('modified_before') };
}
