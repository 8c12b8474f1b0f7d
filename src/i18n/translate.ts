import { de } from './catalog.de.ts';
import { fr } from './catalog.fr.ts';
import type { Language } from './language.ts';

/** Translations of English texts, by language. */
export type Catalogs = Record<Exclude<Language, 'en'>, Record<string, string>>;

/**
 * gettext-style: the English text is the key. Texts with variable parts are keyed by a template where
 * `%s` stands for each part ("Event with ID %s does not exist."), so messages are built in English where
 * they arise and translated only on the way out; codes and data never change.
 */
export function createTranslator(catalogs: Catalogs) {
  const templates = [...new Set(Object.values(catalogs).flatMap((catalog) => Object.keys(catalog)))]
    .filter((key) => key.includes('%s'))
    .map((key) => ({ key, pattern: templatePattern(key) }));

  /** The text in `language`, or `undefined` when the catalog lacks it. */
  function lookup(text: string, language: Exclude<Language, 'en'>): string | undefined {
    const catalog = catalogs[language];
    if (Object.hasOwn(catalog, text)) return catalog[text];
    for (const { key, pattern } of templates) {
      const match = pattern.exec(text);
      if (match && Object.hasOwn(catalog, key)) {
        let part = 1;
        return catalog[key].replace(/%s/g, () => match[part++] ?? '');
      }
    }
    return undefined;
  }

  /** The text in `language`, falling back to English. */
  function translate(text: string, language: Language): string {
    return language === 'en' ? text : (lookup(text, language) ?? text);
  }

  return { lookup, translate };
}

/** What a template matches: the whole text, each `%s` any part (captured, shortest first). */
export function templatePattern(template: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${template.split('%s').map(escape).join('(.*?)')}$`, 's');
}

/** The shipped catalogs' translator. */
export const { lookup, translate } = createTranslator({ fr, de });
