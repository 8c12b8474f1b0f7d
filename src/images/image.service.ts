import { canBeId } from '../http/schema-types.ts';
import { invalidParam } from '../errors.ts';
import { isHttpUrl } from '../http/schema-types.ts';
import { nowStamp } from '../time/clock.ts';
import type { ImageRepository } from './image.repository.ts';

export interface ImageRecord {
  url: string;
  id: number;
  extension: string;
  sizes: Record<string, never>;
}

export function toImage(row: { id: number; url: string; extension: string } | undefined): ImageRecord | false {
  return row ? { url: row.url, id: row.id, extension: row.extension, sizes: {} } : false;
}

function extensionOf(url: string): string {
  const match = /\.([a-z0-9]{2,5})$/i.exec(new URL(url).pathname);
  return match ? match[1].toLowerCase() : '';
}

/**
 * Images are never fetched (no server-side request to a client's URL): an http(s) URL becomes an image
 * record, one per URL; a number must be an existing image record; `false`, `0`, `""` remove the image;
 * an image object as returned by a GET is read by its id, so a record's own body round-trips.
 * Returns the image id to store, or null to remove it.
 */
export async function resolveImage(input: unknown, images: ImageRepository, param = 'image'): Promise<number | null> {
  if (input === false || input === 0 || input === '' || input === '0' || input === 'false') return null;
  if (input && typeof input === 'object' && 'id' in input) return resolveImage((input as { id: unknown }).id, images, param);
  const numeric =
    typeof input === 'number' ? input : typeof input === 'string' && /^\d+$/.test(input) ? Number(input) : undefined;
  if (numeric !== undefined) {
    // An id no database column can hold (1e308) is no image, not a query the database refuses.
    if (!canBeId(numeric) || !(await images.findById(numeric))) throw invalidParam(param, 'Not an image id.');
    return numeric;
  }
  if (typeof input !== 'string' || !isHttpUrl(input.trim())) throw invalidParam(param, 'Not an image id or an http(s) URL.');
  const url = input.trim();
  const existing = await images.findByUrl(url);
  return existing ? existing.id : images.insert(url, extensionOf(url), nowStamp('UTC').utc);
}
