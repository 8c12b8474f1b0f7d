import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, forbidden } from '../errors.ts';
import type { AuthGuard } from '../http/rate-limit.ts';
import type { Caller } from './roles.ts';
import type { UserService } from './user.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function credentialOf(header: string | undefined): { login?: string; password: string } | null | 'malformed' {
  if (!header) return null;
  const [scheme, value = ''] = header.trim().split(/\s+(.*)/s);
  if (/^bearer$/i.test(scheme)) return value ? { password: value } : 'malformed';
  if (!/^basic$/i.test(scheme)) return 'malformed';
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) } : 'malformed';
}

/**
 * Basic `login:application-password` and `Bearer <application-password>`. Checked after parameter
 * validation (the reference's order: 400 before 401). A wrong credential is always 401, never a silent
 * anonymous downgrade; a write without any credential is 401 too.
 */
export function registerAuth(app: FastifyInstance, users: UserService, guard?: AuthGuard): void {
  app.decorateRequest('caller', null);
  const check = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const credential = credentialOf(request.headers.authorization);
    if (credential === 'malformed') {
      throw new ApiError(401, 'rest_not_logged_in', 'The Authorization header is not a Basic or Bearer credential.');
    }
    if (credential) {
      // An address that failed too often is not even checked (guessing costs it the window, not a hash).
      guard?.refuse(request, reply);
      request.caller = await users.authenticate(credential.password, credential.login);
      if (!request.caller) {
        await guard?.failed(request);
        throw new ApiError(401, 'incorrect_password', 'The provided password is an invalid application password.');
      }
    }
    // A page's form (the event password) posts without being a write of the API.
    const anonymousForm = (request.routeOptions.config as { anonymousForm?: boolean } | undefined)?.anonymousForm === true;
    if (!request.caller && !READ_METHODS.has(request.method) && !anonymousForm) throw forbidden(false);
  };
  // Callback style: an anonymous read (most requests) passes without a promise.
  app.addHook('preHandler', (request, reply, done) => {
    // An unknown route is 404 rest_no_route first, whoever asks.
    if (request.is404 || (!request.headers.authorization && READ_METHODS.has(request.method))) return done();
    check(request, reply).then(() => done(), done);
  });
}
