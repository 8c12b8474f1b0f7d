import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { NAMESPACE } from '../http/urls.ts';

export interface RouteSchemas {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  response?: Record<number, TSchema>;
}

export interface RegisteredRoute {
  methods: string[];
  /** The route as Fastify knows it: `/cal/events/v1/events/:id(^\\d+)`. */
  url: string;
  /** The path under the namespace in OpenAPI form: `/events/{id}`. */
  path: string;
  /** The WordPress form of the same route: `/cal/events/v1/events/(?P<id>\d+)`. */
  wpRoute: string;
  schema: RouteSchemas;
  summary?: string;
  /** Other media types the 200 answer may have (by content negotiation), each with its description. */
  alternatives?: Record<string, string>;
  /** Whether conditional requests may get 304 Not Modified. */
  notModified?: boolean;
  /** Error statuses of this route's own beyond the usual ones, each with its description. */
  errors?: Record<number, string>;
}

/** What a route's config says about its documentation (declared in http/route-config.ts). */
type RouteDocs = Pick<FastifyContextConfig, 'hidden' | 'summary' | 'alternatives' | 'notModified' | 'errors'>;

const PREFIX = `/${NAMESPACE}`;

/**
 * Every API route as Fastify registers it, with the schemas that validate and serialize it: the one
 * source the namespace description and the OpenAPI document are generated from.
 */
export function collectRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (options) => {
    const config = options.config as RouteDocs | undefined;
    if (!options.url.startsWith(PREFIX) || options.method === 'HEAD' || config?.hidden) return;
    const methods = (Array.isArray(options.method) ? options.method : [options.method]).filter((m) => m !== 'HEAD');
    const under = options.url.slice(PREFIX.length) || '/';
    const path = under.replace(/:(\w+)(\([^)]*\))?/g, '{$1}');
    const wpRoute = options.url.replace(/:(\w+)\(\^\\d\+\)/g, '(?P<$1>\\d+)').replace(/:(\w+)/g, '(?P<$1>[^/]+)');
    routes.push({
      methods, url: options.url, path, wpRoute, schema: (options.schema ?? {}) as RouteSchemas,
      summary: config?.summary, alternatives: config?.alternatives, notModified: config?.notModified, errors: config?.errors,
    });
  });
  return routes;
}
