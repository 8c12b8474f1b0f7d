import type { FastifyInstance } from 'fastify';
import type { RegisteredRoute } from '../docs/route-registry.ts';

/**
 * `Allow` on every answer of a known route (success or error), listing the methods the route accepts, as
 * WordPress sends it. Read from the route registry, so it cannot drift from what is registered.
 */
export function registerAllowHeader(app: FastifyInstance, routes: RegisteredRoute[]) {
  let allowed: Map<string, string> | undefined;
  const build = () => {
    const methods = new Map<string, string[]>();
    for (const route of routes) methods.set(route.url, [...(methods.get(route.url) ?? []), ...route.methods]);
    return new Map([...methods].map(([url, list]) => [url, [...new Set(list)].join(', ')]));
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    // Built on first use: every route is registered by the time the server answers.
    allowed ??= build();
    const url = request.routeOptions.url;
    const allow = url === undefined ? undefined : allowed.get(url);
    if (allow) void reply.header('Allow', allow);
    done(null, payload);
  });
}
