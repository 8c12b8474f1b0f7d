import { de } from '../../src/i18n/catalog.de.ts';
import { fr } from '../../src/i18n/catalog.fr.ts';
import { type Catalogs, createTranslator, templatePattern } from '../../src/i18n/translate.ts';

/**
 * The API suite as the completeness check of messages: every error body a test receives must have its
 * `message` and each per-parameter reason (`data.params` as an object) in French and German. Made for the
 * shipped catalogs (`assertMessagesTranslated`), or for others in the check's own test.
 */
export function createMessageCheck(catalogs: Catalogs) {
  const { lookup } = createTranslator(catalogs);
  const { fr, de } = catalogs;
  // Every translated text, as an exact string or a pattern, whose English key both catalogs hold: a body
  // already sent in French or German counts as translated when its message is one of these.
  const translations = [fr, de].flatMap((catalog) =>
    Object.entries(catalog)
      .filter(([key]) => Object.hasOwn(fr, key) && Object.hasOwn(de, key))
      .map(([, text]) => (text.includes('%s') ? templatePattern(text) : text)),
  );

  function isTranslated(text: string): boolean {
    if (lookup(text, 'fr') !== undefined && lookup(text, 'de') !== undefined) return true;
    return translations.some((t) => (typeof t === 'string' ? t === text : t.test(text)));
  }

  return (json: unknown): void => {
    if (!json || typeof json !== 'object') return;
    const body = json as { code?: unknown; message?: unknown; data?: { params?: unknown } };
    if (typeof body.code !== 'string' || typeof body.message !== 'string') return;
    const texts = [body.message];
    const params = body.data?.params;
    if (params && typeof params === 'object' && !Array.isArray(params)) {
      texts.push(...Object.values(params).filter((value): value is string => typeof value === 'string'));
    }
    for (const text of texts) {
      if (!isTranslated(text)) throw new Error(`untranslated message: ${JSON.stringify(text)} (code ${body.code})`);
    }
  };
}

export const assertMessagesTranslated = createMessageCheck({ fr, de });
