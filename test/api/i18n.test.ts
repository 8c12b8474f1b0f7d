import { expect, it } from 'vitest';
import { lookup } from '../../src/i18n/translate.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

type Args = Record<string, { description: string }>;
type Routes = Record<string, { endpoints: Array<{ args?: Args }> }>;

/** Every argument description of the namespace description, in route and endpoint order. */
function argDescriptions(routes: Routes): string[] {
  return Object.values(routes).flatMap((route) =>
    route.endpoints.flatMap((endpoint) => Object.values(endpoint.args ?? {}).map((arg) => arg.description)),
  );
}

/** Every `description` and `summary` text anywhere in the OpenAPI document. */
function documentTexts(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => documentTexts(item, found));
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if ((key === 'description' || key === 'summary') && typeof item === 'string') found.push(item);
      else documentTexts(item, found);
    }
  }
  return found;
}

const untranslated = (texts: string[]) =>
  [...new Set(texts)].filter((text) => lookup(text, 'fr') === undefined || lookup(text, 'de') === undefined).sort();

describeEachDialect('translations of the API texts', (t) => {
  it('every argument description of the namespace description ships in French and German', async () => {
    const texts = argDescriptions((await t().request({ url: API })).json.routes);
    expect(texts.length).toBeGreaterThan(50);
    expect(untranslated(texts)).toEqual([]);
  });

  it('every description and summary of the OpenAPI document ships in French and German', async () => {
    const doc = (await t().request({ url: `${API}/doc` })).json;
    const texts = documentTexts(doc);
    expect(texts).toContain(doc.info.description);
    expect(untranslated(texts)).toEqual([]);
  });

  it('the namespace description is sent translated, argument by argument', async () => {
    const en = argDescriptions((await t().request({ url: API })).json.routes);
    const fr = argDescriptions((await t().request({ url: `/fr${API}` })).json.routes);
    const de = argDescriptions((await t().request({ url: API, headers: { 'accept-language': 'de-CH, fr;q=0.5' } })).json.routes);
    expect(fr).toEqual(en.map((text) => lookup(text, 'fr')));
    expect(de).toEqual(en.map((text) => lookup(text, 'de')));
  });

  it('the document is sent translated: parameters, error responses, summaries and schemas', async () => {
    const en = (await t().request({ url: `${API}/doc` })).json;
    const de = (await t().request({ url: `/de${API}/doc` })).json;
    const list = (doc: typeof en) => doc.paths['/events'].get;
    expect(de.info.description).toBe(lookup(en.info.description, 'de'));
    expect(list(de).parameters.map((p: { description: string }) => p.description)).toEqual(
      list(en).parameters.map((p: { description: string }) => lookup(p.description, 'de')),
    );
    expect(list(de).responses['400'].description).toBe(lookup(list(en).responses['400'].description, 'de'));
    expect(de.paths['/doc'].get.summary).toBe('Das OpenAPI-Dokument dieser API');
    const fr = (await t().request({ url: `${API}/doc`, headers: { 'accept-language': 'fr-CA' } })).json;
    expect(fr.paths['/events'].post.requestBody.content['application/json'].schema.properties.title.description).toBe(
      "Le titre de l'événement",
    );
  });
});
