import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, noRoute } from '../errors.ts';

/** The one error path: every failure leaves as the WordPress error body. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => {
    const error = noRoute();
    void reply.code(error.status).send(error.toBody());
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.code(error.status).send(error.toBody());
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 413) {
      return reply.code(413).send(new ApiError(413, 'rest_request_too_large', 'The request body is too large.').toBody());
    }
    if (status === 415) {
      return reply.code(415).send(new ApiError(415, 'rest_unsupported_media_type', 'Unsupported Content-Type.').toBody());
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, a bad Content-Length, and other faults of the request itself.
      return reply.code(400).send(new ApiError(400, 'rest_invalid_json', 'The request body could not be read.').toBody());
    }
    // Never echo internals; the request id in the log ties the report to the cause.
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .code(500)
      .send(new ApiError(500, 'rest_internal_error', `Internal error (request ${request.id}).`).toBody());
  });
}
