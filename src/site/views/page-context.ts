import type { Language } from '../../i18n/language.ts';
import type { Words } from '../site-words.ts';

/** What every view knows about the request it answers. */
export interface PageContext {
  language: Language;
  words: Words;
  siteName: string;
  /** The languages a visitor can switch to (CAL_LOCALES that ship texts). */
  languages: Language[];
  /** This page's path and query without the language segment: the language switch links to it. */
  path: string;
  /** A root-relative link in this page's language: `/fr/event/x/` on a page reached as `/fr/...`. */
  href(path: string): string;
}
