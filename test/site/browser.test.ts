import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import axe from 'axe-core';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { createUserRepository } from '../../src/users/user.repository.ts';
import { createUserService } from '../../src/users/user.service.ts';
import { chromiumPath } from '../helpers/chromium.ts';
import { API, sqliteRuns, testConfig } from '../helpers/test-app.ts';

// CAL_SCREENSHOTS=1 npm test -- test/site/browser.test.ts refreshes the README's pictures.
const SCREENSHOTS = process.env.CAL_SCREENSHOTS === '1' ? new URL('../../docs/screenshots/', import.meta.url) : undefined;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A real service on a real port, a calendar of March 2027 in it, and a real browser. */
describe.runIf(sqliteRuns())('the site in a real browser (Chromium)', () => {
  let app: FastifyInstance;
  let database: DbHandle;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    const executablePath = chromiumPath();
    origin = `http://127.0.0.1:${await freePort()}`;
    database = createDb('sqlite::memory:');
    await migrateToLatest(database.db);
    app = await buildApp({ config: testConfig({ CAL_PUBLIC_URL: origin, CAL_SITE_NAME: 'Town Hall Events' }), database, logger: false });
    await app.listen({ port: Number(new URL(origin).port), host: '127.0.0.1' });
    const admin = await createUserService(createUserRepository(database.db)).add('admin', 'administrator');
    const authorization = `Basic ${Buffer.from(`admin:${admin.password}`).toString('base64')}`;
    const create = async (payload: Record<string, unknown>) => {
      const res = await app.inject({ method: 'POST', url: `${API}/events`, headers: { authorization }, payload });
      expect(res.statusCode, res.body).toBe(201);
    };
    const venue = { venue: 'Blue Room', address: 'Hauptstr. 1', city: 'Berlin', zip: '10115', country: 'Germany' };
    await create({
      title: 'Jazz Night', description: '<p>Live jazz with the <strong>Blue Trio</strong>.</p><p>Doors open at 18:30.</p>',
      start_date: '2027-03-05 19:00', end_date: '2027-03-05 22:30', timezone: 'Europe/Berlin', cost: '15', venue,
      organizer: [{ organizer: 'Jazz Club', email: 'club@example.test' }], categories: ['Music'], tags: ['jazz'], featured: true,
    });
    await create({ title: 'Spring Festival', start_date: '2027-03-19 10:00', end_date: '2027-03-21 18:00', venue, categories: ['Festivals'] });
    await create({ title: 'Farmers Market', all_day: true, start_date: '2027-03-13', end_date: '2027-03-13', categories: ['Markets'] });
    await create({ title: 'Members Evening', start_date: '2027-03-25 19:00', end_date: '2027-03-25 21:00', password: 'members-only', description: 'The members programme.' });
    await create({ title: 'Choir', start_date: '2027-03-08 19:00', end_date: '2027-03-08 21:00', timezone: 'Europe/Berlin', recurrence: { rules: ['FREQ=WEEKLY;COUNT=3'] } });
    for (let i = 1; i <= 14; i++) {
      const day = String(i + 1).padStart(2, '0');
      await create({ title: `Lunch Talk ${i}`, start_date: `2027-04-${day} 12:00`, end_date: `2027-04-${day} 13:00`, categories: ['Talks'], venue });
    }
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await database?.close();
  });

  /** A page with every console error and uncaught exception collected; axe needs its script injected. */
  async function open(path: string, options: { width?: number; javaScript?: boolean } = {}) {
    const context = await browser.newContext({ bypassCSP: true, javaScriptEnabled: options.javaScript ?? true, viewport: { width: options.width ?? 1200, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(`${origin}${path}`);
    return { page, errors, status: response?.status(), close: () => context.close() };
  }

  async function seriousViolations(page: Page) {
    await page.addScriptTag({ content: axe.source });
    const result = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run());
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
  }

  const pages: Array<[string, number]> = [
    ['/events/', 200], ['/events/month/2027-03/', 200], ['/events/2027-03-05/', 200], ['/event/jazz-night/', 200],
    ['/venue/blue-room/', 200], ['/organizer/jazz-club/', 200], ['/events/category/music/', 200], ['/tag/jazz/', 200],
    ['/events/tag/jazz/month/2027-03/', 200], ['/event/members-evening/', 200], ['/event/nope/', 404], ['/events/?featured=maybe', 400],
    ['/fr/events/month/2027-03/', 200], ['/event/choir-2027-03-15/', 200],
  ];
  for (const [path, status] of pages) {
    it(`renders ${path} (${status}) with no console error and no serious accessibility violation`, async () => {
      const { page, errors, status: answered, close } = await open(path);
      expect(answered).toBe(status);
      expect(await page.locator('h1').count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      // The browser reports an error status of the page itself on the console; that one is expected.
      expect(errors.filter((e) => status === 200 || !e.startsWith('Failed to load resource'))).toEqual([]);
      await close();
    });
  }

  it('a database that cannot serve: the 503 page says so in the visitor\'s language, with Retry-After and no serious accessibility violation', async () => {
    // A second service whose PostgreSQL does not answer (nothing listens on port 1): every page needs it.
    const down = createDb('postgres://postgres@127.0.0.1:1/test');
    const downOrigin = `http://127.0.0.1:${await freePort()}`;
    const downApp = await buildApp({ config: testConfig({ CAL_PUBLIC_URL: downOrigin }), database: down, logger: false });
    await downApp.listen({ port: Number(new URL(downOrigin).port), host: '127.0.0.1' });
    const context = await browser.newContext({ bypassCSP: true });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      for (const [path, heading] of [['/events/', 'Back in a moment'], ['/event/jazz-night/', 'Back in a moment'], ['/fr/events/month/2027-03/', 'De retour dans un instant']]) {
        const response = await page.goto(`${downOrigin}${path}`);
        expect([path, response?.status(), await response?.headerValue('retry-after')]).toEqual([path, 503, '5']);
        await expect(page.locator('h1').allTextContents()).resolves.toEqual([heading]);
        expect(await seriousViolations(page)).toEqual([]);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await downApp.close();
      await down.close();
    }
  });

  it('steps through months with the navigation links, JavaScript off', async () => {
    const { page, close } = await open('/events/month/2027-03/', { javaScript: false });
    await expect(page.locator('h1').textContent()).resolves.toBe('Events: March 2027');
    await page.click('a[rel="next"]');
    expect(page.url()).toBe(`${origin}/events/month/2027-04/`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Events: April 2027');
    await page.click('a[rel="prev"]');
    await page.click('a[rel="prev"]');
    await expect(page.locator('h1').textContent()).resolves.toBe('Events: February 2027');
    await close();
  });

  it('pages through the list, and goes event -> venue -> its events -> event', async () => {
    const { page, close } = await open('/events/category/talks/', { javaScript: false });
    await expect(page.locator('.event-summary h3').count()).resolves.toBe(12);
    await page.click('a[rel="next"]');
    expect(page.url()).toBe(`${origin}/events/category/talks/?page=2`);
    await expect(page.locator('.event-summary h3').count()).resolves.toBe(2);
    await page.goto(`${origin}/event/jazz-night/`);
    await page.click('.venue a[href="/venue/blue-room/"]');
    await expect(page.locator('h1').textContent()).resolves.toBe('Blue Room');
    await page.click('text=Spring Festival');
    await expect(page.locator('h1').textContent()).resolves.toBe('Spring Festival');
    await close();
  });

  it('goes from an occurrence of a series to the series\' further dates, JavaScript off', async () => {
    const { page, close } = await open('/event/choir-2027-03-15/', { javaScript: false });
    await page.click('text=More dates of this series');
    expect(page.url()).toMatch(/\/events\/\?post_parent=\d+$/);
    await expect(page.locator('.event-summary h3').allTextContents()).resolves.toEqual(['Choir', 'Choir']);
    await close();
  });

  it('unlocks a password-protected event with its password', async () => {
    const { page, close } = await open('/event/members-evening/', { javaScript: false });
    await expect(page.locator('body').textContent()).resolves.not.toContain('members programme');
    await page.fill('#post_password', 'wrong');
    await page.click('form.password button');
    await expect(page.locator('[role="alert"]').count()).resolves.toBe(1);
    await page.fill('#post_password', 'members-only');
    await page.click('form.password button');
    await expect(page.locator('h1').textContent()).resolves.toBe('Members Evening');
    await expect(page.locator('.description').textContent()).resolves.toContain('The members programme.');
    await close();
  });

  it('speaks French under /fr/', async () => {
    const { page, close } = await open('/fr/events/month/2027-03/');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fr');
    await expect(page.locator('h1').textContent()).resolves.toBe('Événements: mars 2027');
    await expect(page.locator('th').first().getAttribute('abbr')).resolves.toBe('lundi');
    await page.click('text=Jazz Night');
    expect(page.url()).toBe(`${origin}/fr/event/jazz-night/`);
    await expect(page.locator('.when').textContent()).resolves.toContain('vendredi 5 mars 2027');
    await close();
  });

  it('fits a phone screen without sideways scrolling', async () => {
    for (const path of ['/events/month/2027-03/', '/event/jazz-night/', '/events/']) {
      const { page, close } = await open(path, { width: 375 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
      await close();
    }
  });

  it('takes screenshots of the month view and an event page (kept for the README with CAL_SCREENSHOTS=1)', async () => {
    const folder = SCREENSHOTS ?? new URL(`file://${mkdtempSync(join(tmpdir(), 'cal-shots-'))}/`);
    mkdirSync(folder, { recursive: true });
    try {
      for (const [path, name, width] of [['/events/month/2027-03/', 'month-view.png', 1200], ['/event/jazz-night/', 'event-page.png', 900], ['/events/month/2027-03/', 'month-phone.png', 390]] as const) {
        const { page, close } = await open(path, { width });
        const file = new URL(name, folder).pathname;
        await page.screenshot({ path: file, fullPage: true });
        expect(statSync(file).size).toBeGreaterThan(10_000);
        await close();
      }
    } finally {
      if (!SCREENSHOTS) rmSync(folder, { recursive: true, force: true });
    }
  });

  it('lets a script on another site write through a preflight, and read the list totals (CORS)', async () => {
    const writer = await createUserService(createUserRepository(database.db)).add('cors-writer', 'administrator');
    const authorization = `Basic ${Buffer.from(`cors-writer:${writer.password}`).toString('base64')}`;
    // localhost and 127.0.0.1 are two origins to the browser: the page's script calls the API cross-origin.
    const page = await open('/events/');
    await page.page.goto(`${origin.replace('127.0.0.1', 'localhost')}/events/`);
    const api = `${origin}${API}`;
    const result = await page.page.evaluate(async ({ api, authorization }) => {
      // Authorization and a JSON body: the browser asks with a preflight first, and refuses if its answer falls short.
      const created = await fetch(`${api}/events`, {
        method: 'POST', headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Cross-site Talk', start_date: '2027-05-02 18:00', end_date: '2027-05-02 19:00' }),
      });
      const list = await fetch(`${api}/events?per_page=1&start_date=2027-05-01&end_date=2027-05-31`);
      return { status: created.status, title: (await created.json()).title, total: list.headers.get('X-TEC-Total') };
    }, { api, authorization });
    expect(result).toEqual({ status: 201, title: 'Cross-site Talk', total: '1' });
    expect(page.errors).toEqual([]);
    await page.close();
  });
});
