import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MINUTE = 60_000;
const UNCOUNTED = new Set(['/healthz', '/readyz', '/metrics']);
const AUTH_WINDOW = 15 * MINUTE;

export interface RateLimits {
  reads: number;
  writes: number;
  authFailures: number;
}

/** What the auth layer asks before checking a credential, and tells after one failed. */
export interface AuthGuard {
  refuse(request: FastifyRequest, reply: FastifyReply): void;
  failed(request: FastifyRequest): Promise<void>;
}

const tooMany = (reply: FastifyReply, seconds: number, signIns: boolean) => {
  void reply.header('retry-after', String(seconds));
  const message = signIns ? `Too many failed sign-ins from this address: try again in ${seconds} seconds.` : `Too many requests: try again in ${seconds} seconds.`;
  return new ApiError(429, 'rest_too_many_requests', message, { retry_after: seconds });
};

/**
 * Rate limits (counted by @fastify/rate-limit's store, per process): reads and writes each have a budget a
 * minute, per user when signed in and per address otherwise; failed authentications have a stricter one per
 * address, and past it credentials from that address are not even checked until the window ends. Answers
 * carry the IETF `RateLimit-Policy` and `RateLimit` fields; a refusal is 429 with `Retry-After`.
 * Counted after authentication (so a user is one client wherever it comes from), before the handler.
 */
export async function createRateLimits(app: FastifyInstance, limits: RateLimits, onReject: (budget: string) => void) {
  await app.register(rateLimit, { global: false });
  const client = (request: FastifyRequest) => (request.caller ? `user:${request.caller.id}` : `ip:${request.ip}`);
  const budgets = {
    reads: app.createRateLimit({ max: limits.reads, timeWindow: MINUTE, keyGenerator: (request) => `r|${client(request)}` }),
    writes: app.createRateLimit({ max: limits.writes, timeWindow: MINUTE, keyGenerator: (request) => `w|${client(request)}` }),
  };
  // Refused once `authFailures` have failed (the store refuses past `max`, so the last allowed is one less).
  const failures = app.createRateLimit({ max: limits.authFailures - 1, timeWindow: AUTH_WINDOW, keyGenerator: (request) => `a|${request.ip}` });
  const blockedUntil = new Map<string, number>();

  /** Adds the budgets' hook: call it after the authentication hook, so the caller is known. */
  const enforce = () => app.addHook('preHandler', async (request, reply) => {
    // Load balancers and scrapers ask these from one address all day: they are not a client's requests.
    if (request.is404 || UNCOUNTED.has(request.routeOptions.url ?? '')) return;
    const name = WRITE_METHODS.has(request.method) ? 'writes' : 'reads';
    const state = await budgets[name](request);
    if (state.isAllowed) return;
    const reset = state.ttlInSeconds;
    void reply.header('ratelimit-policy', `"${name}";q=${state.max};w=60`).header('ratelimit', `"${name}";r=${Math.max(0, state.remaining)};t=${reset}`);
    if (state.isExceeded) {
      onReject(name);
      throw tooMany(reply, reset, false);
    }
  });

  const guard: AuthGuard = {
    refuse(request, reply) {
      const until = blockedUntil.get(request.ip);
      if (until === undefined) return;
      if (until <= Date.now()) return void blockedUntil.delete(request.ip);
      onReject('auth-failures');
      throw tooMany(reply, Math.ceil((until - Date.now()) / 1000), true);
    },
    async failed(request) {
      const state = await failures(request);
      if (state.isAllowed || !state.isExceeded) return;
      if (blockedUntil.size > 100_000) blockedUntil.clear(); // bounded, whatever the number of addresses
      blockedUntil.set(request.ip, Date.now() + state.ttl);
    },
  };
  return { guard, enforce };
}
