import { expect, it } from 'vitest';
import { distanceKm, roundKm } from '../../src/geo/geo.ts';
import { createStore } from '../../src/store.ts';
import { countingApp } from '../helpers/counting-db.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const EVENT = { start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' };

// A second service on the same database is another process as far as caches go: its own store, its own
// kept records. It must see every write the first one makes, and keep what a write did not touch.
describeEachDialect('kept records are forgotten per record, from the change log', (t) => {
  const there = countingApp(t);

  const admin = async () => (await t().user('administrator')).headers;
  const write = async (method: string, url: string, payload?: Record<string, unknown>) => {
    const res = await t().request({ method, url: `${API}${url}`, headers: await admin(), ...(payload ? { payload } : {}) });
    expect(res.statusCode, JSON.stringify(res.json)).toBeLessThan(300);
    return res.json;
  };
  /** A read from the other service, and the queries it cost. */
  const readThere = async (url: string) => {
    there.counter.queries = 0;
    const res = await there.app.inject({ url: `${API}${url}` });
    return { status: res.statusCode, body: res.json(), queries: there.counter.queries };
  };
  const event = (title: string) =>
    write('POST', '/events', { ...EVENT, title, venue: { venue: 'Blue Room' }, organizer: [{ organizer: 'Ann' }], categories: ['Jazz'], tags: ['Late'] });

  it('a write to one event reaches its kept record in the other process and leaves the others kept', async () => {
    const a = await event('A');
    const b = await event('B');
    const built = await readThere(`/events/${b.id}`);
    expect(built.body.title).toBe('B');
    expect(built.queries).toBeGreaterThanOrEqual(5); // the row, then what it embeds
    // A record read once is built and let go; read again, it is kept (db/record-cache.ts, admitByFrequency).
    expect((await readThere(`/events/${b.id}`)).body).toEqual(built.body);
    expect((await readThere(`/events/${a.id}`)).body.title).toBe('A');

    await write('POST', `/events/${a.id}`, { title: 'A, moved' });
    expect((await readThere(`/events/${a.id}`)).body.title).toBe('A, moved');
    const kept = await readThere(`/events/${b.id}`);
    expect(kept.body).toEqual(built.body);
    // The data version, and the two embedded terms' counts (any event's write can move them): not B's row or record.
    expect(kept.queries).toBeLessThanOrEqual(3);
    const list = await readThere('/events?start_date=2027-03-01&per_page=10');
    expect(list.body.events.map((e: { title: string }) => e.title)).toEqual(['A, moved', 'B']);
  });

  it('list totals grow with events created in the other process, by the new events that match; any other change counts again', async () => {
    const jazz = await event('Jazz one');
    const totals = async () => Promise.all(['/events?start_date=2027-03-01', `/events?start_date=2027-03-01&categories=${jazz.categories[0].id}`, '/events?start_date=2027-03-01&search=Folk']
      .map(async (url) => (await readThere(url)).body.total));
    expect(await totals()).toEqual([1, 1, 0]);
    await event('Jazz two');
    await write('POST', '/events', { ...EVENT, title: 'Folk one', categories: ['Folk'] });
    await write('POST', '/events', { ...EVENT, title: 'Folk two', categories: ['Folk'], status: 'draft' });
    // (Kept totals grow by a count of the new events alone: test/unit/event-totals.test.ts.)
    expect(await totals()).toEqual([3, 2, 1]);
    await write('POST', '/events', { ...EVENT, title: 'Folk three', categories: ['Folk'] });
    expect(await totals()).toEqual([4, 2, 2]);
    // An update, a trash: every total is counted again.
    await write('POST', `/events/${jazz.id}`, { title: 'Folk, formerly jazz' });
    expect(await totals()).toEqual([4, 2, 3]);
    await write('DELETE', `/events/${jazz.id}`);
    expect(await totals()).toEqual([3, 1, 2]);
  });

  it('list pages there follow events created here: one sorting into a kept page is in it, one after it leaves it as it was', async () => {
    const on = (title: string, start: string, extra: Record<string, unknown> = {}) =>
      write('POST', '/events', { title, start_date: start, end_date: start.replace(/ .*/, ' 23:00:00'), ...extra });
    for (const [title, day] of [['A', '05'], ['B', '06'], ['C', '07']]) await on(title, `2027-03-${day} 19:00:00`);
    const pages = async () => Promise.all([1, 2].map(async (page) => {
      const { body } = await readThere(`/events?start_date=2027-03-01&per_page=2&page=${page}`);
      return [body.total, ...body.events.map((e: { title: string }) => e.title)];
    }));
    expect(await pages()).toEqual([[3, 'A', 'B'], [3, 'C']]);
    await on('D', '2027-03-20 19:00:00');
    expect(await pages()).toEqual([[4, 'A', 'B'], [4, 'C', 'D']]);
    const e = await on('E', '2027-03-05 20:00:00');
    expect(await pages()).toEqual([[5, 'A', 'E'], [5, 'B', 'C']]);
    // Neither can be listed: a draft, and one before the window.
    await on('F', '2027-03-01 10:00:00', { status: 'draft' });
    await on('G', '2027-02-01 10:00:00');
    expect(await pages()).toEqual([[5, 'A', 'E'], [5, 'B', 'C']]);
    await write('POST', `/events/${e.id}`, { start_date: '2027-03-30 19:00:00', end_date: '2027-03-30 22:00:00' });
    expect(await pages()).toEqual([[5, 'A', 'B'], [5, 'C', 'D']]);
  });

  it('what a kept record embeds: a venue, an organizer, a category renamed, a term count moved by another event', async () => {
    const a = await event('A');
    const b = await event('B');
    for (const e of [a, b]) await readThere(`/events/${e.id}`);

    await write('POST', '/events', { ...EVENT, title: 'C', categories: [a.categories[0].id] });
    expect((await readThere(`/events/${b.id}`)).body.categories[0].count).toBe(3);
    await write('POST', `/venues/${a.venue.id}`, { venue: 'Green Room' });
    expect((await readThere(`/events/${a.id}`)).body.venue.venue).toBe('Green Room');
    await write('POST', `/organizers/${a.organizer[0].id}`, { organizer: 'Anna' });
    const renamed = (await readThere(`/events/${b.id}`)).body;
    expect([renamed.organizer[0].organizer, renamed.json_ld.organizer.name]).toEqual(['Anna', 'Anna']);
    await write('POST', `/categories/${a.categories[0].id}`, { name: 'Jazz & Blues' });
    expect((await readThere(`/events/${a.id}`)).body.categories.map((c: { name: string }) => c.name)).toEqual(['Jazz & Blues']);
    await write('DELETE', `/tags/${a.tags[0].id}`);
    expect((await readThere(`/events/${b.id}`)).body.tags).toEqual([]);
  });

  it('term counts moved by an event moving between categories there, kept there or not, trashed, deleted', async () => {
    const a = await event('A'); // Jazz
    const b = await write('POST', '/events', { ...EVENT, title: 'B', categories: ['Folk'] });
    const counts = async (id: number) => (await readThere(`/events/${id}`)).body.categories.map((c: { name: string; count: number }) => [c.name, c.count]);
    const d = await write('POST', '/events', { ...EVENT, title: 'D', categories: ['Jazz'] });
    expect([await counts(a.id), await counts(b.id), await counts(d.id)]).toEqual([[['Jazz', 2]], [['Folk', 1]], [['Jazz', 2]]]);
    // A, kept there, moves from Jazz to Folk: both counts move (Jazz known from A's kept record), and the
    // kept records of B and D show it.
    await write('POST', `/events/${a.id}`, { categories: ['Folk'] });
    expect([await counts(b.id), await counts(d.id), await counts(a.id)]).toEqual([[['Folk', 2]], [['Jazz', 1]], [['Folk', 2]]]);
    // An event the other process never read (nothing kept of it) moves: whatever it was in is not known there.
    const c = await write('POST', '/events', { ...EVENT, title: 'C', categories: ['Folk'] });
    expect(await counts(b.id)).toEqual([['Folk', 3]]);
    await write('POST', `/events/${c.id}`, { categories: ['Jazz'] });
    expect([await counts(b.id), await counts(d.id)]).toEqual([[['Folk', 2]], [['Jazz', 2]]]);
    await write('DELETE', `/events/${a.id}`);
    expect(await counts(b.id)).toEqual([['Folk', 1]]);
    await write('DELETE', `/events/${c.id}?force=true`);
    expect(await counts(d.id)).toEqual([['Jazz', 1]]);
  });

  it('a slug moved or an event deleted is not found there by its old name', async () => {
    const a = await event('A');
    expect((await readThere(`/events/by-slug/${a.slug}`)).status).toBe(200);
    await write('POST', `/events/${a.id}`, { slug: 'a-new-name' });
    expect((await readThere(`/events/by-slug/${a.slug}`)).status).toBe(404);
    // Kept there now (from its second read) under its new slug: the old one still names its id there.
    expect((await readThere('/events/by-slug/a-new-name')).body.id).toBe(a.id);
    expect((await readThere('/events/by-slug/a-new-name')).body.id).toBe(a.id);
    expect((await readThere(`/events/by-slug/${a.slug}`)).status).toBe(404);
    // Its old slug taken by another event: found as that one.
    const b = await write('POST', '/events', { ...EVENT, title: 'B', slug: a.slug });
    expect(b.slug).toBe(a.slug);
    expect((await readThere(`/events/by-slug/${a.slug}`)).body.id).toBe(b.id);
    await write('DELETE', `/events/${a.id}?force=true`);
    expect((await readThere(`/events/${a.id}`)).status).toBe(404);
    expect((await readThere('/events/by-slug/a-new-name')).status).toBe(404);
  });

  it('a write that changes nothing (its own GET body sent back) moves no version: the other process keeps everything', async () => {
    const a = await event('A');
    const b = await event('B');
    // Read twice: a record is kept from its second read on.
    for (const e of [a, b, a, b]) await readThere(`/events/${e.id}`);
    const version = async () => (await t().database.db.selectFrom('data_version').select('version').executeTakeFirstOrThrow()).version;
    const before = await version();
    const { id: _id, ...body } = (await t().request({ url: `${API}/events/${a.id}`, headers: await admin() })).json;
    await write('PUT', `/events/${a.id}`, body);
    await write('POST', `/venues/${a.venue.id}`, { venue: 'Blue Room' });
    expect(await version()).toBe(before);
    // Kept, whole: only the data version is read (the term lists too are as they were).
    const kept = await readThere(`/events/${b.id}`);
    expect([kept.status, kept.queries]).toEqual([200, 1]);
  });

  it('venue and organizer lists there are put together from kept texts, and follow every write here', async () => {
    const venues = [];
    for (const [i, name] of ['Blue Room', 'Red Room', 'Green Room'].entries()) {
      venues.push(await write('POST', '/venues', { venue: name, city: 'Berlin', geo_lat: 52.52, geo_lng: 13.4 + i / 10 }));
    }
    const ann = await write('POST', '/organizers', { organizer: 'Ann', email: 'ann@example.org' });
    const names = (body: { venues: Array<{ venue: string }> }) => body.venues.map((v) => v.venue);
    const first = await readThere('/venues');
    expect(names(first.body)).toEqual(['Green Room', 'Red Room', 'Blue Room']);
    // Each item is the venue as its own read shows it, but for json_ld (the single form's alone).
    for (const item of first.body.venues) {
      const { json_ld: jsonLd, ...single } = (await readThere(`/venues/${item.id}`)).body;
      expect(jsonLd).toBeDefined();
      expect(item).toEqual(single);
    }
    // Kept until a write: the page's ids, its total and every record's text; the data version alone is read.
    // (Counted on PostgreSQL: on SQLite a compiled read runs on its statement, past what the counter sees.)
    const again = await readThere('/venues');
    expect(again.body).toEqual(first.body);
    expect(again.queries).toBeLessThan(first.queries);
    expect(again.queries).toBeLessThanOrEqual(1);

    await write('POST', `/venues/${venues[0].id}`, { venue: 'Blue Hall', city: 'Potsdam' });
    await write('DELETE', `/venues/${venues[1].id}`);
    const moved = (await readThere('/venues')).body;
    expect(moved.venues.map((v: { venue: string; city: string }) => `${v.venue}, ${v.city}`)).toEqual(['Green Room, Berlin', 'Blue Hall, Potsdam']);
    expect(moved.venues[0]).toEqual(first.body.venues[0]);
    expect(moved.total).toBe(2);
    expect((await t().request({ url: `${API}/venues?status=trash`, headers: await admin() })).json.venues.map((v: { venue: string }) => v.venue)).toEqual(['Red Room']);

    // Nearest first, each with its distance last, worked out from the coordinates read with the ids.
    const near = (await readThere('/venues?geoloc_lat=52.52&geoloc_lng=13.4&geoloc_radius=100&orderby=distance&order=asc')).body;
    expect(near.venues.map((v: { venue: string; distance: number }) => [v.venue, v.distance])).toEqual([
      ['Blue Hall', 0], ['Green Room', roundKm(distanceKm({ lat: 52.52, lng: 13.4 }, { lat: 52.52, lng: 13.6 }))],
    ]);
    expect(Object.keys(near.venues[1]).at(-1)).toBe('distance');

    expect((await readThere('/organizers')).body.organizers.map((o: { organizer: string }) => o.organizer)).toEqual(['Ann']);
    await write('POST', `/organizers/${ann.id}`, { organizer: 'Anna' });
    const organizers = (await readThere('/organizers')).body.organizers;
    expect(organizers.map((o: { organizer: string; email: string }) => [o.organizer, o.email])).toEqual([['Anna', 'ann@example.org']]);
  });

  it('term lists there, and their totals, follow terms and events written here', async () => {
    const listed = async (query: string) => {
      const { body } = await readThere(`/categories?${query}`);
      return [body.total, body.categories.map((c: { name: string; count: number }) => `${c.name} ${c.count}`)];
    };
    await write('POST', '/categories', { name: 'Folk' });
    expect(await listed('hide_empty=false')).toEqual([1, ['Folk 0']]);
    expect(await listed('hide_empty=true')).toEqual([0, []]);
    // Asked again with nothing written: the same, the page and its total as kept (the data version alone is
    // read; counted on PostgreSQL, as above).
    expect(await listed('hide_empty=false')).toEqual([1, ['Folk 0']]);
    expect((await readThere('/categories?hide_empty=false')).queries).toBeLessThanOrEqual(1);
    expect(await listed('hide_empty=true')).toEqual([0, []]);
    await event('A'); // in Jazz, a new category
    expect(await listed('hide_empty=true')).toEqual([1, ['Jazz 1']]);
    expect(await listed('hide_empty=false')).toEqual([2, ['Folk 0', 'Jazz 1']]);
    await write('POST', '/categories', { name: 'Blues' });
    expect(await listed('hide_empty=false&per_page=1&page=3')).toEqual([3, ['Jazz 1']]);
  });

  it('the terms, venues and organizers a list filters by are looked up there once, and again after any of them changes here', async () => {
    const a = await event('A');
    const b = await write('POST', '/events', { ...EVENT, title: 'B', venue: { venue: 'Green Room' }, categories: ['Folk'] });
    const titles = async (query: string) => {
      const { status, body, queries } = await readThere(`/events?start_date=2027-03-01&${query}`);
      return { status, titles: status === 200 ? body.events.map((e: { title: string }) => e.title) : body.data.params, queries };
    };
    const all = `categories=jazz&tags=Late&venue=${a.venue.id}&organizer=${a.organizer[0].id}`;
    const first = await titles(all);
    expect(first.titles).toEqual(['A']);
    const again = await titles(all);
    expect(again.titles).toEqual(['A']);
    // The four look-ups (a category by slug, a tag by name, a venue and an organizer by id) are not made again.
    expect(again.queries).toBeLessThanOrEqual(first.queries - 4);

    // `jazz` is another category's slug now: the one it names is looked up again.
    expect((await titles('categories=jazz')).titles).toEqual(['A']);
    await write('POST', `/categories/${a.categories[0].id}`, { slug: 'swing' });
    await write('POST', `/categories/${b.categories[0].id}`, { slug: 'jazz' });
    expect((await titles('categories=jazz')).titles).toEqual(['B']);
    expect((await titles('categories=swing')).titles).toEqual(['A']);

    // A venue deleted here is not there (400); one that did not resolve is not kept, so a tag made here is found.
    expect((await titles(`venue=${b.venue.id}`)).titles).toEqual(['B']);
    await write('DELETE', `/events/${b.id}?force=true`);
    await write('DELETE', `/venues/${b.venue.id}?force=true`);
    expect(await titles(`venue=${b.venue.id}`)).toMatchObject({ status: 400, titles: { venue: `No venue has the id ${b.venue.id}.` } });
    expect(await titles('tags=Swing')).toMatchObject({ status: 400, titles: { tags: 'No tags term matches "Swing".' } });
    await write('POST', '/tags', { name: 'Swing' });
    expect(await titles('tags=Swing')).toMatchObject({ status: 200, titles: [] });
    // Organizer renamed: its id still resolves, and the event embeds the new name.
    await write('POST', `/organizers/${a.organizer[0].id}`, { organizer: 'Anna' });
    const { body } = await readThere(`/events?start_date=2027-03-01&organizer=${a.organizer[0].id}`);
    expect(body.events.map((e: { organizer: Array<{ organizer: string }> }) => e.organizer[0].organizer)).toEqual(['Anna']);
  });

  it('a write that does not say what it changed makes the other process forget everything', async () => {
    const a = await event('A');
    await readThere(`/events/${a.id}`);
    const store = createStore(t().database.db, t().database.dialect);
    // Through the store but past the services: nothing is noted in the change log.
    await store.transaction((repos) => repos.events.update(a.id, { title: 'Behind its back' }));
    expect((await readThere(`/events/${a.id}`)).body.title).toBe('Behind its back');
    const row = await t().database.db.selectFrom('data_version').select(['version', 'unlogged_version']).executeTakeFirstOrThrow();
    expect(row.unlogged_version).toBe(row.version);
  });
});
