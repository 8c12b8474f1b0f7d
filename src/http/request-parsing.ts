import { type ApiError, invalidParam } from '../errors.ts';
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
    // No text may hold a NUL: PostgreSQL refuses it in any text column (SQLite keeps it), and no calendar
    // text needs one. Nor a lone surrogate (JSON's `"\udfff"`), which is not Unicode: each database stored it
    // as U+FFFD, but SQLite compared the string as sent (a second tag of the same name was made there, refused
    // on PostgreSQL), and the reference's PHP refuses such JSON. Refused as a bad parameter, on both alike.
    const bad = textError(request.params, 'params') ?? textError(request.query, 'query') ?? textError(request.body, 'body');
    if (bad !== undefined) return done(bad);
    if (request.method !== 'GET' && request.method !== 'DELETE' && request.method !== 'HEAD') {
      const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body : {};
      request.body = { ...(request.query as object), ...body };
    }
    done();
  });
}

const NUL = 'Text may not contain NUL characters.';
const NOT_UNICODE = 'Text must be valid Unicode: it holds an unpaired UTF-16 surrogate.';

/** A bad parameter error naming the first text (at any depth) that holds a NUL character or is not Unicode. */
export function textError(value: unknown, name: string): ApiError | undefined {
  const bad = badTextIn(value, name);
  return bad === undefined ? undefined : invalidParam(bad.name, bad.problem);
}

/** The first parameter whose text (at any depth) holds a NUL character or is not Unicode, and which of the two. */
function badTextIn(value: unknown, name: string, depth = 0): { name: string; problem: string } | undefined {
  if (typeof value === 'string') return textProblem(value, name);
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = textProblem(key, key) ?? badTextIn(item, depth === 0 ? key : name, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function textProblem(text: string, name: string): { name: string; problem: string } | undefined {
  if (text.includes('\u0000')) return { name, problem: NUL };
  // String.prototype.isWellFormed: Node 20 has it; TypeScript's ES2022 library does not yet.
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) return { name, problem: NOT_UNICODE };
  return undefined;
}
