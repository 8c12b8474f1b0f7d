import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { databaseUnavailable } from '../db/unavailable.ts';
import { ApiError, noRoute, type ParamError } from '../errors.ts';
import { translate } from '../i18n/translate.ts';

/** The body in the caller's language: the message and the per-parameter reasons; codes and data stay. */
function localized(error: ApiError, request: FastifyRequest) {
  const body = error.toBody();
  const language = request.language ?? 'en';
  if (language === 'en') return body;
  const params = body.data.params;
  const translatedParams =
    params && typeof params === 'object' && !Array.isArray(params)
      ? Object.fromEntries(Object.entries(params).map(([name, reason]) => [name, translate(String(reason), language)]))
      : params;
  const details = body.data.details;
  const translatedDetails =
    details && typeof details === 'object' && !Array.isArray(details)
      ? Object.fromEntries(Object.entries(details as Record<string, ParamError>).map(([name, d]) => [name, { ...d, message: translate(d.message, language) }]))
      : details;
  // Object.assign from {}, not literals opening with a spread: see QueryEcho in events/event-list.ts.
  return Object.assign({}, body, {
    message: translate(body.message, language),
    data: Object.assign(
      {},
      body.data,
      translatedParams !== undefined ? { params: translatedParams } : {},
      translatedDetails !== undefined ? { details: translatedDetails } : {},
    ),
  });
}

/** Seconds a client is told to wait before asking again while the database is unavailable. */
const UNAVAILABLE_RETRY_SECONDS = 5;

/** Answers any failure as the one error path does (also for what the router rejects before any route). */
export type ErrorAnswer = (error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/** Answers the errors of requests that are not the JSON API's: the site's pages answer theirs as HTML. */
export interface ErrorPresenter {
  matches(request: FastifyRequest): boolean;
  send(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply;
}

/**
 * The one error path: every failure becomes an ApiError, which leaves as the WordPress error body, or
 * through the presenter whose requests it is (the same status, in that presenter's form).
 */
export function registerErrorHandling(app: FastifyInstance, presenters: ErrorPresenter[] = []): ErrorAnswer {
  const send = (reply: FastifyReply, request: FastifyRequest, error: ApiError) => {
    const presenter = presenters.find((p) => p.matches(request));
    return presenter ? presenter.send(request, reply, error) : reply.code(error.status).send(localized(error, request));
  };

  app.setNotFoundHandler((request, reply) => send(reply, request, noRoute()));

  const answer: ErrorAnswer = (error, request, reply) => {
    if (error instanceof ApiError) return send(reply, request, error);
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 413) return send(reply, request, new ApiError(413, 'rest_request_too_large', 'The request body is too large.'));
    if (status === 414) return send(reply, request, new ApiError(414, 'rest_uri_too_long', 'The request URL is too long.'));
    if (status === 415) return send(reply, request, new ApiError(415, 'rest_unsupported_media_type', 'Unsupported Content-Type.'));
    // A path the router cannot decode (`%zz`, a cut `%E0%A4`): the URL's fault, said so, not the body's.
    if ((error as FastifyError).code === 'FST_ERR_BAD_URL') return send(reply, request, new ApiError(400, 'rest_invalid_url', 'The request URL is not valid.'));
    // Malformed JSON, a bad Content-Length, and other faults of the request itself.
    if (status >= 400 && status < 500) return send(reply, request, new ApiError(400, 'rest_invalid_json', 'The request body could not be read.'));
    // The database down, restarting, full or locked: not the request's fault, nor a bug of ours; nothing of
    // the request was stored, and it may be sent again. Said so, without the driver's words.
    if (databaseUnavailable(error)) {
      // Its message and code, not its stack: one such line a request while the outage lasts, and the stack is
      // the driver's own (a kilobyte a line that says nothing the message does not).
      request.log.warn({ reqId: request.id, cause: { message: error.message, code: (error as { code?: unknown }).code } }, 'database unavailable');
      void reply.header('retry-after', String(UNAVAILABLE_RETRY_SECONDS));
      return send(reply, request, new ApiError(503, 'rest_database_unavailable', 'The database is not available right now; try again shortly.'));
    }
    // Never echo internals; the request id in the log ties the report to the cause.
    request.log.error({ reqId: request.id, err: error }, 'unhandled error');
    return send(reply, request, new ApiError(500, 'rest_internal_error', `Internal error (request ${request.id}).`));
  };
  app.setErrorHandler(answer);
  return answer;
}
