import type { Urls } from '../http/urls.ts';
import { NAMESPACE } from '../http/urls.ts';
import type { RegisteredRoute } from './route-registry.ts';
import { enumOf, propertiesOf, typesOf } from './schema-walk.ts';

type Arg = {
  required: boolean; default?: unknown; description?: string; type?: string | string[]; format?: string; enum?: unknown[]; items?: unknown;
};

// The house formats, named as the reference names its arguments' (`date-time`, `uri`, `email`); numbers
// (coordinates) are `double`, as the reference's `geoloc_lat`/`geoloc_lng` are.
const FORMATS: Record<string, string> = { 'cal-date': 'date-time', 'cal-url-or-empty': 'uri', 'cal-email-text': 'email' };
const formatOf = (schema: Record<string, any>): string | undefined =>
  schema.type === 'number' ? 'double' : typeof schema.format === 'string' ? (FORMATS[schema.format] ?? schema.format) : undefined;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function argsOf(route: RegisteredRoute, methods: string[], translate: (text: string) => string, namespace: string): Record<string, Arg> {
  const { params, querystring, body } = route.schema;
  const sources = [params, methods.some((m) => WRITE_METHODS.has(m)) ? body : querystring];
  const args: Record<string, Arg> = {};
  for (const { name, schema, required } of sources.flatMap(propertiesOf)) {
    const types = typesOf(schema);
    const values = enumOf(schema.type === 'array' ? schema.items : schema);
    args[name] = {
      required,
      // The namespace route's own `namespace` argument defaults to the namespace described.
      ...(schema.default !== undefined ? { default: schema.default === NAMESPACE ? namespace : schema.default } : {}),
      description: translate(schema.description ?? ''),
      ...(types.length ? { type: types.length === 1 ? types[0] : types } : {}),
      ...(formatOf(schema) ? { format: formatOf(schema) } : {}),
      ...(values ? (schema.type === 'array' ? { items: { type: 'string', enum: values } } : { enum: values }) : {}),
      ...(schema.type === 'array' && !values && schema.items ? { items: { type: typesOf(schema.items) } } : {}),
    };
  }
  return args;
}

/** The namespace a description names, and the REST root its `up` link points at (both differ on `/wp-json`). */
export interface ApiNames {
  namespace: string;
  root: string;
}

/**
 * WordPress's namespace description (`GET /wp-json/<namespace>`): every route in its regex form, its
 * methods, and each endpoint's arguments, generated from the schemas that validate them. `context=embed`
 * leaves the arguments out, as WordPress's embed context does. Route keys are under `names.namespace`;
 * `self` links name the canonical path (the WordPress path's answers are rewritten on the way out).
 */
export function namespaceDescription(
  routes: RegisteredRoute[], urls: Urls, translate: (text: string) => string, withArgs = true,
  names: ApiNames = { namespace: NAMESPACE, root: `${urls.origin}/` },
) {
  const byRoute = new Map<string, RegisteredRoute[]>();
  for (const route of routes) byRoute.set(route.wpRoute, [...(byRoute.get(route.wpRoute) ?? []), route]);
  const described: Record<string, unknown> = {};
  for (const [wpRoute, group] of byRoute) {
    const endpoints = group.map((route) => ({
      methods: route.methods,
      ...(withArgs ? { args: argsOf(route, route.methods, translate, names.namespace) } : {}),
    }));
    const hasParams = group.some((r) => r.path.includes('{'));
    described[`/${names.namespace}${wpRoute.slice(NAMESPACE.length + 1)}`] = {
      namespace: names.namespace,
      methods: group.flatMap((r) => r.methods),
      endpoints,
      ...(hasParams ? {} : { _links: { self: [{ href: `${urls.origin}${wpRoute}` }] } }),
    };
  }
  return { namespace: names.namespace, routes: described, _links: { up: [{ href: names.root }] } };
}
