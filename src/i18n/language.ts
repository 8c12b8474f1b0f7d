/** The languages whose texts ship complete; English is the default and the fallback. */
export const SHIPPED_LANGUAGES = ['en', 'fr', 'de'] as const;
export type Language = (typeof SHIPPED_LANGUAGES)[number];

const isShipped = (code: string): code is Language => (SHIPPED_LANGUAGES as readonly string[]).includes(code);

/**
 * The language of a request: the `/{lang}/` segment when the URL has one, else the best match of
 * `Accept-Language` (by quality, then order; `fr-CA` matches `fr`), else English.
 */
export function pickLanguage(segment: string | undefined, acceptLanguage: string | undefined, served: string[]): Language {
  const usable = (code: string) => {
    const base = code.toLowerCase().split('-')[0];
    return isShipped(base) && served.some((s) => s.toLowerCase().split('-')[0] === base) ? base : undefined;
  };
  if (segment) return usable(segment) ?? 'en';
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const found = usable(tag);
    if (found) return found;
  }
  return 'en';
}
