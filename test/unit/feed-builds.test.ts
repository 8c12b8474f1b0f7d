import { request as httpRequest } from 'node:http';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import type { EventListQuery } from '../../src/events/event-list.ts';
import type { EventService } from '../../src/events/event.service.ts';
import { clientGone } from '../../src/feeds/feed.http.ts';
import { createFeedService } from '../../src/feeds/feed.service.ts';
import type { Urls } from '../../src/http/urls.ts';
import type { Store } from '../../src/store.ts';
import type { Caller } from '../../src/users/roles.ts';

// The feed service's queue, with the event service it reads from held until the test lets it answer: what is
// under test is which builds run, one at a time, and which are skipped.
describe('feed builds nobody waits for', () => {
  it('are skipped when every client that asked has gone before the build\'s turn; a feed anyone still waits for is built', async () => {
    const asked: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const events = {
      async listForFeed(query: EventListQuery) {
        asked.push(String(query.start_date));
        await held;
        return [];
      },
    } as unknown as EventService;
    const store = { dataVersion: async () => 1, lastWrite: async () => new Date('2030-01-01T00:00:00Z') } as unknown as Store;
    const config = { timezone: 'UTC', siteName: 'Test calendar', feedMaxEvents: 100 } as Config;
    const feeds = createFeedService({ events, store, config, urls: {} as Urls });
    const feed = (start: string, gone: boolean, caller: Caller | null = null) =>
      feeds.calendar({ query: { start_date: start }, caller, gone: () => gone });
    const outcome = (promise: Promise<unknown>) => promise.then(() => 'built', (error: { status?: number; code?: string }) => `${error.status} ${error.code}`);

    const first = outcome(feed('2030-01-01', false)); // its build starts at once and holds the queue
    const left = outcome(feed('2030-02-01', true));
    const waited = outcome(feed('2030-03-01', false));
    // One flight, two clients: one gone, one still there.
    const sharedGone = outcome(feed('2030-04-01', true));
    const sharedThere = outcome(feed('2030-04-01', false));
    const signedInLeft = outcome(feed('2030-05-01', true, { id: 1, login: 'editor', role: 'editor' } as Caller));
    release();

    expect(await Promise.all([first, left, waited, sharedGone, sharedThere, signedInLeft])).toEqual([
      'built', '499 client_closed_request', 'built', 'built', 'built', '499 client_closed_request',
    ]);
    expect(asked).toEqual(['2030-01-01', '2030-03-01', '2030-04-01']);
  });

  it('sees a real client close its connection before its answer, and not one that waits for it', async () => {
    const app = Fastify();
    const seen: Record<string, boolean> = {};
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    app.get('/:name', async (request, reply) => {
      const { name } = request.params as { name: string };
      const gone = clientGone(reply);
      arrived();
      // Waits (up to a second) for the client to leave, as a queued feed build waits its turn.
      for (let i = 0; i < 100 && !gone(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      seen[name] = gone();
      return 'done';
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    try {
      // One leaves as soon as its request has arrived.
      const leaving = httpRequest({ port, host: '127.0.0.1', path: '/leaving' });
      leaving.on('error', () => undefined);
      leaving.end();
      await reached;
      leaving.destroy();
      // One waits for its answer (and so is answered only after the handler's second of waiting).
      const body = await new Promise<string>((resolve, reject) => {
        httpRequest({ port, host: '127.0.0.1', path: '/waiting' }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
        }).on('error', reject).end();
      });
      expect(body).toBe('done');
      expect(seen).toEqual({ leaving: true, waiting: false });
    } finally {
      await app.close();
    }
  });
});
