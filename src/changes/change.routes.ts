import type { FastifyInstance } from 'fastify';
import { NAMESPACE } from '../http/urls.ts';
import { ChangeFeed, ChangeFeedQuery, type ChangeFeedQueryInput } from './change.schemas.ts';
import type { ChangeService } from './change.service.ts';

const HOUR_MS = 60 * 60 * 1000;

export function registerChangeRoutes(app: FastifyInstance, changes: ChangeService) {
  app.get(`/${NAMESPACE}/changes`, {
    schema: { querystring: ChangeFeedQuery, response: { 200: ChangeFeed } },
    config: {
      summary: 'Every change since a cursor, in order, each with its record now or a tombstone (signed-in callers)',
      errors: { 410: 'The cursor is older than the retention: read the lists again (code rest_changes_cursor_expired)' },
    },
  }, (request) => changes.feed(request.query as ChangeFeedQueryInput, request.caller));

  // Pruned a minute after the service starts (not in the way of its first requests), then every hour; with
  // several processes each prunes, which is harmless.
  const prune = () => void changes.prune().catch((error: Error) => app.log.error({ err: error }, 'pruning the change log failed'));
  const timers: NodeJS.Timeout[] = [];
  app.addHook('onReady', async () => {
    timers.push(setTimeout(prune, 60_000).unref(), setInterval(prune, HOUR_MS).unref());
  });
  app.addHook('onClose', async () => timers.forEach(clearTimeout));
}
