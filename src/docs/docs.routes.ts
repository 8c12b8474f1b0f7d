import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import { optional } from '../http/schema-types.ts';
import { NAMESPACE, type Urls } from '../http/urls.ts';
import { apiNames } from '../http/wp-json.ts';
import type { Language } from '../i18n/language.ts';
import { translate } from '../i18n/translate.ts';
import { registerExplorer } from './explorer.ts';
import { namespaceDescription } from './namespace.ts';
import { openApiDocument } from './openapi.ts';
import type { RegisteredRoute } from './route-registry.ts';

const AnyObject = Type.Object({}, { additionalProperties: true });
const NamespaceQuery = Type.Object(optional({
  namespace: Type.String({ default: NAMESPACE, description: 'The namespace to describe' }),
  context: Type.Union([Type.Literal('view'), Type.Literal('help'), Type.Literal('embed')], {
    default: 'view', description: 'Scope of the description: view and help include every argument, embed leaves them out',
  }),
}));

/** `GET /` (the REST index), the namespace description, `/doc` (OpenAPI) and the API explorer. */
export function registerDocsRoutes(app: FastifyInstance, deps: { routes: RegisteredRoute[]; urls: Urls; config: Config; version: string }) {
  const { routes, urls, config } = deps;
  const base = `/${NAMESPACE}`;
  // Generated once per language on first use: the routes are final once the server is ready.
  const docs = new Map<Language, unknown>();

  // The REST index, like WordPress's `/wp-json/`: the namespaces served and every route of them.
  app.get('/', { schema: { response: { 200: AnyObject } } }, (request) => {
    const names = apiNames(request.raw, urls);
    return {
      name: 'cal-events',
      description: 'A standalone calendar events service',
      url: urls.origin,
      home: urls.origin,
      timezone_string: config.timezone,
      namespaces: [names.namespace],
      authentication: { 'application-passwords': { endpoints: {} } },
      routes: namespaceDescription(routes, urls, (text) => translate(text, request.language), true, names).routes,
      _links: { help: [{ href: `${urls.api}/explorer` }] },
    };
  });

  app.get(base, { schema: { querystring: NamespaceQuery, response: { 200: AnyObject } }, config: { summary: 'Describe the namespace' } }, (request) => {
    const names = apiNames(request.raw, urls);
    const { namespace = names.namespace, context = 'view' } = request.query as { namespace?: string; context?: string };
    if (namespace !== names.namespace) throw new ApiError(404, 'rest_invalid_namespace', 'The specified namespace could not be found.');
    return namespaceDescription(routes, urls, (text) => translate(text, request.language), context !== 'embed', names);
  });

  app.get(`${base}/doc`, { schema: { response: { 200: AnyObject } }, config: { summary: 'The OpenAPI document of this API' } }, (request) => {
    let doc = docs.get(request.language);
    if (!doc) {
      doc = openApiDocument(routes, urls, (text) => translate(text, request.language), deps.version);
      docs.set(request.language, doc);
    }
    return doc;
  });

  registerExplorer(app, base);
}
