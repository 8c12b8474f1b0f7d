import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { API, describeEachDialect } from '../helpers/test-app.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const EVENT = { title: 'Gig', start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' };
// Fast rounds and retries for the tests; loopback targets allowed (the receiver runs here).
const ENV = { CAL_WEBHOOKS_ALLOW_PRIVATE: 'on', CAL_WEBHOOK_POLL_MS: '30', CAL_WEBHOOK_RETRY_SECONDS: '0.05,0.05', CAL_WEBHOOK_TIMEOUT_MS: '10000' };

describeEachDialect('webhooks', (t) => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => receiver.close());

  const admin = async () => (await t().user('administrator')).headers;
  const call = async (method: string, url: string, payload?: Record<string, unknown>) => {
    const res = await t().request({ method, url: `${API}${url}`, headers: await admin(), ...(payload ? { payload } : {}) });
    expect(res.statusCode, JSON.stringify(res.json)).toBeLessThan(300);
    return res.json;
  };
  const payloads = () => receiver.received.map((r) => JSON.parse(r.body));
  /** What `read` gives once `done` holds of it: the dispatcher records an outcome just after the receiver sees it. */
  const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  it('delivers each change signed per Standard Webhooks, with the change and the record', async () => {
    const hook = await call('POST', '/webhooks', { url: receiver.url });
    expect(hook).toMatchObject({ url: receiver.url, kinds: [], actions: [], category: null, enabled: true, secret: expect.stringMatching(/^whsec_/) });
    expect((await call('GET', `/webhooks/${hook.id}`)).secret).toBeUndefined(); // shown once
    const event = await call('POST', '/events', { ...EVENT, venue: { venue: 'Hall' } });
    await receiver.until((got) => got.length === 2);
    const verifier = new Webhook(hook.secret);
    for (const got of receiver.received) {
      expect(() => verifier.verify(got.body, got.headers as Record<string, string>)).not.toThrow();
      expect(got.headers['content-type']).toBe('application/json');
    }
    // In order per record only: deliveries of different records go out side by side (the dispatcher sends up to
    // four at once), so the venue's may arrive after the event's (it did on PostgreSQL).
    const byType = (type: string) => payloads().findIndex((payload) => payload.type === type);
    const [venue, created] = [payloads()[byType('venue.create')], payloads()[byType('event.create')]];
    expect(venue).toMatchObject({ type: 'venue.create', data: { kind: 'venue', id: event.venue.id, action: 'create' } });
    expect(created).toMatchObject({ type: 'event.create', timestamp: expect.any(String), data: { kind: 'event', id: event.id, action: 'create', record: { title: 'Gig' } } });
    const eventDelivery = receiver.received[byType('event.create')];
    expect(eventDelivery.headers['webhook-id']).toBe(`msg_${hook.id}_${created.data.cursor}`);
    // A tampered body fails the check the receiver makes.
    expect(() => verifier.verify(eventDelivery.body.replace('Gig', 'Gag'), eventDelivery.headers as Record<string, string>)).toThrow();
    await call('DELETE', `/events/${event.id}?force=true`);
    await receiver.until((got) => got.length === 3);
    expect(payloads()[2]).toMatchObject({ type: 'event.delete', data: { id: event.id, record: null } });
  });

  it('sends only the kinds, actions and category asked for, each record\'s changes in order', async () => {
    const jazz = await call('POST', '/categories', { name: 'Jazz' });
    await call('POST', '/webhooks', { url: receiver.url, kinds: ['event'], actions: ['update', 'delete'], category: jazz.id });
    const inJazz = await call('POST', '/events', { ...EVENT, categories: [jazz.id] });
    const other = await call('POST', '/events', { ...EVENT, title: 'Other' });
    for (const n of [1, 2, 3, 4]) {
      await call('POST', `/events/${inJazz.id}`, { title: `Jazz ${n}` });
      await call('POST', `/events/${other.id}`, { title: `Other ${n}` });
    }
    await call('DELETE', `/events/${other.id}?force=true`); // deletes pass the category filter: the event is gone
    await receiver.until((got) => got.length === 5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Different records' deliveries go out side by side; one record's in the order they were made.
    expect(payloads().map((p) => `${p.type} ${p.data.id}`).sort()).toEqual([`event.delete ${other.id}`, ...Array(4).fill(`event.update ${inJazz.id}`)].sort());
    const got = payloads().filter((p) => p.data.id === inJazz.id);
    // Each carries the record as it was when sent (the last one, the last title).
    const cursors = got.map((p) => Number(p.data.cursor));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    expect(got[3].data.record.title).toBe('Jazz 4');
    const titles = got.map((p) => Number(p.data.record.title.slice(5)));
    expect(titles).toEqual([...titles].sort());
  });

  it('retries with backoff, lists every try, and redelivers on request with the same webhook-id', async () => {
    receiver.answers.push(500, 503);
    const hook = await call('POST', '/webhooks', { url: receiver.url });
    await call('POST', '/events', EVENT);
    await receiver.until((got) => got.some((r) => r.answered === 200));
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 503, 200]);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const { deliveries } = await eventually(() => call('GET', `/webhooks/${hook.id}/deliveries`), (list) => list.deliveries[0]?.status === 'delivered');
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ status: 'delivered', message_id: receiver.received[0].headers['webhook-id'], next_attempt_utc: null });
    expect(deliveries[0].attempts.map((a: { status: number; error: string }) => [a.status, a.error])).toEqual([[500, 'HTTP 500'], [503, 'HTTP 503'], [200, '']]);
    await call('POST', `/webhooks/${hook.id}/deliveries/${deliveries[0].id}/redeliver`);
    await receiver.until((got) => got.length === 4);
    expect(receiver.received[3].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
  });

  it('disables a subscription whose deliveries keep failing, and resumes when it is enabled again', async () => {
    receiver.answers.push(500, 500, 500);
    const hook = await call('POST', '/webhooks', { url: receiver.url });
    await call('POST', '/events', EVENT);
    await receiver.until((got) => got.length === 3);
    const disabled = await eventually(() => call('GET', `/webhooks/${hook.id}`), (found) => !found.enabled);
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: expect.stringMatching(/failed 3 times \(last: HTTP 500\)/) });
    await call('POST', '/events', { ...EVENT, title: 'While disabled' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(3);
    await call('POST', `/webhooks/${hook.id}`, { enabled: true });
    await receiver.until((got) => got.length === 4);
    expect(payloads()[3].data.record.title).toBe('While disabled');
  });

  it('is for administrators only, and refuses bad subscriptions with 400', async () => {
    const editor = await t().user('editor');
    expect((await t().request({ url: `${API}/webhooks`, headers: editor.headers })).statusCode).toBe(403);
    expect((await t().request({ url: `${API}/webhooks` })).statusCode).toBe(401);
    for (const [payload, param] of [
      [{ url: 'ftp://example.org/hook' }, 'url'], [{ url: 'not a url' }, 'url'], [{ url: receiver.url, kinds: ['place'] }, 'kinds'],
      [{ url: receiver.url, actions: ['publish'] }, 'actions'], [{ url: receiver.url, category: 999 }, 'category'],
    ] as const) {
      const res = await t().request({ method: 'POST', url: `${API}/webhooks`, headers: await admin(), payload });
      expect([res.statusCode, res.json.code, Object.keys(res.json.data.params)]).toEqual([400, 'rest_invalid_param', [param]]);
    }
    expect((await t().request({ url: `${API}/webhooks/999`, headers: await admin() })).statusCode).toBe(404);
  });
}, ENV);

describeEachDialect('webhooks to a target that does not answer', (t) => {
  it('gives up on a delivery after CAL_WEBHOOK_TIMEOUT_MS, records why, and sends it again', async () => {
    const receiver = await startReceiver();
    try {
      receiver.answers.push('none');
      const admin = (await t().user('administrator')).headers;
      const hook = (await t().request({ method: 'POST', url: `${API}/webhooks`, headers: admin, payload: { url: receiver.url } })).json;
      await t().request({ method: 'POST', url: `${API}/events`, headers: admin, payload: EVENT });
      await receiver.until((got) => got.some((r) => r.answered === 200));
      expect(receiver.received.map((r) => r.answered)).toEqual(['none', 200]);
      let attempts: Array<{ status: number | null; error: string; duration_ms: number }> = [];
      for (const deadline = Date.now() + 10_000; attempts.length < 2 && Date.now() < deadline;) {
        attempts = (await t().request({ url: `${API}/webhooks/${hook.id}/deliveries`, headers: admin })).json.deliveries[0]?.attempts ?? [];
        await new Promise((resolve) => setTimeout(resolve, 25)); // the outcome is recorded just after the receiver sees it
      }
      expect(attempts.map((a) => [a.status, a.error])).toEqual([[null, 'no answer within 1000 ms'], [200, '']]);
      expect(attempts[0].duration_ms).toBeGreaterThanOrEqual(1000);
    } finally {
      await receiver.close();
    }
  });
}, { ...ENV, CAL_WEBHOOK_TIMEOUT_MS: '1000' }); // a second: the answered retry must not look unanswered under load

describeEachDialect('webhooks to private addresses', (t) => {
  it('are refused unless CAL_WEBHOOKS_ALLOW_PRIVATE allows them', async () => {
    const admin = (await t().user('administrator')).headers;
    for (const url of ['http://127.0.0.1:9/hook', 'http://localhost/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'http://10.1.2.3/', 'http://192.168.1.1/']) {
      const res = await t().request({ method: 'POST', url: `${API}/webhooks`, headers: admin, payload: { url } });
      expect([url, res.statusCode, res.json.data?.params?.url]).toEqual([url, 400, expect.stringMatching(/private or loopback|does not resolve/)]);
    }
  });
});
