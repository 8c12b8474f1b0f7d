import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, postgresSchema, startService } from '../helpers/spawn-service.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const EVENT = { title: 'Gig', start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' };
const FAST = { CAL_WEBHOOKS_ALLOW_PRIVATE: 'on', CAL_WEBHOOK_POLL_MS: '50', CAL_WEBHOOK_TIMEOUT_MS: '10000', CAL_WEBHOOK_RETRY_SECONDS: '0.1,0.2,0.4' };
const pgUrl = process.env.TEST_DATABASE_URL;

async function api(base: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}/cal/events/v1${path}`, {
    method, headers: { ...adminAuth, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await response.json();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

// Each case runs real service processes: generous time on a loaded machine.
describe('webhook deliveries across crashes and processes', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'cal-webhooks-'));
  let schema: Awaited<ReturnType<typeof postgresSchema>> | undefined;
  beforeAll(async () => {
    if (pgUrl) schema = await postgresSchema(pgUrl, `webhooks_${process.pid}_${Date.now()}`);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await schema?.drop();
  });

  const databases = () => [
    ['sqlite', `sqlite:${join(dir, 'crash.db')}`],
    ...(pgUrl ? [['postgres', '']] : []),
  ] as const;

  for (const [name] of databases()) {
    it(`a change committed just before a kill -9 is delivered after the restart [${name}]`, async () => {
      const database = name === 'sqlite' ? `sqlite:${join(dir, 'crash.db')}` : (schema?.url as string);
      const receiver = await startReceiver();
      // The first process never gets round to sending (a round a minute), as if killed between commit and send.
      const first = await startService({ ...FAST, CAL_WEBHOOK_POLL_MS: '60000', DATABASE_URL: database });
      try {
        const hook = await api(first.url, 'POST', '/webhooks', { url: receiver.url, kinds: ['event'] });
        const event = await api(first.url, 'POST', '/events', { ...EVENT, title: `Before the crash (${name})` });
        await first.kill();
        expect(receiver.received).toHaveLength(0);
        const second = await startService({ ...FAST, DATABASE_URL: database });
        try {
          await receiver.until((got) => got.length >= 1);
          const payload = JSON.parse(receiver.received[0].body);
          expect(payload).toMatchObject({ type: 'event.create', data: { id: event.id, record: { title: `Before the crash (${name})` } } });
          expect(receiver.received[0].headers['webhook-id']).toBe(`msg_${hook.id}_${payload.data.cursor}`);
          await new Promise((resolve) => setTimeout(resolve, 300));
          expect(receiver.received).toHaveLength(1);
          await api(second.url, 'DELETE', `/webhooks/${hook.id}`);
        } finally {
          await second.stop();
        }
      } finally {
        await first.kill();
        await receiver.close();
      }
    });
  }

  if (pgUrl) {
    it('two processes on one PostgreSQL deliver every change exactly once', async () => {
      const receiver = await startReceiver();
      const env = { ...FAST, DATABASE_URL: schema?.url as string };
      const [a, b] = [await startService(env), await startService(env)];
      try {
        await api(a.url, 'POST', '/webhooks', { url: receiver.url });
        const writes = Array.from({ length: 40 }, (_, i) => api(i % 2 === 0 ? a.url : b.url, 'POST', '/events', { ...EVENT, title: `Parallel ${i}` }));
        const made = await Promise.all(writes);
        await receiver.until((got) => got.length >= 40, 60_000);
        await new Promise((resolve) => setTimeout(resolve, 500)); // room for a duplicate to show up
        const ids = receiver.received.map((r) => r.headers['webhook-id']);
        expect(ids.length).toBe(40);
        expect(new Set(ids).size).toBe(40);
        const delivered = new Set(receiver.received.map((r) => JSON.parse(r.body).data.id));
        expect(made.every((event) => delivered.has(event.id))).toBe(true);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
        await receiver.close();
      }
    });
  }
});
