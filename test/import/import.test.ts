import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { sql } from 'kysely';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { ImportError, runImport } from '../../src/import/import.command.ts';
import { silentProgress } from '../../src/import/progress.ts';
import { vtimezone } from '../../src/feeds/vtimezone.ts';
import { type FakeSite, startFakeSite } from '../helpers/fake-tec-site.ts';
import { openTestDatabase, testConfig } from '../helpers/test-app.ts';
import { createUserRepository } from '../../src/users/user.repository.ts';
import { createUserService } from '../../src/users/user.service.ts';

const dialects = (): Array<'sqlite' | 'postgres'> => (process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']);
// A second to answer: a page that never answers costs one, and a loaded test machine (these tests share two
// cores with others) does not make an answering page look like one that does not.
const FAST = { timeoutMs: 1000, retries: 2, backoffMs: 5, perPage: 4 };
// The calendar files the tests write, removed when they are done.
const files = mkdtempSync(join(tmpdir(), 'cal-import-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));

for (const dialect of dialects()) {
  describe(`import from a The Events Calendar site [${dialect}]`, () => {
    let database: DbHandle;
    let site: FakeSite;
    const config = testConfig();
    const run = (args: Partial<Parameters<typeof runImport>[0]> = {}) =>
      runImport({ source: site.root, ...args }, { config, database, progress: silentProgress, source: FAST });
    const count = async (table: 'event' | 'venue' | 'import_lineage') =>
      Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    beforeEach(async () => {
      database = await openTestDatabase(dialect);
      await migrateToLatest(database.db);
      site = await startFakeSite({ venues: 9, events: 10 });
    });
    afterEach(async () => {
      await site.close();
      await database.close();
    });

    it('brings every page of every resource, references mapped to local ids, and a re-run creates nothing', async () => {
      // The last event names venue 8, on the third venue page; one page answers 500, one times out, one is cut short.
      site.records.events[9].venue = { id: 1008 };
      site.faults.set('events?page=2', [500]);
      site.faults.set('venues?page=2', ['timeout']);
      site.faults.set('events?page=3', ['malformed']);
      site.faults.set('tags?page=1', [429]);
      const started = Date.now();
      const first = await run();
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // Retry-After: 1 was waited for
      expect(site.seen.filter((s) => s === 'tags?page=1').length).toBe(2);
      expect(site.seen.filter((s) => s === 'events?page=2').length).toBe(2);
      expect(site.seen.filter((s) => s === 'venues?page=2').length).toBe(2); // given up on, asked again
      expect(first.failures).toEqual([]);
      expect(first.summary.events).toEqual({ created: 10, updated: 0, unchanged: 0, failed: 0 });
      expect(first.summary.venues.created).toBe(9);
      expect(first.summary.categories.created).toBe(2);
      const last = await database.db.selectFrom('event').selectAll().where('title', '=', 'Event 9').executeTakeFirstOrThrow();
      const hall8 = await database.db.selectFrom('venue').select('id').where('title', '=', 'Hall 8').executeTakeFirstOrThrow();
      expect(last.venue_id).toBe(hall8.id);
      expect(last.start_local).toBe('2027-03-05 19:00:00');
      const jazz = await database.db.selectFrom('term').selectAll().where('slug', '=', 'jazz').executeTakeFirstOrThrow();
      const music = await database.db.selectFrom('term').selectAll().where('slug', '=', 'music').executeTakeFirstOrThrow();
      expect(jazz.parent_id).toBe(music.id);
      expect(jazz.count).toBe(10);
      const app = await buildApp({ config, database, logger: false });
      const read = (await app.inject({ url: `/cal/events/v1/events/${last.id}` })).json();
      expect(read.global_id_lineage).toEqual([read.global_id, 'fake.test?id=2009']);
      expect(read.venue.venue).toBe('Hall 8');
      await app.close();

      site.records.events[0] = { ...site.records.events[0], title: 'Event 0 moved', modified_utc: '2026-12-01 10:00:00' };
      const second = await run();
      expect(second.summary.events).toEqual({ created: 0, updated: 1, unchanged: 9, failed: 0 });
      expect(await count('event')).toBe(10);
      expect((await database.db.selectFrom('event').select('title').where('title', '=', 'Event 0 moved').execute()).length).toBe(1);
    });

    it('a venue found here already (same name and description) names its source from then on, in a running service\'s kept list too', async () => {
      const { password } = await createUserService(createUserRepository(database.db)).add('local', 'administrator');
      const app = await buildApp({ config, database, logger: false });
      const authorization = `Basic ${Buffer.from(`local:${password}`).toString('base64')}`;
      const source = site.records.venues[3];
      const made = await app.inject({ method: 'POST', url: '/cal/events/v1/venues', headers: { authorization }, payload: { venue: source.venue, description: source.description } });
      expect(made.statusCode).toBe(201);
      const lineageOf = async () => {
        const venues = (await app.inject({ url: '/cal/events/v1/venues?per_page=50' })).json().venues;
        return venues.find((v: { id: number }) => v.id === made.json().id).global_id_lineage;
      };
      // Read twice: its text is kept by the running service.
      expect(await lineageOf()).toEqual([made.json().global_id]);
      expect(await lineageOf()).toEqual([made.json().global_id]);
      const imported = await run();
      // Counted as brought in, written onto the venue found (its duplicate check), not a second one.
      expect(imported.summary.venues).toEqual({ created: 9, updated: 0, unchanged: 0, failed: 0 });
      expect(await count('venue')).toBe(9);
      // Unchanged itself, the venue gained a lineage row in a transaction that created others: noted as changed.
      expect(await lineageOf()).toEqual([made.json().global_id, 'fake.test?id=1003']);
      // In the change feed once each: the eight new venues created, the one found updated.
      const logged = await app.inject({ url: '/cal/events/v1/changes?limit=500', headers: { authorization } });
      const actions = logged.json().changes.filter((c: { kind: string }) => c.kind === 'venue')
        .map((c: { id: number; action: string }) => `${c.id === made.json().id ? 'found' : 'new'} ${c.action}`);
      expect(actions.sort()).toEqual(['found create', 'found update', ...Array(8).fill('new create')]);
      await app.close();
    });

    it('resumes a run stopped midway without duplicates', async () => {
      site.faults.set('events?page=2', [500, 500, 500]);
      const stopped = await run();
      expect(stopped.summary.events.created).toBe(4);
      expect(stopped.failures).toEqual([expect.objectContaining({ resource: 'events', reason: 'HTTP 500' })]);
      const resumed = await run();
      expect(resumed.failures).toEqual([]);
      expect(resumed.summary.events).toEqual({ created: 6, updated: 0, unchanged: 4, failed: 0 });
      expect(await count('event')).toBe(10);
    });

    it('a page whose body stops coming is given up on after the timeout and asked again, like one that never answers', async () => {
      site.faults.set('events?page=2', ['stall']);
      const first = await run();
      expect(site.seen.filter((s) => s === 'events?page=2').length).toBe(2);
      expect(first.failures).toEqual([]);
      expect(first.summary.events).toEqual({ created: 10, updated: 0, unchanged: 0, failed: 0 });
      // Stalled at every try (the first and FAST's two retries): the list stops there with why, as at a page
      // that never answers (a re-run resumes it), and the run goes on to the next list; nothing throws.
      site.faults.set('events?page=1', ['stall', 'stall', 'stall']);
      site.faults.set('venues?page=1', ['stall', 'stall', 'stall']);
      const second = await run();
      expect(second.failures).toEqual([
        { resource: 'venues', url: expect.stringContaining('/venues?'), reason: 'no answer within 1000 ms' },
        { resource: 'events', url: expect.stringContaining('/events?'), reason: 'no answer within 1000 ms' },
      ]);
      expect(second.summary.events).toEqual({ created: 0, updated: 0, unchanged: 0, failed: 1 });
      expect(second.summary.organizers).toEqual({ created: 0, updated: 0, unchanged: 1, failed: 0 });
      expect(await count('event')).toBe(10);
    });

    it.runIf(dialect === 'sqlite')('a database that stops serving midway (its disk full) stops the import with why; the same run again goes on', async () => {
      expect((await run()).summary.events.created).toBe(10);
      site.records.events = site.records.events.map((event) => ({ ...event, description: `<p>${'Longer now. '.repeat(2000)}</p>`, modified_utc: '2026-11-23 00:00:00' }));
      // SQLite's own limit on the file's pages, set to what it has: the updates need more.
      const [{ page_count: pages }] = (await sql<{ page_count: number }>`pragma page_count`.execute(database.db)).rows;
      await sql.raw(`pragma max_page_count = ${pages}`).execute(database.db);
      // Not one failure a record (each would fail alike): the run stops at the first, with why.
      await expect(run()).rejects.toThrow(new ImportError('the database stopped serving during the import (database or disk is full); what was written is kept, and the same import run again goes on from there'));
      await sql.raw('pragma max_page_count = 1073741823').execute(database.db);
      const again = await run();
      expect([again.failures, again.summary.events]).toEqual([[], { created: 0, updated: 10, unchanged: 0, failed: 0 }]);
      expect(await count('event')).toBe(10);
    });

    it('with credentials brings drafts and password-protected events whole; --since and --dry-run write less', async () => {
      site.records.events[1] = { ...site.records.events[1], status: 'draft' };
      site.records.events[4] = { ...site.records.events[4], password_protected: true, description: '<p>Only for members</p>', modified_utc: '2026-11-22 00:14:00' };
      expect((await run()).summary.events.created).toBe(9);
      const blank = await database.db.selectFrom('event').selectAll().where('title', '=', 'Event 4').executeTakeFirstOrThrow();
      expect([blank.status, blank.description]).toEqual(['publish', '']);
      site.records.events[4].modified_utc = '2026-11-22 00:15:00';
      const whole = await run({ user: 'admin', password: 'secret' });
      expect(whole.summary.events).toMatchObject({ created: 1, updated: 1 });
      const draft = await database.db.selectFrom('event').selectAll().where('title', '=', 'Event 1').executeTakeFirstOrThrow();
      expect(draft.status).toBe('draft');
      // Its password is never shown: the protected content comes in for editors only, not public.
      const guarded = await database.db.selectFrom('event').selectAll().where('title', '=', 'Event 4').executeTakeFirstOrThrow();
      expect([guarded.status, guarded.description]).toEqual(['private', '<p>Only for members</p>']);

      site.records.events[2] = { ...site.records.events[2], title: 'Old change', modified_utc: '2026-11-01 00:00:00' };
      site.records.events[3] = { ...site.records.events[3], title: 'New change', modified_utc: '2026-12-02 00:00:00' };
      const dry = await run({ since: '2026-11-30', dryRun: true });
      expect(dry.summary.events.updated).toBe(1);
      expect(await database.db.selectFrom('event').select('id').where('title', '=', 'New change').execute()).toEqual([]);
      const since = await run({ since: '2026-11-30' });
      expect(since.summary.events.updated).toBe(1);
      expect(await database.db.selectFrom('event').select('id').where('title', '=', 'Old change').execute()).toEqual([]);
    });

    it('with credentials, a protected event stays guarded when the list moves between its two reads (as an editor and as a visitor sees it)', async () => {
      site.records.events[4] = { ...site.records.events[4], password_protected: true, description: '<p>Only for members</p>' };
      // Once the second page has been read whole (events 4-7), the first event is deleted: read again as a
      // visitor sees it, the second page is events 5-8, and event 4 is on the first.
      let deleted = false;
      site.lies.page = (resource, page, items) => {
        if (resource === 'events' && page === 2 && !deleted) {
          deleted = true;
          // Event 6 too: it is not found again, so whether a password guards it is not known.
          queueMicrotask(() => site.records.events.splice(0, 1) && site.records.events.splice(site.records.events.findIndex((e) => e.title === 'Event 6'), 1));
        }
        return items;
      };
      const moved = await run({ user: 'admin', password: 'secret' });
      expect(moved.failures.filter((f) => f.url.endsWith('/event-6/')).map((f) => f.reason)).toEqual([expect.stringMatching(/^not found again as a visitor sees it, so whether a password guards it is not known/)]);
      expect(await database.db.selectFrom('event').select('id').where('title', '=', 'Event 6').execute()).toEqual([]);
      // Each page's events are read again as a visitor sees them by id, not by page (where event 4 was public
      // with what its password guards): it comes in private, for editors only.
      const guarded = await database.db.selectFrom('event').select(['status', 'description']).where('title', '=', 'Event 4').executeTakeFirstOrThrow();
      expect([guarded.status, guarded.description]).toEqual(['private', '<p>Only for members</p>']);
      expect(await database.db.selectFrom('event').select('title').where('status', '=', 'publish').where('description', 'like', '%Only for members%').execute()).toEqual([]);
    });

    it('a password-protected venue or organizer: without credentials it fails saying why; with them it comes in private, one added meanwhile asked for alone', async () => {
      site.records.venues[2] = { ...site.records.venues[2], password_protected: true, address: '1 Secret Street' };
      site.records.organizers[0] = { ...site.records.organizers[0], password_protected: true, organizer: 'Hidden Society', email: 'members@example.org' };
      const anonymous = await run();
      expect(anonymous.failures.map((f) => [f.resource, f.reason.split(':')[0]]).filter(([resource]) => resource !== 'events')).toEqual([['venues', 'password-protected'], ['organizers', 'password-protected']]);
      expect(await database.db.selectFrom('venue').select('id').where('address', '=', '1 Secret Street').execute()).toEqual([]);

      // A protected venue added after the visitor's walk of the venues (its first three requests), before the editor's.
      let venueLists = 0;
      site.lies.page = (resource, _page, items) => {
        if (resource === 'venues' && ++venueLists === 4) {
          site.records.venues.push({ ...site.records.venues[0], id: 1999, global_id: 'fake.test?id=1999', venue: 'Late Hall', slug: 'late-hall', password_protected: true, address: '2 Secret Street' });
        }
        return items;
      };
      const whole = await run({ user: 'admin', password: 'secret' });
      expect(whole.failures).toEqual([]);
      expect(site.seen).toContain('venues/1999?page=1'); // asked for alone, as a visitor
      const venues = await database.db.selectFrom('venue').select(['title', 'status', 'address']).where('address', 'like', '%Secret Street').orderBy('title').execute();
      expect(venues).toEqual([{ title: 'Hall 2', status: 'private', address: '1 Secret Street' }, { title: 'Late Hall', status: 'private', address: '2 Secret Street' }]);
      const organizer = await database.db.selectFrom('organizer').select(['title', 'status']).where('title', '=', 'Hidden Society').executeTakeFirstOrThrow();
      expect(organizer.status).toBe('private');
      expect(await database.db.selectFrom('venue').select('title').where('status', '=', 'publish').where('title', '=', 'Hall 0').execute()).toHaveLength(1);
    });

    it('with credentials, a visitor\'s walk of the venues cut short costs requests, not the list: what it did not show is asked for alone', async () => {
      site.records.venues[5] = { ...site.records.venues[5], password_protected: true, address: '5 Secret Street' };
      // The walk's second page (venues 4-7) answers 500 to every try; the editor's walk comes after and gets it.
      site.faults.set('venues?page=2', [500, 500, 500]);
      const result = await run({ user: 'admin', password: 'secret' });
      expect(result.failures).toEqual([]);
      // Venues 4-7, and 8: the walk stops at the page that failed, the third one's answer unread.
      expect(site.seen.filter((s) => /^venues\/\d+/.test(s)).sort()).toEqual([1004, 1005, 1006, 1007, 1008].map((id) => `venues/${id}?page=1`));
      const guarded = await database.db.selectFrom('venue').select(['title', 'status']).where('address', '=', '5 Secret Street').executeTakeFirstOrThrow();
      expect(guarded).toEqual({ title: 'Hall 5', status: 'private' });
    });

    it('an event whose venue failed is written without it and said so; a run again, the venue mended, completes it', async () => {
      const hall3 = site.records.venues[3];
      site.records.venues[3] = { ...hall3, venue: ['not', 'a', 'name'] };
      const first = await run();
      expect(first.failures.map((f) => [f.resource, f.url.replace(/^http:\/\/[^/]+/, ''), f.reason.replace(/: .*/s, '')])).toEqual([
        ['venues', '/venue/blue-room/', 'Invalid parameter(s)'], // the sample's address, which every fake venue keeps
        ['events', '/event/event-3/', 'written without its venue 1003'],
      ]);
      expect(first.summary.events).toEqual({ created: 10, updated: 0, unchanged: 0, failed: 0 });
      site.records.venues[3] = { ...hall3, modified_utc: '2026-12-01 00:00:00' };
      // With --since past the event's own change: it is still written again, being incomplete.
      const again = await run({ since: '2026-11-30' });
      expect([again.failures, again.summary.venues.created, again.summary.events]).toEqual([[], 1, { created: 0, updated: 1, unchanged: 9, failed: 0 }]);
      const event = await database.db.selectFrom('event').innerJoin('venue', 'venue.id', 'event.venue_id').select('venue.title').where('event.title', '=', 'Event 3').executeTakeFirstOrThrow();
      expect(event.title).toBe('Hall 3');
    });

    it('a venue deleted here after an import is brought again by the next, and an event changed at the source names it', async () => {
      await run();
      const hall0 = await database.db.selectFrom('venue').select('id').where('title', '=', 'Hall 0').executeTakeFirstOrThrow();
      await database.db.deleteFrom('venue').where('id', '=', hall0.id).execute();
      site.records.events[0] = { ...site.records.events[0], title: 'Event 0 moved', modified_utc: '2026-12-05 00:00:00' };
      // Once its lineage still named the deleted venue: the changed event failed (`Invalid parameter(s): venue`).
      const again = await run();
      expect([again.failures, again.summary.venues.created, again.summary.events.updated]).toEqual([[], 1, 1]);
      const moved = await database.db.selectFrom('event').innerJoin('venue', 'venue.id', 'event.venue_id').select('venue.title').where('event.title', '=', 'Event 0 moved').executeTakeFirstOrThrow();
      expect(moved.title).toBe('Hall 0');
      // Nine venues, nine lineage rows: the deleted one's row made way for the new record's.
      expect(Number((await sql<{ n: number }>`select count(*) as n from import_lineage where kind = 'venue'`.execute(database.db)).rows[0].n)).toBe(9);
    });

    it('one bad record fails alone, with its URL and reason; its page is written without it and nothing is half-written', async () => {
      // Event 5 shares a page (4 a page) with events 4, 6 and 7, written together in one transaction.
      site.records.events[5] = { ...site.records.events[5], start_date: 'the day after never' };
      const first = await run();
      expect(first.summary.events).toEqual({ created: 9, updated: 0, unchanged: 0, failed: 1 });
      expect(first.failures).toEqual([{ resource: 'events', url: 'http://fake.test/event/event-5/', reason: expect.stringMatching(/start_date/) }]);
      const titles = (await database.db.selectFrom('event').select('title').orderBy('id').execute()).map((row) => row.title);
      expect(titles).toEqual(['Event 0', 'Event 1', 'Event 2', 'Event 3', 'Event 4', 'Event 6', 'Event 7', 'Event 8', 'Event 9']);
      // Every record has its lineage row and no lineage row lacks its record: written in the same transactions.
      const lineage = await database.db.selectFrom('import_lineage').select(['kind', 'local_id']).where('kind', '=', 'event').execute();
      expect(lineage.length).toBe(9);
      expect(await database.db.selectFrom('event').select('id').where('id', 'not in', lineage.map((l) => l.local_id)).execute()).toEqual([]);
      // Venues and organizers name their source too, as events do.
      const app = await buildApp({ config, database, logger: false });
      const venues = (await app.inject({ url: '/cal/events/v1/venues?per_page=50' })).json().venues;
      expect(venues.find((v: any) => v.venue === 'Hall 3').global_id_lineage).toEqual([expect.any(String), 'fake.test?id=1003']);
      // A Pro site's coordinates come along.
      expect(venues.filter((v: any) => ['Hall 2', 'Hall 3'].includes(v.venue)).map((v: any) => [v.venue, v.geo_lat, v.geo_lng]).sort())
        .toEqual([['Hall 2', null, null], ['Hall 3', 52.03, 13.03]]);
      const organizers = (await app.inject({ url: '/cal/events/v1/organizers' })).json().organizers;
      expect(organizers[0].global_id_lineage).toEqual([organizers[0].global_id, 'fake.test?id=500']);
      await app.close();

      site.records.events[5] = { ...site.records.events[5], start_date: '2027-03-05 19:00:00', modified_utc: '2026-12-03 00:00:00' };
      const mended = await run();
      expect(mended.failures).toEqual([]);
      expect(mended.summary.events).toEqual({ created: 1, updated: 0, unchanged: 9, failed: 0 });
    });

    it('a record holding what the API would refuse (a list for a title, a NUL, a list for a flag) fails alone naming the field, on either database', async () => {
      site.records.events[1] = { ...site.records.events[1], title: ['Event 1'] };
      site.records.events[2] = { ...site.records.events[2], description: 'a\u0000b' };
      site.records.events[3] = { ...site.records.events[3], all_day: ['yes'] };
      site.records.venues[1] = { ...site.records.venues[1], venue: { name: 'Hall' } };
      site.records.categories[0] = { ...site.records.categories[0], description: '' }; // none, as the reference lists it
      const result = await run();
      expect(result.failures.map((f) => [f.url, f.reason])).toEqual([
        ['http://127.0.0.1:8088/venue/blue-room/', 'Invalid parameter(s): venue'], // every fake venue has the sample's url
        ['http://fake.test/event/event-1/', 'Invalid parameter(s): title'],
        ['http://fake.test/event/event-2/', 'Invalid parameter(s): description'],
        ['http://fake.test/event/event-3/', 'Invalid parameter(s): all_day'],
      ]);
      expect(result.summary.categories.created).toBe(2);
      expect(await count('event')).toBe(7);
    });

    it('a site that does not page, or lists fewer records than it announced, fails that list with why; what it read is kept', async () => {
      // Every page asked is page 1 (a cache that ignores ?page=): 4 of the 10 events, then the same 4 again.
      site.lies.ignorePage = true;
      const cached = await run();
      const [events] = cached.failures.filter((f) => f.resource === 'events');
      expect([events.reason, cached.summary.events.created]).toEqual([expect.stringMatching(/^this page lists only events of earlier pages: the site does not page/), 4]);
      expect(await count('event')).toBe(4);
      // Fewer than announced: the shortfall is said, the run exits as failed; the records read are written.
      site.lies.ignorePage = false;
      site.lies.total = 12;
      const short = await run();
      expect(short.failures.map((f) => [f.resource, f.reason])).toContainEqual(['events', expect.stringMatching(/^the site announced 12 events and listed 10: .* run again brings what was missed$/)]);
      expect(await count('event')).toBe(10);
      // A page count that is no number: pages are read until one is empty.
      site.lies.total = undefined;
      site.lies.totalPages = 'many';
      site.records.events[9] = { ...site.records.events[9], title: 'Event 9 moved', modified_utc: '2026-12-01 10:00:00' };
      const unnumbered = await run();
      expect([unnumbered.failures, unnumbered.summary.events]).toEqual([[], { created: 0, updated: 1, unchanged: 9, failed: 0 }]);
    });

    it('a list that shrinks while it is read ends at the 404 the reference gives past its end: the shortfall is said, and a run again brings what moved', async () => {
      // Once the first page of events is read, its four events are deleted: the rest move up a page, and the
      // third page, announced by the first, is past the end now (404 event-archive-page-not-found).
      // So do five tags, one deleted, on a site whose term lists answer past their end as newer WordPress does.
      site.records.tags.push(...[8, 9, 10, 11].map((id) => ({ ...site.records.tags[0], id, name: `Tag ${id}`, slug: `tag-${id}` })));
      site.lies.newerTermPaging = true;
      site.lies.page = (resource, page, items) => {
        if (resource === 'events' && page === 1) site.records.events.splice(0, 4);
        if (resource === 'tags' && page === 1) site.records.tags.splice(0, 1);
        return items;
      };
      const shrunk = await run();
      expect(site.seen.filter((s) => s.startsWith('events?'))).toEqual(['events?page=1', 'events?page=2', 'events?page=3']);
      expect(site.seen.filter((s) => s.startsWith('tags?'))).toEqual(['tags?page=1', 'tags?page=2']);
      expect(shrunk.failures.map((f) => [f.resource, f.reason])).toEqual([
        ['tags', expect.stringMatching(/^the site announced 5 tags and listed 4: /)],
        ['events', expect.stringMatching(/^the site announced 10 events and listed 6: /)],
      ]);
      expect(await count('event')).toBe(6); // events 0-3, and 8-9 of the second page; 4-7 moved onto the first
      site.lies.page = undefined;
      const again = await run();
      expect([again.failures, again.summary.events, again.summary.tags.created]).toEqual([[], { created: 4, updated: 0, unchanged: 2, failed: 0 }, 1]);
      expect(await count('event')).toBe(10); // the deleted four stay: an import adds and updates, it deletes nothing
      // Tag 7, deleted at the source and so listed by neither run's end, is still what every event names: the
      // run again finds it by what the first one brought (its lineage), where it once dropped it from the four.
      const tagged = await database.db.selectFrom('event_term').innerJoin('term', 'term.id', 'event_term.term_id').where('term.slug', '=', 'outdoor').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      expect(Number(tagged.n)).toBe(10);
    });

    // PostgreSQL only: SQLite has one writer at a time, so two runs cannot race there.
    if (dialect === 'postgres') it('two imports of the same site at once, each with its own connection pool, make every record once', async () => {
      // Two processes' worth of connections: each run its own pool on the same schema.
      const schema = (await sql<{ name: string }>`select current_schema() as name`.execute(database.db)).rows[0].name;
      const other = createDb(process.env.TEST_DATABASE_URL as string, { searchPath: schema });
      try {
        const runs = await Promise.all([run(), runImport({ source: site.root }, { config, database: other, progress: silentProgress, source: FAST })]);
        for (const result of runs) expect(result.failures).toEqual([]);
        expect(runs[0].summary.events.created + runs[1].summary.events.created).toBe(10);
        expect(await count('event')).toBe(10);
        expect(await count('venue')).toBe(9);
        const terms = await database.db.selectFrom('term').select(['slug', 'count']).orderBy('slug').execute();
        expect(terms).toEqual([{ slug: 'jazz', count: 10 }, { slug: 'music', count: 0 }, { slug: 'outdoor', count: 10 }]);
        expect((await database.db.selectFrom('user').select('login').where('login', '=', 'cal-import').execute()).length).toBe(1);
        // A venue deleted here, then two imports at once: its stale lineage row makes way once, one venue comes back.
        await database.db.deleteFrom('venue').where('title', '=', 'Hall 0').execute();
        const again = await Promise.all([run(), runImport({ source: site.root }, { config, database: other, progress: silentProgress, source: FAST })]);
        for (const result of again) expect(result.failures).toEqual([]);
        expect([again[0].summary.venues.created + again[1].summary.venues.created, await count('venue')]).toEqual([1, 9]);
        const rows = await sql<{ n: number }>`select count(*) as n from import_lineage where kind = 'venue'`.execute(database.db);
        expect(Number(rows.rows[0].n)).toBe(9);
      } finally {
        await other.db.destroy();
      }
    });

    it('a NUL in a site record\'s global_id or modified_utc, or in a calendar event\'s UID, fails nothing else and stores no NUL', async () => {
      site.records.events[2] = { ...site.records.events[2], global_id: 'fake.test?id=2002\u0000x', modified_utc: '2026-11-22\u0000' };
      const result = await run();
      // Keyed by its id instead, its time by a digest: written, on PostgreSQL too (which cannot store a NUL).
      expect([result.failures, result.summary.events.created]).toEqual([[], 10]);
      const keys = await sql<{ source_key: string; source_modified: string }>`select source_key, source_modified from import_lineage where kind = 'event'`.execute(database.db);
      expect(keys.rows.filter((row) => /\u0000/.test(row.source_key + row.source_modified))).toEqual([]);
      const file = join(files, `nul-uid-${dialect}.ics`);
      const ics = readIcs();
      writeFileSync(file, ics.replace(/\r?\nUID:([^\r\n]*)/, '\r\nUID:$1\u0000'));
      const calendar = await runImport({ source: file, ics: true }, { config, database, progress: silentProgress });
      expect(calendar.failures.map((f) => f.reason)).toEqual(['the event cannot be read: its UID is no key (a control character in it, or past 2000 characters)']);
      expect(calendar.summary.events.created).toBe((ics.match(/BEGIN:VEVENT/g) ?? []).length - 1);
    });

    it('refuses bad input with a clear message and writes nothing', async () => {
      await expect(run({ since: 'yesterday-ish' })).rejects.toThrow(/--since "yesterday-ish" is not a date/);
      await expect(run({ source: 'http://127.0.0.1:9/wp-json/tribe/events/v1' })).rejects.toThrow(ImportError);
      await expect(run({ source: site.root.replace('/wp-json/tribe/events/v1', '/nothing') })).rejects.toThrow(/is not a The Events Calendar API/);
      await expect(run({ source: 'not a url' })).rejects.toThrow(/not an http/);
      expect(await count('event')).toBe(0);
      expect(await database.db.selectFrom('user').selectAll().execute()).toEqual([]);
    });

    it('imports an iCalendar file: UID as the key, zones and all-day dates kept, a re-run unchanged', async () => {
      const text = readIcs();
      const file = join(files, `calendar-${dialect}.ics`);
      writeFileSync(file, text);
      const first = await runImport({ source: file, ics: true }, { config, database, progress: silentProgress });
      expect(first.failures).toEqual([]);
      expect(first.summary.events.created).toBe(30);
      const sydney = await database.db.selectFrom('event').selectAll().where('title', '=', 'Event 1 Talk').executeTakeFirstOrThrow();
      expect([sydney.start_local, sydney.timezone]).toEqual(['2027-01-06 11:00:00', 'Australia/Sydney']);
      const again = await runImport({ source: file, ics: true }, { config, database, progress: silentProgress });
      expect(again.summary.events).toEqual({ created: 0, updated: 0, unchanged: 30, failed: 0 });
      await expect(runImport({ source: join(files, 'no-such.ics'), ics: true }, { config, database, progress: silentProgress })).rejects.toThrow(/cannot read the calendar/);
    });

    it('keeps an iCalendar series a series: RRULE and EXDATE as its rules, an exception (RECURRENCE-ID) on its occurrence', async () => {
      const file = join(files, `series-${dialect}.ics`);
      const write = (summary: string, modified: string) => writeFileSync(file, [
        'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//series//EN', vtimezone('Europe/Berlin', 2026, 2028).trimEnd(),
        // The exception first: the import writes series before their exceptions, whatever the file's order.
        'BEGIN:VEVENT', 'UID:choir@example.org', 'DTSTAMP:20261101T000000Z', 'LAST-MODIFIED:20261101T000000Z',
        'RECURRENCE-ID;TZID=Europe/Berlin:20270404T190000', 'DTSTART;TZID=Europe/Berlin:20270405T180000',
        'DTEND;TZID=Europe/Berlin:20270405T200000', 'SUMMARY:Choir (Easter Monday)', 'END:VEVENT',
        'BEGIN:VEVENT', 'UID:choir@example.org', 'DTSTAMP:20261101T000000Z', `LAST-MODIFIED:${modified}`,
        'DTSTART;TZID=Europe/Berlin:20270314T190000', 'DTEND;TZID=Europe/Berlin:20270314T210000',
        'RRULE:FREQ=WEEKLY;UNTIL=20270411T215959Z', 'EXDATE;TZID=Europe/Berlin:20270328T190000', `SUMMARY:${summary}`, 'END:VEVENT',
        'END:VCALENDAR', '',
      ].join('\r\n'));
      write('Choir', '20261101T000000Z');
      const first = await runImport({ source: file, ics: true }, { config, database, progress: silentProgress });
      expect([first.failures, first.summary.events]).toEqual([[], { created: 2, updated: 0, unchanged: 0, failed: 0 }]);
      const app = await buildApp({ config, database, logger: false });
      try {
        const read = async () => {
          const series = (await app.inject({ url: '/cal/events/v1/events?search=Choir&start_date=2000-01-01' })).json().events[0];
          const listed = (await app.inject({ url: `/cal/events/v1/events?post_parent=${series.id}&start_date=2000-01-01` })).json().events;
          return { series, listed: listed.map((e: any) => [e.start_date, e.title, e.series.original_start, e.series.override]) };
        };
        const { series, listed } = await read();
        expect([series.start_date, series.timezone, series.recurrence]).toEqual([
          '2027-03-14 19:00:00', 'Europe/Berlin', { rules: ['FREQ=WEEKLY;UNTIL=20270411T215959Z'], exdates: ['2027-03-28 19:00:00'] },
        ]);
        expect(listed).toEqual([
          ['2027-03-21 19:00:00', 'Choir', '2027-03-21 19:00:00', false],
          ['2027-04-05 18:00:00', 'Choir (Easter Monday)', '2027-04-04 19:00:00', true],
          ['2027-04-11 19:00:00', 'Choir', '2027-04-11 19:00:00', false],
        ]);
        const again = await runImport({ source: file, ics: true }, { config, database, progress: silentProgress });
        expect(again.summary.events).toEqual({ created: 0, updated: 0, unchanged: 2, failed: 0 });
        // The series renamed at the source: its occurrences follow, its exception stays as it was edited.
        write('Choir practice', '20261102T000000Z');
        const renamed = await runImport({ source: file, ics: true }, { config, database, progress: silentProgress });
        expect(renamed.summary.events).toEqual({ created: 0, updated: 1, unchanged: 1, failed: 0 });
        expect((await read()).listed.map((row: unknown[]) => row[1])).toEqual(['Choir practice', 'Choir (Easter Monday)', 'Choir practice']);
      } finally {
        await app.close();
      }
    });

    it('imports an iCalendar feed from a URL, asked again after a 503 and a feed cut short: LOCATION as the venue, ORGANIZER and CATEGORIES kept', async () => {
      // The first two answers: the server busy, then the feed's first half only (a proxy that cut it).
      const faults: Array<'busy' | 'cut'> = ['busy', 'cut'];
      let asked = 0;
      const feed = createServer((request, response) => {
        if (request.url !== '/feed.ics') return response.writeHead(404).end();
        asked++;
        // The reference's feed, with a GEO (RFC 5545 §3.8.1.6) after each Blue Room's LOCATION.
        const located = readIcs().replace(/(\r?\nLOCATION:Blue Room[^\r\n]*(?:\r?\n [^\r\n]*)*)/g, '$1\r\nGEO:52.52;13.405');
        const fault = faults.shift();
        if (fault === 'busy') return response.writeHead(503).end();
        response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(fault === 'cut' ? located.slice(0, located.length / 2) : located);
      });
      await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
      const root = `http://127.0.0.1:${(feed.address() as AddressInfo).port}`;
      try {
        const first = await runImport({ source: `${root}/feed.ics`, ics: true }, { config, database, progress: silentProgress, source: FAST });
        expect([asked, first.failures, first.summary.events.created]).toEqual([3, [], 30]);
        const app = await buildApp({ config, database, logger: false });
        const events = (await app.inject({ url: '/cal/events/v1/events?search=Event%200%20Concert&start_date=2000-01-01' })).json().events;
        expect(events).toHaveLength(1);
        expect(events[0].venue.venue).toBe('Blue Room, 1 Main St, Berlin, X');
        expect([events[0].venue.geo_lat, events[0].venue.geo_lng]).toEqual([52.52, 13.405]);
        expect(events[0].organizer.map((o: any) => [o.organizer, o.email])).toEqual([['Jazz Club', 'jazz@example.org']]);
        expect(events[0].categories.map((c: any) => c.name)).toEqual(['Music']);
        // Thirty events at a handful of places: each venue once, found by name for the next event.
        const venues = await database.db.selectFrom('venue').select('title').execute();
        expect(new Set(venues.map((v) => v.title)).size).toBe(venues.length);
        await app.close();
        await expect(runImport({ source: `${root}/missing.ics`, ics: true }, { config, database, progress: silentProgress, source: FAST })).rejects.toThrow(/cannot read the calendar .*HTTP 404/);
        // A feed that stays cut short is reported as such once the tries are spent, and nothing is written.
        faults.push('cut', 'cut', 'cut');
        const before = await count('event');
        await expect(runImport({ source: `${root}/feed.ics`, ics: true }, { config, database, progress: silentProgress, source: FAST })).rejects.toThrow(/cannot read the calendar .*: the calendar was cut short$/);
        expect(await count('event')).toBe(before);
      } finally {
        feed.closeAllConnections();
        await new Promise((resolve) => feed.close(resolve));
      }
    });
  });
}

function readIcs(): string {
  const raw = readFileSync('/work/shared/reference/site/list.ics.txt', 'utf8') as string;
  return raw.slice(raw.indexOf('BEGIN:VCALENDAR'));
}
