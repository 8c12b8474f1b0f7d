import type { Config } from '../config.ts';

export const NAMESPACE = 'cal/events/v1';

/** Every URL the API prints, built from CAL_PUBLIC_URL. */
export function createUrls(config: Config) {
  const origin = config.publicUrl;
  const api = `${origin}/${NAMESPACE}`;
  const home = new URL(origin);
  // The reference's global id is host and path without scheme or port: "example.org?id=12".
  const globalBase = `${home.hostname}${home.pathname.replace(/\/+$/, '')}`;
  return {
    origin,
    api,
    collection: (path: string) => `${api}/${path}`,
    permalink: (prefix: string, slug: string) => `${origin}/${prefix}/${encodeURIComponent(slug)}/`,
    globalId: (id: number) => `${globalBase}?id=${id}`,
  };
}

export type Urls = ReturnType<typeof createUrls>;
