import type { FastifyInstance } from 'fastify';
import qs from 'qs';

// PHP-style brackets (`venue[venue]=X`, `cost[]=0$`, `organizer[0][organizer]=A`) and repeated keys
// (`a=1&a=2`) both become arrays and objects, as WordPress reads them.
const QS_OPTIONS: qs.IParseOptions = { depth: 5, arrayLimit: 100, parameterLimit: 1000, duplicates: 'combine' };

export function parseQueryString(text: string): Record<string, unknown> {
  return qs.parse(text, QS_OPTIONS) as Record<string, unknown>;
}

/** Form bodies, and write parameters sent in the query string merged under the body (the body wins). */
export function registerRequestParsing(app: FastifyInstance): void {
  // Bodies are JSON or form data; anything else is 415 rather than silently ignored.
  app.removeContentTypeParser('text/plain');
  // An empty body is no body, whatever its type says: WordPress clients send `DELETE` (and others) with
  // `Content-Type: application/json` and nothing after it, and WordPress accepts that.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    json(request, body as string, done);
  });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, parseQueryString(body as string)),
  );
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.method !== 'GET' && request.method !== 'DELETE' && request.method !== 'HEAD') {
      const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body : {};
      request.body = { ...(request.query as object), ...body };
    }
    done();
  });
}
