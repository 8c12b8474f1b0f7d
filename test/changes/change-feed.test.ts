import { expect, it } from 'vitest';
import { createChangeService } from '../../src/changes/change.service.ts';
import { createStore } from '../../src/store.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const EVENT = { title: 'Gig', start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' };

describeEachDialect('the change log and /changes', (t) => {
  const as = async (role: 'administrator' | 'editor' | 'subscriber' | 'author') => (await t().user(role)).headers;
  const feed = async (query: string, role: 'administrator' | 'editor' | 'subscriber' | 'author' = 'administrator') =>
    t().request({ url: `${API}/changes${query}`, headers: await as(role) });
  const write = async (method: string, url: string, payload?: Record<string, unknown>) => {
    const res = await t().request({ method, url: `${API}${url}`, headers: await as('administrator'), ...(payload ? { payload } : {}) });
    expect(res.statusCode, JSON.stringify(res.json)).toBeLessThan(300);
    return res.json;
  };
  const actions = async (after = '0') => (await feed(`?after=${after}&limit=500`)).json.changes.map((c: any) => `${c.kind}:${c.action}`);

  it('logs every create, update, trash, restore and delete, inline records too, and nothing for a write that changes nothing', async () => {
    const event = await write('POST', '/events', { ...EVENT, venue: { venue: 'Blue Room' }, categories: ['Jazz'] });
    expect(await actions()).toEqual(['venue:create', 'category:create', 'event:create']);
    const mark = (await feed('?limit=500')).json.next_cursor;
    await write('POST', `/events/${event.id}`, { title: 'Gig (moved)' });
    await write('POST', `/events/${event.id}`, { title: 'Gig (moved)' }); // the same again: nothing changes
    await write('DELETE', `/events/${event.id}`);
    await write('POST', `/events/${event.id}`, { status: 'publish' });
    await write('POST', `/venues/${event.venue.id}`, { city: 'Berlin' });
    await write('POST', `/categories/${event.categories[0].id}`, { description: 'Late' });
    await write('DELETE', `/categories/${event.categories[0].id}`);
    await write('DELETE', `/events/${event.id}?force=true`);
    expect(await actions(mark)).toEqual(['event:update', 'event:trash', 'event:restore', 'venue:update', 'category:update', 'category:delete', 'event:delete']);
    const changes = (await feed(`?after=${mark}`)).json.changes;
    expect(changes.at(-1)).toEqual({
      cursor: expect.stringMatching(/^\d+$/), kind: 'event', id: event.id, action: 'delete', changed_utc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      user: (await t().user('administrator')).id, record: null,
    });
    // Cursors grow with the log.
    const cursors = changes.map((c: any) => Number(c.cursor));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
  });

  it('pages by cursor: limit, next_cursor and more; a cursor past the end is an empty page', async () => {
    for (const title of ['A', 'B', 'C', 'D', 'E']) await write('POST', '/events', { ...EVENT, title });
    const seen: string[] = [];
    let cursor = '0';
    for (let more = true; more;) {
      const page = (await feed(`?after=${cursor}&limit=2`)).json;
      expect(page.changes.length).toBeLessThanOrEqual(2);
      seen.push(...page.changes.map((c: any) => c.record.title));
      ({ next_cursor: cursor, more } = page);
    }
    expect(seen).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect((await feed(`?after=${cursor}`)).json).toEqual({ changes: [], next_cursor: cursor, more: false });
  });

  it('shows each caller the records it may see: a draft or a protected event is a tombstone or blanked for a subscriber', async () => {
    const draft = await write('POST', '/events', { ...EVENT, title: 'Draft', status: 'draft' });
    const locked = await write('POST', '/events', { ...EVENT, title: 'Members', password: 'secret', description: 'Only members' });
    const forEditor = (await feed('', 'editor')).json.changes;
    expect(forEditor.map((c: any) => [c.id, c.record?.title])).toEqual([[draft.id, 'Draft'], [locked.id, 'Members']]);
    expect(forEditor[1].record.description).toContain('Only members');
    const forSubscriber = (await feed('', 'subscriber')).json.changes;
    expect(forSubscriber.map((c: any) => [c.id, c.record?.title ?? null])).toEqual([[draft.id, null], [locked.id, 'Members']]);
    expect(forSubscriber[1].record.description).toBe('');
  });

  it('refuses anonymous callers, bad cursors and limits, and answers 410 for a cursor older than the retention', async () => {
    const anonymous = await t().request({ url: `${API}/changes` });
    expect([anonymous.statusCode, anonymous.json.code]).toEqual([401, 'rest_forbidden']);
    for (const query of ['?after=abc', '?after=-1', '?limit=0', '?limit=501', '?after=1.5']) {
      const res = await feed(query);
      expect([query, res.statusCode, res.json.code]).toEqual([query, 400, 'rest_invalid_param']);
    }
    for (const title of ['Old', 'Older']) await write('POST', '/events', { ...EVENT, title });
    await write('POST', '/events', { ...EVENT, title: 'New' });
    const [first, second] = (await feed('')).json.changes;
    await t().database.db.updateTable('change_log').set({ changed_utc: '2020-01-01 00:00:00' }).where('seq', '<=', Number(second.cursor)).execute();
    const store = createStore(t().database.db, t().database.dialect);
    await createChangeService({ store, config: t().config, sources: {} as never }).prune();
    const expired = await feed(`?after=${first.cursor}`);
    expect([expired.statusCode, expired.json.code, expired.json.data.oldest_cursor]).toEqual([410, 'rest_changes_cursor_expired', second.cursor]);
    expect((await feed('')).statusCode).toBe(410);
    const kept = (await feed(`?after=${second.cursor}`)).json.changes;
    expect(kept.map((c: any) => c.record.title)).toEqual(['New']);
  });

  it('replayed from the start into an empty copy, ends equal to the lists', async () => {
    const a = await write('POST', '/events', { ...EVENT, title: 'A', venue: { venue: 'Hall' }, organizer: [{ organizer: 'Club' }], tags: ['live'] });
    const b = await write('POST', '/events', { ...EVENT, title: 'B', categories: ['Jazz'] });
    const c = await write('POST', '/events', { ...EVENT, title: 'C', status: 'draft' });
    await write('POST', `/events/${a.id}`, { title: 'A2', cost: '10' });
    await write('DELETE', `/events/${b.id}`);
    await write('POST', `/events/${c.id}`, { status: 'publish' });
    await write('POST', `/venues/${a.venue.id}`, { city: 'Paris' });
    const extra = await write('POST', '/venues', { venue: 'Annex' });
    await write('DELETE', `/venues/${extra.id}?force=true`);
    await write('POST', '/organizers', { organizer: 'Band' });

    const copy = new Map<string, Map<number, unknown>>();
    let cursor = '0';
    for (let more = true; more;) {
      const page = (await feed(`?after=${cursor}&limit=3`, 'subscriber')).json;
      for (const change of page.changes) {
        const records = copy.get(change.kind) ?? copy.set(change.kind, new Map()).get(change.kind) as Map<number, unknown>;
        if (change.record === null) records.delete(change.id);
        else records.set(change.id, change.record);
      }
      ({ next_cursor: cursor, more } = page);
    }
    const list = async (path: string, key: string) =>
      (await t().request({ url: `${API}/${path}`, headers: await as('subscriber') })).json[key] as Array<{ id: number }>;
    const expected: Array<[string, Array<{ id: number }>]> = [
      ['event', await list('events?start_date=2000-01-01&per_page=50', 'events')],
      ['venue', await list('venues?per_page=50', 'venues')],
      ['organizer', await list('organizers?per_page=50', 'organizers')],
      ['category', await list('categories?hide_empty=false', 'categories')],
      ['tag', await list('tags?hide_empty=false', 'tags')],
    ];
    for (const [kind, records] of expected) {
      const mirrored = [...(copy.get(kind)?.values() ?? [])] as Array<{ id: number }>;
      expect([kind, mirrored.sort((x, y) => x.id - y.id)]).toEqual([kind, [...records].sort((x, y) => x.id - y.id)]);
    }
    expect(expected[0][1].map((e: any) => e.title).sort()).toEqual(['A2', 'C']);
  });
});
