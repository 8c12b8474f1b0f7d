import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createRepositories } from '../../src/store.ts';
import { countingDb } from '../helpers/counting-db.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const EVENT = { start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00' };
const LIST = '/events?start_date=2027-03-01&per_page=50';

// A service started on the database is a process that holds nothing in memory: what it serves of an event it
// takes from the stored text when there is a valid one (events/stored-texts.ts), else builds.
describeEachDialect('event records stored ready to serve', (t) => {
  const db = () => t().database.db;
  const admin = async () => (await t().user('administrator')).headers;
  const write = async (method: string, url: string, payload?: Record<string, unknown>) => {
    const res = await t().request({ method, url: `${API}${url}`, headers: await admin(), ...(payload ? { payload } : {}) });
    expect(res.statusCode, JSON.stringify(res.json)).toBeLessThan(300);
    return res.json;
  };
  /** Reads in a new process (an app of its own on the same database), single and list form. */
  const fresh = async (id: number, config = t().config) => {
    const app = await buildApp({ config, database: t().database, logger: false });
    try {
      const single = await app.inject({ url: `${API}/events/${id}` });
      const list = await app.inject({ url: `${API}${LIST}` });
      const listed = (list.json().events as Array<Record<string, any>>).find((event) => event.id === id);
      return { status: single.statusCode, single: single.json(), listed };
    } finally {
      await app.close(); // which writes the texts these reads offered to be stored
    }
  };
  const stored = async (id: number) =>
    db().selectFrom('event_text').innerJoin('event', 'event.id', 'event_text.event_id')
      .select(['event_text.revision as stored', 'event.revision as current', 'event_text.body']).where('event_text.event_id', '=', id).executeTakeFirst();
  /** A fresh read, then one with nothing stored (built whole): both the same. Returns the first. */
  const sameAsBuilt = async (id: number) => {
    const served = await fresh(id);
    await db().deleteFrom('event_text').execute();
    const built = await fresh(id);
    expect(served).toEqual(built);
    return served;
  };
  const event = (title: string, extra: Record<string, unknown> = {}) => write('POST', '/events', {
    ...EVENT, title, venue: { venue: 'Blue Room' }, organizer: [{ organizer: 'Ann' }, { organizer: 'Bob' }],
    categories: ['Beta', 'Alpha'], tags: ['Late'], cost: '10', ...extra,
  });

  it('a read stores the event text; a process holding nothing serves it from there, in both forms', async () => {
    const { id } = await event('Stored');
    expect(await stored(id)).toBeUndefined();
    await fresh(id);
    const row = await stored(id);
    expect(row?.stored).toBe(row?.current);
    // What is served is the stored text: changed behind the service's back, the change shows.
    await db().updateTable('event_text').set({ body: sql`replace(body, '"title":"Stored"', '"title":"From the store"')` }).execute();
    const read = await fresh(id);
    expect(read.single.title).toBe('From the store');
    expect(read.listed?.title).toBe('From the store');
    // Under other settings (another site address) the text is not served, and is stored anew.
    const elsewhere = await fresh(id, { ...t().config, publicUrl: 'https://calendar.example.org' });
    expect(elsewhere.single.title).toBe('Stored');
    expect(elsewhere.single.url).toMatch(/^https:\/\/calendar\.example\.org\//);
    // Not served to the first settings either: their text has the other fingerprint now.
    expect((await fresh(id)).single.title).toBe('Stored');
  });

  it('every change that changes the record moves its revision: what is served is what would be built', async () => {
    const { id, venue, organizer, categories } = await event('Changing');
    const other = await event('Other');
    const storedNow = async () => {
      await fresh(id);
      const row = await stored(id);
      expect(row?.stored).toBe(row?.current);
      return row?.current as number;
    };
    const moved = async (change: () => Promise<unknown>) => {
      const before = await storedNow();
      await change();
      const after = (await stored(id))?.current ?? (await db().selectFrom('event').select('revision').where('id', '=', id).executeTakeFirstOrThrow()).revision;
      const served = await sameAsBuilt(id);
      return { moved: after !== before, served };
    };

    // The event itself, its links: its revision moves.
    expect((await moved(() => write('POST', `/events/${id}`, { title: 'Changed' }))).served.single.title).toBe('Changed');
    expect((await moved(() => write('POST', `/events/${id}`, { categories: ['Gamma'] }))).moved).toBe(true);
    expect((await moved(() => write('POST', `/events/${id}`, { categories: categories.map((c: { id: number }) => c.id) }))).moved).toBe(true);
    // A term renamed: the event lists its terms by name, so its order may change.
    const renamed = await moved(() => write('POST', `/categories/${categories[0].id}`, { name: 'Zeta' }));
    expect(renamed.moved).toBe(true);
    expect(renamed.served.single.categories.map((c: { name: string }) => c.name)).toEqual(['Beta', 'Zeta']);
    // An organizer trashed leaves its events.
    const trashed = await moved(() => write('DELETE', `/organizers/${organizer[1].id}`));
    expect(trashed.moved).toBe(true);
    expect(trashed.served.single.organizer.map((o: { organizer: string }) => o.organizer)).toEqual(['Ann']);
    // An import's lineage added.
    const lineage = await moved(() => db().insertInto('import_lineage').values({ kind: 'event', source_key: 'https://old.example/?id=9', local_id: id, source_modified: '' }).execute());
    expect(lineage.moved).toBe(true);
    expect(lineage.served.single.global_id_lineage.slice(1)).toEqual(['https://old.example/?id=9']);
    // Another event's write, or a venue's or organizer's: the text stays valid, what it embeds is put in as it is now.
    expect((await moved(() => write('POST', `/events/${other.id}`, { title: 'Other, changed' }))).moved).toBe(false);
    const venueRenamed = await moved(() => write('POST', `/venues/${venue.id}`, { venue: 'Red Room' }));
    expect(venueRenamed.moved).toBe(false);
    expect(venueRenamed.served.single.venue.venue).toBe('Red Room');
    expect(venueRenamed.served.listed?.venue.venue).toBe('Red Room');
    // Trashed: not served at all, stored or not.
    await storedNow();
    await write('DELETE', `/events/${id}`);
    const gone = await fresh(id);
    expect([gone.status, gone.single.code]).toEqual([403, 'event-no-longer-available']);
    // Deleted: its stored text goes with it.
    await write('DELETE', `/events/${id}?force=true`);
    expect(await db().selectFrom('event_text').select('event_id').where('event_id', '=', id).executeTakeFirst()).toBeUndefined();
  });

  it('a read not kept takes the stored text, which carries the event\'s checked columns, in one statement, and checks them', async () => {
    const first = await event('First');
    const second = await event('Second');
    const locked = await event('Locked', { password: 'open sesame' });
    const draft = await event('Draft', { status: 'draft' });
    for (const { id } of [first, second, locked, draft]) await fresh(id);
    const counting = countingDb(db());
    const app = await buildApp({ config: t().config, database: { ...t().database, db: counting.db }, logger: false });
    const read = async (url: string) => {
      counting.counter.queries = 0;
      const res = await app.inject({ url: `${API}${url}` });
      return { status: res.statusCode, body: res.json(), queries: counting.counter.queries };
    };
    try {
      // The first read also reads the venue, organizers and terms it embeds; the second shares them all.
      expect((await read(`/events/${first.id}`)).status).toBe(200);
      const served = await read(`/events/${second.id}`);
      expect([served.status, served.body.title, served.queries]).toEqual([200, 'Second', 1]);
      expect((await read(`/events/by-slug/${second.slug.toUpperCase()}`)).body.id).toBe(second.id);
      // The checks are the stored row's: a password, a draft, an event that is not there.
      expect([(await read(`/events/${locked.id}`)).status, (await read(`/events/${locked.id}`)).body.code]).toEqual([403, 'event-password-protected']);
      expect((await read(`/events/${locked.id}?password=open%20sesame`)).body.title).toBe('Locked');
      expect([(await read(`/events/${draft.id}`)).status, (await read(`/events/${draft.id}`)).body.code]).toEqual([403, 'event-not-accessible']);
      expect((await read(`/events/${draft.id + 1000}`)).body.code).toBe('rest-event-not-found');
      expect((await read(`/events/by-slug/no-such-event`)).body.code).toBe('rest-event-not-found');
      // An event changed behind the service's back (its revision moved): its stored text went with the
      // change, and the event is read whole and its text built.
      await db().updateTable('event').set({ title: 'First, changed' }).where('id', '=', first.id).execute();
      expect(await stored(first.id)).toBeUndefined();
      const other = await buildApp({ config: t().config, database: t().database, logger: false });
      try {
        expect((await other.inject({ url: `${API}/events/${first.id}` })).json().title).toBe('First, changed');
        // The read takes the text's row alone, and its checks from there: the stored columns marked a draft
        // (the event's own row untouched, published) decide, by id and by slug.
        await db().updateTable('event_text').set({ status: 'draft' }).where('event_id', '=', second.id).execute();
        for (const url of [`/events/${second.id}`, `/events/by-slug/${second.slug}`]) {
          const res = await other.inject({ url: `${API}${url}` });
          expect([res.statusCode, res.json().code]).toEqual([403, 'event-not-accessible']);
        }
      } finally {
        await other.close();
      }
    } finally {
      await app.close();
    }
  });

  it('a text carries its event\'s checked columns, and goes whenever its event\'s revision moves, however that happens', async () => {
    const { id, categories, organizer } = await event('Carried', { password: 'pw', status: 'draft' });
    const checks = ['slug', 'status', 'author_id', 'password', 'venue_id'] as const;
    const storedNow = async () => {
      await db().deleteFrom('event_text').execute();
      const app = await buildApp({ config: t().config, database: t().database, logger: false });
      try {
        await app.storeEventTexts(() => false);
      } finally {
        await app.close();
      }
      const [text, row] = await Promise.all([
        db().selectFrom('event_text').select(['revision', ...checks]).where('event_id', '=', id).executeTakeFirstOrThrow(),
        db().selectFrom('event').select(['revision', ...checks]).where('id', '=', id).executeTakeFirstOrThrow(),
      ]);
      expect(text).toEqual(row);
      expect(text.password).toBe('pw');
    };
    const gone = async () => (await db().selectFrom('event_text').select('event_id').where('event_id', '=', id).executeTakeFirst()) === undefined;
    // Through the service, and straight through SQL on either table the triggers of migration 0017 watch.
    const changes: Array<() => Promise<unknown>> = [
      () => write('POST', `/events/${id}`, { status: 'publish' }),
      () => db().updateTable('event').set({ author_id: 999 }).where('id', '=', id).execute(),
      () => db().updateTable('event').set({ revision: sql`revision + 1` }).where('id', '=', id).execute(),
      () => db().updateTable('term').set({ name: 'Renamed' }).where('id', '=', categories[0].id).execute(),
      () => db().deleteFrom('event_organizer').where('event_id', '=', id).where('organizer_id', '=', organizer[0].id).execute(),
      () => db().insertInto('import_lineage').values({ kind: 'event', source_key: 'https://old.example/?id=1', local_id: id, source_modified: '' }).execute(),
    ];
    for (const change of changes) {
      await storedNow();
      expect(await gone()).toBe(false);
      await change();
      expect(await gone()).toBe(true);
    }
    // A change to another event leaves it.
    const other = await event('Neighbour');
    await storedNow();
    await db().updateTable('event').set({ title: 'Neighbour, changed' }).where('id', '=', other.id).execute();
    expect(await gone()).toBe(false);
  });

  it('a text is stored with its digest, which a process serving it composes its tag from; one stored without is digested when read', async () => {
    const { id } = await event('Digested');
    const tagIn = async (app: Awaited<ReturnType<typeof buildApp>>) => (await app.inject({ url: `${API}/events/${id}` })).headers.etag;
    const first = await buildApp({ config: t().config, database: t().database, logger: false });
    const built = await tagIn(first);
    await first.close();
    const row = await db().selectFrom('event_text').select(['body', 'digest']).where('event_id', '=', id).executeTakeFirstOrThrow();
    expect(row.digest).toBe(`"${createHash('sha1').update(row.body).digest('base64url')}"`);
    const tagServed = async () => {
      const app = await buildApp({ config: t().config, database: t().database, logger: false });
      try {
        return await tagIn(app);
      } finally {
        await app.close();
      }
    };
    expect(await tagServed()).toBe(built);
    await db().updateTable('event_text').set({ digest: null }).where('event_id', '=', id).execute();
    expect(await tagServed()).toBe(built);
    // The stored digest is the one composed: a wrong one makes another tag.
    await db().updateTable('event_text').set({ digest: '"not-its-digest"' }).where('event_id', '=', id).execute();
    expect(await tagServed()).not.toBe(built);
  });

  it('a stored text that embeds other parts than the event has now is built again, whether those parts are kept or read', async () => {
    const { id, venue } = await event('Shaped');
    const other = await event('Neighbour');
    await fresh(id);
    // As if built while its venue and second organizer could not be found: no marks for them, same revision.
    const { body } = (await stored(id)) as { body: string };
    const marks = body.match(/\u0001[a-z]+\d*\u0001/g) ?? [];
    expect(marks).toEqual(expect.arrayContaining(['\u0001venue\u0001', '\u0001venueld\u0001', '\u0001organizerld1\u0001']));
    const shrunk = body.replace('\u0001venue\u0001', '[]').replace(',\u0001venueld\u0001', '').replace(',\u0001organizerld1\u0001', '');
    const app = await buildApp({ config: t().config, database: t().database, logger: false });
    try {
      // Read second: the venue, organizers and terms it embeds are kept by then (no statement for them).
      expect((await app.inject({ url: `${API}/events/${other.id}` })).statusCode).toBe(200);
      await db().updateTable('event_text').set({ body: shrunk }).where('event_id', '=', id).execute();
      const served = (await app.inject({ url: `${API}/events/${id}` })).json();
      expect([served.venue.id, served.organizer.map((o: { organizer: string }) => o.organizer)]).toEqual([venue.id, ['Ann', 'Bob']]);
    } finally {
      await app.close();
    }
    // Read first, in a process holding nothing: the parts are read with it.
    await db().updateTable('event_text').set({ body: shrunk }).where('event_id', '=', id).execute();
    const read = await fresh(id);
    expect([read.single.venue.id, read.single.organizer.length, read.listed?.venue.id]).toEqual([venue.id, 2, venue.id]);
  });

  it('a process stores the texts of every event not in the trash that has no valid one, and serves them', async () => {
    const ids: number[] = [];
    for (const title of ['One', 'Two', 'Three']) ids.push((await event(title)).id);
    await write('DELETE', `/events/${ids[2]}`);
    const app = await buildApp({ config: t().config, database: t().database, logger: false });
    try {
      expect(await app.storeEventTexts(() => false)).toBe(2);
      expect((await db().selectFrom('event_text').select('event_id').orderBy('event_id').execute()).map((r) => r.event_id)).toEqual(ids.slice(0, 2));
      // Nothing left to store; one changed since is stored again; a stop is a stop.
      expect(await app.storeEventTexts(() => false)).toBe(0);
      await write('POST', `/events/${ids[0]}`, { title: 'One, changed' });
      expect(await app.storeEventTexts(() => true)).toBe(0);
      expect(await app.storeEventTexts(() => false)).toBe(1);
    } finally {
      await app.close();
    }
    await db().updateTable('event_text').set({ body: sql`replace(body, '"title":"Two"', '"title":"Stored Two"')` }).execute();
    expect((await fresh(ids[1])).single.title).toBe('Stored Two');
    expect((await fresh(ids[0])).single.title).toBe('One, changed');
  });

  it('requests are answered while a process stores texts, between its ranges, not after all of them', async () => {
    for (let i = 0; i < 80; i++) await event(`Batch ${i}`);
    await db().deleteFrom('event_text').execute();
    const app = await buildApp({ config: t().config, database: t().database, logger: false });
    try {
      // A process that has served before: on PostgreSQL a request on a connection still to be opened could
      // lose to the walk on the open one, whatever the walk does (it failed so once under CI's load).
      await Promise.all([0, 1].map(() => app.inject({ url: `${API}/categories` })));
      // Ranges of 10 ids, each followed by a pause: the walk stops once the request is answered, so what it
      // stored by then says when the request had its turn.
      let answered = false;
      const [storedFirst, res] = await Promise.all([
        app.storeEventTexts(() => answered, 10),
        app.inject({ url: `${API}/categories` }).then((res) => ((answered = true), res)),
      ]);
      expect(res.statusCode).toBe(200);
      expect(storedFirst).toBeLessThan(80);
      expect(await app.storeEventTexts(() => false)).toBe(80 - storedFirst);
    } finally {
      await app.close();
    }
  });

  it('two processes storing and offering the same texts at once store each once, and neither fails', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push((await event(`Twin ${i}`)).id);
    const failures: unknown[] = [];
    const apps = await Promise.all([0, 1].map(() => buildApp({ config: t().config, database: t().database, logger: false })));
    for (const app of apps) app.addHook('onError', async (_request, _reply, error) => void failures.push(error));
    try {
      const [, reads] = await Promise.all([
        Promise.all(apps.map((app) => app.storeEventTexts(() => false))),
        Promise.all(apps.flatMap((app) => ids.map((id) => app.inject({ url: `${API}/events/${id}` })))),
      ]);
      expect(reads.map((res) => res.statusCode)).toEqual(reads.map(() => 200));
    } finally {
      for (const app of apps) await app.close();
    }
    expect(failures).toEqual([]);
    const rows = await db().selectFrom('event_text').innerJoin('event', 'event.id', 'event_text.event_id')
      .select(['event_text.event_id', 'event_text.revision as stored', 'event.revision as current']).orderBy('event_text.event_id').execute();
    expect(rows.map((row) => row.event_id)).toEqual(ids);
    expect(rows.every((row) => row.stored === row.current)).toBe(true);
  });

  it('a text built before a write is never stored over it', async () => {
    const { id } = await event('Raced');
    const row = await db().selectFrom('event').select('revision').where('id', '=', id).executeTakeFirstOrThrow();
    await write('POST', `/events/${id}`, { title: 'Raced, changed' });
    const repos = createRepositories(db(), t().database.dialect);
    await repos.eventTexts.store([{ event_id: id, revision: row.revision, fingerprint: 'x', links: '||', body: '{}', digest: null }]);
    expect(await stored(id)).toBeUndefined();
    // Nor for an event that is not there.
    await repos.eventTexts.store([{ event_id: id + 1000, revision: 0, fingerprint: 'x', links: '||', body: '{}', digest: '"x"' }]);
    expect(await db().selectFrom('event_text').select('event_id').execute()).toEqual([]);
  });
});

// PostgreSQL stores texts while writes run in other transactions: a text stored from the revision before a
// write must not outlive the write's commit (a single read serves whatever text is there), and storing must
// not wait for a write (which may hold its events in any order).
describeEachDialect('event records stored ready to serve, beside writes in other transactions', (t) => {
  const db = () => t().database.db;
  const eventNamed = async (title: string) => {
    const res = await t().request({ method: 'POST', url: `${API}/events`, headers: (await t().user('administrator')).headers, payload: { ...EVENT, title } });
    expect(res.statusCode).toBe(201);
    const id = res.json.id as number;
    const { revision } = await db().selectFrom('event').select('revision').where('id', '=', id).executeTakeFirstOrThrow();
    return { id, text: { event_id: id, revision, fingerprint: 'x', links: '||', body: '{}', digest: null } };
  };
  const textOf = (id: number) => db().selectFrom('event_text').select('revision').where('event_id', '=', id).executeTakeFirst();
  const opened = () => {
    let open!: () => void;
    return { at: new Promise<void>((resolve) => (open = resolve)), open: () => open() };
  };

  it('a text offered while a write holds its event is not stored, and the store does not wait for the write', async () => {
    const { id, text } = await eventNamed('Held');
    const updated = opened();
    const commit = opened();
    const writing = db().transaction().execute(async (trx) => {
      await trx.updateTable('event').set({ title: 'Held, changed' }).where('id', '=', id).execute();
      updated.open();
      await commit.at;
    });
    await updated.at;
    try {
      // Waiting for the write would never end: the write commits only after this.
      await createRepositories(db(), 'postgres').eventTexts.store([text]);
    } finally {
      commit.open();
      await writing;
    }
    expect(await textOf(id)).toBeUndefined();
  });

  it('a write to an event whose text is being stored waits for it, then deletes it', async () => {
    const { id, text } = await eventNamed('Storing');
    const stored = opened();
    const commit = opened();
    const storing = db().transaction().execute(async (trx) => {
      await createRepositories(trx, 'postgres').eventTexts.store([text]);
      stored.open();
      await commit.at;
    });
    await stored.at;
    let written = false;
    const writing = db().updateTable('event').set({ title: 'Storing, changed' }).where('id', '=', id).execute().then(() => (written = true));
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(written).toBe(false);
    } finally {
      commit.open();
      await Promise.all([storing, writing]);
    }
    expect(await textOf(id)).toBeUndefined();
    // Stored again of the revision it has now, it stays.
    const { revision } = await db().selectFrom('event').select('revision').where('id', '=', id).executeTakeFirstOrThrow();
    await createRepositories(db(), 'postgres').eventTexts.store([{ ...text, revision }]);
    expect(await textOf(id)).toEqual({ revision });
  });
}, {}, 'postgres');
