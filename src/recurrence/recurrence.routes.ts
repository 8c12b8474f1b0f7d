import type { FastifyInstance } from 'fastify';
import { NAMESPACE } from '../http/urls.ts';
import { PreviewAnswer, PreviewBody, type PreviewInput } from './recurrence.schemas.ts';
import type { RecurrenceService } from './recurrence.service.ts';

export function registerRecurrenceRoutes(app: FastifyInstance, recurrence: RecurrenceService) {
  app.post(`/${NAMESPACE}/recurrence/preview`, {
    schema: { body: PreviewBody, response: { 200: PreviewAnswer } },
    config: { summary: 'The occurrences a recurrence would give an event, with warnings; writes nothing (contributors and above)' },
  }, (request) => recurrence.preview(request.body as PreviewInput, request.caller));
}
