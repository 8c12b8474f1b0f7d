import { describe, expect, it } from 'vitest';
import { de } from '../../src/i18n/catalog.de.ts';
import { fr } from '../../src/i18n/catalog.fr.ts';
import { pickLanguage } from '../../src/i18n/language.ts';
import { createTranslator, templatePattern } from '../../src/i18n/translate.ts';
import { createMessageCheck } from '../helpers/message-check.ts';

// The shipped catalogs plus a few test-only entries: no shipped text has several parts yet, and the
// exact-key-over-template rule needs a key that a template also matches. Given to a translator of the test's
// own, not mocked into the module: the suite's files share their modules (vitest.config.ts).
const catalogs = {
  fr: {
    ...fr,
    'Move %s from %s to %s.': 'Déplacer %s de %s vers %s.',
    'Invalid parameter(s): everything': 'Tout est non valide.',
    'Only in French.': 'Seulement en français.',
  },
  de: { ...de, 'Move %s from %s to %s.': '%s von %s nach %s verschieben.' },
};
const { lookup, translate } = createTranslator(catalogs);
const assertMessagesTranslated = createMessageCheck(catalogs);

const placeholders = (text: string) => text.split('%s').length - 1;

describe('lookup and translate', () => {
  it('translates an exact key', () => {
    expect(lookup('Invalid parameter.', 'fr')).toBe('Paramètre non valide.');
    expect(lookup('Invalid parameter.', 'de')).toBe('Ungültiger Parameter.');
    expect(translate('Sorry, you are not allowed to do that.', 'fr')).toBe("Désolé, cette action n'est pas autorisée.");
    expect(translate('The archive page to return', 'de')).toBe('Die zurückzugebende Archivseite');
  });

  it('fills a template with the variable part of the English text', () => {
    expect(translate('Event with ID 99 does not exist.', 'fr')).toBe("L'événement d'ID 99 n'existe pas.");
    expect(translate('Event with ID 99 does not exist.', 'de')).toBe('Die Veranstaltung mit der ID 99 existiert nicht.');
    expect(translate('Invalid parameter(s): page, per_page', 'fr')).toBe('Paramètre(s) non valide(s) : page, per_page');
    expect(translate('Missing parameter(s): title, start_date', 'de')).toBe('Fehlende(r) Parameter: title, start_date');
    expect(translate('The venue with slug "main-hall" does not exist.', 'fr')).toBe('Le lieu de slug "main-hall" n\'existe pas.');
  });

  it('fills several parts in order, whatever characters they hold', () => {
    expect(translate('Move a from b to c.', 'fr')).toBe('Déplacer a de b vers c.');
    expect(translate('Move a from b to c.', 'de')).toBe('a von b nach c verschieben.');
    expect(translate('Move x.y* from (z)$ to \nline%s.', 'fr')).toBe('Déplacer x.y* de (z)$ vers \nline%s.');
    expect(translate('Move  from  to .', 'fr')).toBe('Déplacer  de  vers .');
  });

  it('passes the parts through untouched, regex characters, quotes and %s included', () => {
    expect(translate('Event with slug "a.b(c)+[d]%s" does not exist.', 'de')).toBe(
      'Die Veranstaltung mit dem Slug "a.b(c)+[d]%s" existiert nicht.',
    );
    expect(translate('No categories term matches "Jazz & Blues".', 'fr')).toBe('Aucune catégorie ne correspond à "Jazz & Blues".');
  });

  it('prefers an exact key to a template that also matches', () => {
    expect(translate('Invalid parameter(s): everything', 'fr')).toBe('Tout est non valide.');
    expect(translate('Invalid parameter(s): everything', 'de')).toBe('Ungültige(r) Parameter: everything');
  });

  it('matches a template only as a whole text', () => {
    expect(lookup('Event with ID 99 does not exist. Really.', 'fr')).toBeUndefined();
    expect(lookup('Oh: Event with ID 99 does not exist.', 'fr')).toBeUndefined();
  });

  it('falls back to English for an unknown text, and leaves English as it is', () => {
    expect(lookup('A text nobody translated.', 'fr')).toBeUndefined();
    expect(translate('A text nobody translated.', 'fr')).toBe('A text nobody translated.');
    expect(translate('A text nobody translated.', 'de')).toBe('A text nobody translated.');
    expect(translate('Invalid parameter.', 'en')).toBe('Invalid parameter.');
    expect(translate('Event with ID 99 does not exist.', 'en')).toBe('Event with ID 99 does not exist.');
  });

  it('never takes an inherited property for an entry', () => {
    expect(lookup('constructor', 'fr')).toBeUndefined();
    expect(lookup('toString', 'de')).toBeUndefined();
    expect(lookup('__proto__', 'fr')).toBeUndefined();
  });
});

describe('the catalogs', () => {
  it('hold the same keys in French and German', () => {
    expect(Object.keys(fr).filter((key) => !Object.hasOwn(de, key))).toEqual([]);
    expect(Object.keys(de).filter((key) => !Object.hasOwn(fr, key))).toEqual([]);
  });

  it('keep every variable part of a template, and translate into non-empty texts', () => {
    for (const catalog of [fr, de]) {
      for (const key of Object.keys(catalog)) {
        expect(placeholders(catalog[key]), key).toBe(placeholders(key));
        expect(catalog[key].trim(), key).not.toBe('');
      }
    }
  });

  it('keep code spans and quoted values as they are', () => {
    const spans = (text: string) => (text.match(/`[^`]*`|"[^"]*"/g) ?? []).sort();
    for (const catalog of [fr, de]) {
      for (const key of Object.keys(catalog)) expect(spans(catalog[key]), key).toEqual(spans(key));
    }
  });

  it('have no template that would swallow another key', () => {
    for (const key of Object.keys(fr).filter((k) => k.includes('%s'))) {
      const pattern = templatePattern(key);
      const swallowed = Object.keys(fr).filter((other) => other !== key && pattern.test(other));
      expect(swallowed, key).toEqual([]);
    }
  });
});

describe('pickLanguage', () => {
  const served = ['en', 'fr', 'de'];

  it('takes the URL segment first, whatever Accept-Language says', () => {
    expect(pickLanguage('fr', 'de', served)).toBe('fr');
    expect(pickLanguage('DE', undefined, served)).toBe('de');
    expect(pickLanguage('fr-CA', undefined, served)).toBe('fr');
  });

  it('answers English for a segment it does not serve or ship', () => {
    expect(pickLanguage('es', 'fr', served)).toBe('en');
    expect(pickLanguage('fr', undefined, ['en', 'de'])).toBe('en');
  });

  it('takes the Accept-Language entry of the highest quality, then the first', () => {
    expect(pickLanguage(undefined, 'de', served)).toBe('de');
    expect(pickLanguage(undefined, 'en;q=0.5, de;q=0.9, fr;q=0.7', served)).toBe('de');
    expect(pickLanguage(undefined, 'de-DE,de;q=0.9,en;q=0.5', served)).toBe('de');
    expect(pickLanguage(undefined, 'fr, de', served)).toBe('fr');
    expect(pickLanguage(undefined, 'de;q=0.8, fr;q=0.8', served)).toBe('de');
    expect(pickLanguage(undefined, 'en, fr;q=0.9', served)).toBe('en');
  });

  it('matches a regional tag by its language: fr-CA is French', () => {
    expect(pickLanguage(undefined, 'fr-CA', served)).toBe('fr');
    expect(pickLanguage(undefined, 'de-AT;q=0.9, en-US;q=0.1', served)).toBe('de');
    expect(pickLanguage('fr', undefined, ['en', 'fr-CA'])).toBe('fr');
  });

  it('skips unknown, unserved and refused languages, falling back to English', () => {
    expect(pickLanguage(undefined, 'es-ES, xx;q=0.8', served)).toBe('en');
    expect(pickLanguage(undefined, 'es, de;q=0.2', served)).toBe('de');
    expect(pickLanguage(undefined, 'de;q=0, fr;q=0.1', served)).toBe('fr');
    expect(pickLanguage(undefined, 'de;q=0', served)).toBe('en');
    expect(pickLanguage(undefined, 'de', ['en', 'fr'])).toBe('en');
    expect(pickLanguage(undefined, 'es', ['en', 'es'])).toBe('en');
    expect(pickLanguage(undefined, '*', served)).toBe('en');
    expect(pickLanguage(undefined, '', served)).toBe('en');
    expect(pickLanguage(undefined, undefined, served)).toBe('en');
  });
});

describe('the message check of the API suite', () => {
  const body = (message: string, params?: unknown) => ({ code: 'rest_test', message, data: { status: 400, params } });

  it('accepts messages and reasons translated in both languages, in English or already translated', () => {
    expect(() => assertMessagesTranslated(body('Invalid parameter(s): page', { page: 'Invalid parameter.' }))).not.toThrow();
    expect(() => assertMessagesTranslated(body("L'événement d'ID 7 n'existe pas."))).not.toThrow();
    expect(() => assertMessagesTranslated(body('Ungültige(r) Parameter: page', { page: 'Ungültiger Parameter.' }))).not.toThrow();
    expect(() => assertMessagesTranslated(body('Missing parameter(s): title', ['title']))).not.toThrow();
  });

  it('ignores bodies that are no error', () => {
    expect(() => assertMessagesTranslated({ message: 'Not an error body' })).not.toThrow();
    expect(() => assertMessagesTranslated([{ code: 'x' }])).not.toThrow();
    expect(() => assertMessagesTranslated(undefined)).not.toThrow();
  });

  it('throws on a message or a reason missing from a catalog', () => {
    expect(() => assertMessagesTranslated(body('A brand new message.'))).toThrow('untranslated message: "A brand new message."');
    expect(() => assertMessagesTranslated(body('Invalid parameter(s): page', { page: 'A new reason.' }))).toThrow(
      'untranslated message: "A new reason."',
    );
    // A test-only entry of the French catalog alone: German would fall back to English.
    expect(() => assertMessagesTranslated(body('Only in French.'))).toThrow('untranslated message');
    expect(() => assertMessagesTranslated(body('Seulement en français.'))).toThrow('untranslated message');
  });
});
