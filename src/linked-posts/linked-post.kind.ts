import type { PostColumns } from '../db/database.ts';
import type { Urls } from '../http/urls.ts';
import type { ImageRecord } from '../images/image.service.ts';
import type { PostRow, PostTableName } from '../posts/post.repository.ts';

/**
 * What makes venues and organizers differ; everything else (statuses, permissions, slugs, trash,
 * duplicates, lists) is one implementation for both, as the reference's linked posts are.
 */
export interface LinkedPostKind<T extends PostTableName> {
  table: T;
  /** The input and output key of the record's name: `venue` or `organizer`. */
  nameField: T;
  /** The list envelope key and the path segment: `venues`, `organizers`. */
  plural: string;
  permalinkPrefix: string;
  /** Columns the list `search` looks in (title, content, excerpt plus the kind's own). */
  searchColumns: string[];
  label: string;
  /** The kind's own columns from an input: all of them on create, only the sent ones on update. */
  ownColumns(input: Record<string, unknown>, existing?: PostRow<T>): Partial<PostRow<T>>;
  /** The record a client sees, every key always present (API.md §5.5); `json_ld` only on single reads. */
  toRecord(row: PostRow<T>, shared: SharedRecordParts, single: boolean): Record<string, unknown>;
}

export interface SharedRecordParts {
  image: ImageRecord | false;
  urls: Urls;
  /** The source keys the record was imported from (`cal-events import`), for its global_id_lineage. */
  importedFrom: string[];
}

/** The keys every post-like record starts with, in the reference's order. */
export function recordHead(row: PostColumns, url: string) {
  return {
    id: row.id,
    author: String(row.author_id),
    status: row.status,
    date: row.date_local,
    date_utc: row.date_utc,
    modified: row.modified_local,
    modified_utc: row.modified_utc,
    url,
  };
}

/** Our global id, then those of the records it was imported from (`cal-events import`), as TEC's lineage lists them. */
export function globalIds(urls: Urls, id: number, importedFrom: string[] = []) {
  const globalId = urls.globalId(id);
  return { global_id: globalId, global_id_lineage: [globalId, ...importedFrom] };
}

/** Sent text fields, trimmed; on create every field is filled ('' when absent). */
export function textColumns(input: Record<string, unknown>, names: string[], create: boolean): Record<string, string> {
  const columns: Record<string, string> = {};
  for (const name of names) {
    if (input[name] !== undefined) columns[name] = String(input[name]).trim();
    else if (create) columns[name] = '';
  }
  return columns;
}

/** Sent flags as 0/1; on create an absent flag takes its default. */
export function flagColumns(input: Record<string, unknown>, defaults: Record<string, boolean>, create: boolean) {
  const columns: Record<string, number> = {};
  for (const [name, fallback] of Object.entries(defaults)) {
    if (input[name] !== undefined) columns[name] = input[name] ? 1 : 0;
    else if (create) columns[name] = fallback ? 1 : 0;
  }
  return columns;
}
