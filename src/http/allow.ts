import type { FastifyInstance, onSendHookHandler } from 'fastify';
import type { RegisteredRoute } from '../docs/route-registry.ts';

/**
 * `Allow` on every answer of a known route (success or error), listing the methods the route accepts, as
 * WordPress sends it. Read from the route registry, so it cannot drift from what is registered.
 *
 * A hook of each registered route's own, bound to its URL: a hook of the app's found the route of every
 * answer through `request.routeOptions`, which Fastify builds anew at each access, and ran for the site's
 * pages and the feeds too, which have no such header.
 */
export function registerAllowHeader(app: FastifyInstance, routes: RegisteredRoute[]) {
  let allowed: Map<string, string> | undefined;
  const build = () => {
    const methods = new Map<string, string[]>();
    for (const route of routes) methods.set(route.url, [...(methods.get(route.url) ?? []), ...route.methods]);
    return new Map([...methods].map(([url, list]) => [url, [...new Set(list)].join(', ')]));
  };
  app.addHook('onRoute', (options) => {
    // The registry has seen this route already (its hook was added first), or the GET of a HEAD route.
    if (!routes.some((route) => route.url === options.url)) return;
    const url = options.url;
    let allow: string | undefined;
    const setAllow: onSendHookHandler = (_request, reply, payload, done) => {
      // Known on first use: every route is registered by the time the server answers.
      allow ??= (allowed ??= build()).get(url);
      if (allow) void reply.header('allow', allow);
      done(null, payload);
    };
    options.onSend = [setAllow, ...[options.onSend ?? []].flat()];
  });
}
