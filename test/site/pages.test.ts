import { expect, it } from 'vitest';
import { cacheStats } from '../../src/db/versioned-cache.ts';
import { API, API_URL, PUBLIC_URL, describeEachDialect } from '../helpers/test-app.ts';
import { expectHtml, siteHelpers, textOf } from './site-helpers.ts';

const CONCERT = {
  title: 'Jazz Night', description: '<p>Live <b>jazz</b> &amp; more.</p><script>alert(1)</script>',
  start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:30:00', timezone: 'Europe/Berlin', cost: '15',
  venue: { venue: 'Blue Room', address: 'Hauptstr. 1', city: 'Berlin', zip: '10115', country: 'Germany' },
  organizer: [{ organizer: 'Jazz Club', email: 'club@example.test' }], categories: ['Music'], tags: ['jazz', 'live'],
};

describeEachDialect('GET /event/{slug}/ (event page)', (t) => {
  const h = siteHelpers(t);

  it('shows the event in its zone with venue, organizer, terms, calendar links and the API record as JSON-LD', async () => {
    const created = await h.event(CONCERT);
    const res = await h.page('/event/jazz-night/');
    expectHtml(res, 200);
    const text = textOf(res.html);
    expect(text).toContain('Jazz Night');
    expect(text).toMatch(/Friday, March 5, 2027.*7:00\s?PM – 10:30\s?PM CET/);
    expect(res.html).toContain('<a href="/venue/blue-room/">Blue Room</a>');
    expect(res.html).toContain('Hauptstr. 1, Berlin, 10115, Germany');
    expect(res.html).toContain('href="https://www.openstreetmap.org/search?query=Hauptstr.+1%2C+Berlin%2C+10115%2C+Germany"');
    expect(res.html).toContain('<a href="/organizer/jazz-club/">Jazz Club</a>');
    expect(res.html).toContain('<a href="/events/category/music/">Music</a>');
    expect(res.html).toContain('href="/events/tag/jazz/"');
    expect(res.html).toContain('<b>jazz</b> &amp; more.');
    expect(res.html).not.toContain('<script>alert');
    expect(res.html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/event/jazz-night/"/>`);
    expect(res.html).toContain(`href="${API_URL}/events/${created.id}"`);
    expect(res.html).toContain(`href="${PUBLIC_URL}/event/jazz-night/?ical=1"`);
    expect(res.html).toContain('<meta property="og:title" content="Jazz Night"/>');
    expect(res.html).toMatch(/https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&amp;text=Jazz\+Night&amp;dates=20270305T180000Z%2F20270305T213000Z/);
    expect(res.html).toContain('https://outlook.live.com/calendar/0/deeplink/compose?');
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(res.html)?.[1] ?? 'null');
    const api = await h.api('GET', `/events/${created.id}`);
    expect(jsonLd).toEqual(api.json.json_ld);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('serves a kept page (from its second rendering on) byte for byte as rendered, until a write changes it', async () => {
    const created = await h.event({ ...CONCERT, title: 'Kept – Night' });
    const answers = [];
    const hitsBefore = cacheStats.get('pages')?.hits ?? 0;
    for (let i = 0; i < 4; i++) answers.push(await h.page('/event/kept-night/'));
    // Rendered twice (kept the second time), then served from what was kept.
    expect((cacheStats.get('pages')?.hits ?? 0) - hitsBefore).toBe(2);
    for (const res of answers) {
      expectHtml(res, 200);
      expect(res.body).toBe(answers[0].body);
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(answers[0].body)));
      expect(res.headers['content-security-policy']).toBe(answers[0].headers['content-security-policy']);
    }
    expect(answers[0].body).toContain('<h1>Kept – Night</h1>');
    await h.api('POST', `/events/${created.id}`, { title: 'Kept – Night, moved' });
    const after = await h.page('/event/kept-night/');
    expectHtml(after, 200);
    expect(after.body).toContain('<h1>Kept – Night, moved</h1>');
  });

  it('never serves a signed-in caller or a password cookie from the kept pages, nor keeps what it renders for them', async () => {
    await h.event({ ...CONCERT, title: 'Members Night' });
    const hits = () => cacheStats.get('pages')?.hits ?? 0;
    const anonymous = [await h.page('/event/members-night/'), await h.page('/event/members-night/')];
    const before = hits();
    const signedIn = [await h.page('/event/members-night/', { role: 'editor' }), await h.page('/event/members-night/', { role: 'editor' })];
    const withCookie = await h.page('/event/members-night/', { headers: { cookie: 'cal_event_pass=x' } });
    for (const res of [...signedIn, withCookie]) {
      expectHtml(res, 200);
      expect(res.body).toBe(anonymous[0].body);
    }
    expect(hits()).toBe(before);
    // The anonymous rendering kept on the second visit is served to the next anonymous one.
    expect((await h.page('/event/members-night/')).body).toBe(anonymous[0].body);
    expect(hits()).toBe(before + 1);
  });

  it('escapes every text it shows, JSON-LD included', async () => {
    await h.event({ ...CONCERT, title: 'A </script><script>alert(1)</script> & "b"', venue: { venue: '<img src=x onerror=alert(1)>' } });
    const res = await h.page('/event/a-script-script-alert-1-script-b/');
    expectHtml(res, 200);
    expect(res.html).not.toMatch(/<script>alert|<img src=x/);
    expect(res.html).toContain('<h1>A &lt;/script>&lt;script>alert(1)&lt;/script> &amp; &quot;b&quot;</h1>');
    expect(res.html).toContain('\\u003c/script>');
  });

  it('answers 404 pages for unknown, draft, pending and private events, 410 for a trashed one', async () => {
    for (const status of ['draft', 'pending', 'private']) await h.event({ ...CONCERT, title: `Hidden ${status}`, status });
    const trashed = await h.event({ ...CONCERT, title: 'Gone' });
    await h.api('DELETE', `/events/${trashed.id}`);
    for (const slug of ['nope', 'hidden-draft', 'hidden-pending', 'hidden-private']) {
      const res = await h.page(`/event/${slug}/`);
      expectHtml(res, 404);
      expect(res.html).toContain('Page not found');
      expect(res.html).not.toContain('Hidden');
    }
    expectHtml(await h.page('/event/gone/'), 410);
    // Whoever may read a draft sees it, as in the API.
    expectHtml(await h.page('/event/hidden-draft/', { role: 'editor' }), 200);
  });

  it('asks for the password of a protected event and unlocks it with the right one only', async () => {
    await h.event({ ...CONCERT, title: 'Secret', password: 'opensesame' });
    await h.event({ ...CONCERT, title: 'Other secret', password: 'opensesame' });
    const form = await h.page('/event/secret/');
    expectHtml(form, 200);
    expect(form.html).toContain('<form class="password" method="post" action="/event/secret/">');
    expect(form.html).not.toContain('Live');

    const post = (password: string) => t().app.inject({
      method: 'POST', url: '/event/secret/', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `post_password=${password}`,
    });
    const wrong = await post('nope');
    expectHtml(wrong, 403);
    expect(wrong.body).toContain('role="alert"');

    const right = await post('opensesame');
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('/event/secret/');
    const cookie = String(right.headers['set-cookie']);
    expect(cookie).toMatch(/^cal_event_pass=[\w-]+; Path=\/; Max-Age=864000; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toContain('opensesame');
    const unlocked = await h.page('/event/secret/', { headers: { cookie: cookie.split(';')[0] } });
    expectHtml(unlocked, 200);
    expect(unlocked.html).toContain('Live <b>jazz</b>');
    // The proof is for that event only, even where the password is the same.
    const other = await h.page('/event/other-secret/', { headers: { cookie: cookie.split(';')[0] } });
    expect(other.html).toContain('<form class="password"');
  });

  it('is French under /fr/ and German for Accept-Language: de, dates and words included', async () => {
    await h.event(CONCERT);
    const fr = await h.page('/fr/event/jazz-night/');
    expectHtml(fr, 200);
    expect(fr.html).toContain('<html lang="fr">');
    expect(textOf(fr.html)).toMatch(/vendredi 5 mars 2027.*19:00 – 22:30 CET/);
    expect(fr.html).toContain('Ajouter au calendrier');
    expect(fr.html).toContain('<a href="/fr/venue/blue-room/">');
    const de = await h.page('/event/jazz-night/', { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(de.html).toContain('<html lang="de">');
    expect(textOf(de.html)).toMatch(/Freitag, 5\. März 2027/);
    expect(de.html).toContain('Zum Kalender hinzufügen');
    expectHtml(await h.page('/fr/event/nope/'), 404);
    expect((await h.page('/fr/event/nope/')).html).toContain('Page introuvable');
  });

  it('shows a new title after an update: a rendered page never outlives a write', async () => {
    const created = await h.event(CONCERT);
    expect((await h.page('/event/jazz-night/')).html).toContain('<h1>Jazz Night</h1>');
    await h.api('POST', `/events/${created.id}`, { title: 'Jazz Night Moved' });
    expect((await h.page('/event/jazz-night/')).html).toContain('<h1>Jazz Night Moved</h1>');
  });
});

describeEachDialect('venue and organizer pages', (t) => {
  const h = siteHelpers(t);

  it('show the record and its upcoming events, and 404 for unknown or trashed ones', async () => {
    await h.event(CONCERT);
    await h.event({ ...CONCERT, title: 'Elsewhere', venue: { venue: 'Red Room' }, organizer: [] });
    const venue = await h.page('/venue/blue-room/');
    expectHtml(venue, 200);
    expect(venue.html).toContain('<h1>Blue Room</h1>');
    expect(venue.html).toContain('Events at Blue Room');
    expect(venue.html).toContain('<a href="/event/jazz-night/">Jazz Night</a>');
    expect(venue.html).not.toContain('Elsewhere');
    const organizer = await h.page('/organizer/jazz-club/');
    expectHtml(organizer, 200);
    expect(organizer.html).toContain('mailto:club@example.test');
    expect(organizer.html).toContain('<a href="/event/jazz-night/">Jazz Night</a>');
    expectHtml(await h.page('/venue/nope/'), 404);
    const red = (await h.api('GET', '/venues?search=Red')).json.venues[0];
    await h.api('DELETE', `/venues/${red.id}`);
    expectHtml(await h.page('/venue/red-room/'), 404);
  });
});

describeEachDialect('GET /events/ (list, day and month views)', (t) => {
  const h = siteHelpers(t);

  it('lists upcoming published events, twelve a page, with working page links and 404 past the end', async () => {
    for (let i = 1; i <= 13; i++) await h.event({ ...CONCERT, title: `Gig ${i}`, start_date: `2027-04-${String(i).padStart(2, '0')} 20:00`, end_date: `2027-04-${String(i).padStart(2, '0')} 22:00`, venue: 0 });
    await h.event({ ...CONCERT, title: 'Draft gig', status: 'draft' });
    const first = await h.page('/events/');
    expectHtml(first, 200);
    expect(first.html).toContain('<a href="/event/gig-1/">Gig 1</a>');
    expect(first.html).toContain('<a href="/event/gig-12/">Gig 12</a>');
    expect(first.html).not.toContain('Gig 13');
    expect(first.html).not.toContain('Draft gig');
    expect(first.html).toContain('<a rel="next" href="/events/?page=2">');
    const second = await h.page('/events/?page=2');
    expect(second.html).toContain('Gig 13');
    expect(second.html).toContain('<a rel="prev" href="/events/">');
    expectHtml(await h.page('/events/?page=9'), 404);
  });

  it('takes the REST filters and answers a bad one with an HTML 400 that names it', async () => {
    await h.event(CONCERT);
    await h.event({ ...CONCERT, title: 'Talk', categories: ['Talks'], tags: [] });
    const music = await h.page('/events/?categories=music');
    expect(music.html).toContain('Jazz Night');
    expect(music.html).not.toContain('>Talk<');
    expect((await h.page('/events/?search=talk')).html).not.toContain('Jazz Night');
    for (const [query, name] of [['featured=maybe', 'featured'], ['categories=nope', 'categories'], ['start_date=garbage', 'start_date'], ['page=0', 'page']]) {
      const res = await h.page(`/events/?${query}`);
      expectHtml(res, 400);
      expect(res.html).toContain(`<code>${name}</code>`);
    }
  });

  it('ignores the API list\'s parameters a page does not take (status, include, per_page), as it ignores any unknown one', async () => {
    await h.event(CONCERT);
    await h.event({ ...CONCERT, title: 'Draft talk', status: 'draft' });
    for (const query of ['status=publish', 'status=draft', 'status=%5B%5D', 'include=1', 'include=9999999-01-01', 'per_page=1', 'order=%40999', 'password=x', 'utm_source=news']) {
      for (const path of ['/events/?', '/events/month/2027-03/?', '/events/?ical=1&']) {
        const res = await h.page(`${path}${query}`);
        expect([query, path, res.statusCode]).toEqual([query, path, 200]);
        expect(res.body).toContain('Jazz Night');
        expect(res.body).not.toContain('Draft talk');
      }
    }
  });

  it('a password cookie that is not percent-encoded text is taken as none: the form, not an error', async () => {
    const locked = await h.event({ ...CONCERT, title: 'Locked night', password: 'pw' });
    for (const cookie of ['cal_event_pass=%ED%A0%80', 'cal_event_pass=%', 'cal_event_pass=%zz; other=1']) {
      const res = await h.page(`/event/${locked.slug}/`, { headers: { cookie } });
      expectHtml(res, 200);
      expect(res.html).toContain('name="post_password"');
    }
  });

  it('an event of a recurring series links to the series\' further dates, which the list shows, and once with hide_subsequent_recurrences', async () => {
    const series = await h.event({ ...CONCERT, title: 'Weekly jam', venue: 0, recurrence: { rules: ['FREQ=WEEKLY;COUNT=3'] } });
    await h.event({ ...CONCERT, title: 'Once only', start_date: '2027-03-20 19:00', end_date: '2027-03-20 20:00', venue: 0 });
    const page = await h.page('/event/weekly-jam-2027-03-12/');
    expectHtml(page, 200);
    expect(page.html).toContain(`<dt>Recurring</dt><dd><a href="/events/?post_parent=${series.id}">More dates of this series</a></dd>`);
    expect((await h.page('/event/once-only/')).html).not.toContain('More dates');
    const dates = await h.page(`/events/?post_parent=${series.id}`);
    expectHtml(dates, 200);
    expect(dates.html).toContain('<a href="/event/weekly-jam-2027-03-12/">Weekly jam</a>');
    expect(dates.html).toContain('<a href="/event/weekly-jam-2027-03-19/">Weekly jam</a>');
    expect(dates.html).not.toContain('Once only');
    const once = await h.page('/events/?hide_subsequent_recurrences=true');
    expect(once.html.split('>Weekly jam<').length - 1).toBe(1);
    expect(once.html).toContain('Once only');
    const german = await h.page('/de/event/weekly-jam-2027-03-12/');
    expect(german.html).toContain('Weitere Termine dieser Serie');
    expectHtml(await h.page('/events/?post_parent=0'), 400);
  });

  it('shows a month grid with multi-day and all-day events on every day they cover, and steps between months', async () => {
    await h.event({ ...CONCERT, title: 'Festival', start_date: '2027-03-30 10:00', end_date: '2027-04-02 18:00', venue: 0 });
    await h.event({ ...CONCERT, title: 'Market', all_day: true, start_date: '2027-03-10', end_date: '2027-03-11', venue: 0 });
    const res = await h.page('/events/month/2027-03/');
    expectHtml(res, 200);
    const cells = res.html.split('<td ').slice(1);
    const cellOf = (day: string) => cells.find((c) => c.includes(`href="/events/${day}/" aria-label`)) ?? '';
    for (const day of ['2027-03-30', '2027-03-31', '2027-04-01', '2027-04-02']) expect(cellOf(day)).toContain('Festival');
    expect(cellOf('2027-03-29')).not.toContain('Festival');
    for (const day of ['2027-03-10', '2027-03-11']) expect(cellOf(day)).toContain('Market');
    expect(cellOf('2027-03-12')).not.toContain('Market');
    expect(res.html).toContain('<a rel="prev" href="/events/month/2027-02/">');
    expect(res.html).toContain('<a rel="next" href="/events/month/2027-04/">');
    expect(res.html).toContain('<th scope="col" abbr="Monday">Mon</th>');
    expectHtml(await h.page('/events/month/2027-13/'), 404);
    expectHtml(await h.page('/events/2027-02-30/'), 404);
  });

  it('shows a day with the events that cover it', async () => {
    await h.event({ ...CONCERT, title: 'Festival', start_date: '2027-03-30 10:00', end_date: '2027-04-02 18:00' });
    await h.event(CONCERT);
    const day = await h.page('/events/2027-04-01/');
    expectHtml(day, 200);
    expect(day.html).toContain('Festival');
    expect(day.html).not.toContain('Jazz Night');
    expect(day.html).toContain('<a rel="next" href="/events/2027-04-02/">');
  });

  it('serves category and tag archives with the list and month views, 404 for an unknown term', async () => {
    await h.event(CONCERT);
    await h.event({ ...CONCERT, title: 'Talk', categories: ['Talks'], tags: ['words'] });
    for (const url of ['/events/category/music/', '/events/tag/jazz/', '/tag/jazz/', '/events/category/music/month/2027-03/', '/events/tag/jazz/month/2027-03/']) {
      const res = await h.page(url);
      expectHtml(res, 200);
      expect(res.html, url).toContain('Jazz Night');
      expect(res.html, url).not.toContain('>Talk<');
    }
    expect((await h.page('/events/category/music/')).html).toContain('<h1>Events in Music</h1>');
    expectHtml(await h.page('/events/category/nope/'), 404);
    expectHtml(await h.page('/tag/nope/'), 404);
  });

  it('answers unknown pages with an HTML 404 and leaves the API its JSON errors', async () => {
    expectHtml(await h.page('/events/nope/deeper/'), 404);
    expectHtml(await h.page('/venue/'), 404);
    const api = await h.page(`${API}/nope`);
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'rest_no_route' });
  });

  it('serves its stylesheet and links it from every page', async () => {
    const page = await h.page('/events/');
    expect(page.html).toContain('<link rel="stylesheet" href="/assets/cal-events.css"/>');
    const css = await h.page('/assets/cal-events.css');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await h.page('/assets/cal-events.css', { headers: { 'if-none-match': String(css.headers.etag) } })).statusCode).toBe(304);
  });
});

describeEachDialect('long slugs and long URLs', (t) => {
  const h = siteHelpers(t);

  it('serves a 200-character slug on pages and in the API, and answers a longer URL than the router takes in the contract\'s shapes', async () => {
    const title = `Long ${'x'.repeat(195)}`;
    const created = await h.event({ ...CONCERT, title });
    expect(created.slug.length).toBeGreaterThan(150); // past the router's default limit of 100
    expectHtml(await h.page(`/event/${created.slug}/`), 200);
    expect((await h.api('GET', `/events/by-slug/${created.slug}`)).statusCode).toBe(200);
    const page = await h.page(`/event/${'a'.repeat(2500)}/`);
    expectHtml(page, 414);
    const api = await t().app.inject({ url: `${API}/events/by-slug/${'a'.repeat(2500)}` });
    expect(api.statusCode).toBe(414);
    expect(api.json()).toEqual({ code: 'rest_uri_too_long', message: 'The request URL is too long.', data: { status: 414 } });
    // A page past the slug schema's limit but within the router's is a page's 400 naming it.
    const tooLong = await h.page(`/event/${'a'.repeat(300)}/`);
    expectHtml(tooLong, 400);
    expect(tooLong.html).toContain('<code>slug</code>');
  });
});

describeEachDialect('GET /events/month/: CAL_TIMEZONE_MODE=site places events on the site\'s days', (t) => {
  const h = siteHelpers(t);

  it('shows an event on the day it is in the site\'s zone, not on its own wall-clock day', async () => {
    // 10:00-11:00 in New York on 5 March is 00:00-01:00 on 6 March in Tokyo, the site's zone.
    await h.event({ ...CONCERT, title: 'Early call', start_date: '2027-03-05 10:00:00', end_date: '2027-03-05 11:00:00', timezone: 'America/New_York', venue: 0 });
    const res = await h.page('/events/month/2027-03/');
    expectHtml(res, 200);
    const cells = res.html.split('<td ').slice(1);
    const cellOf = (day: string) => cells.find((c) => c.includes(`href="/events/${day}/" aria-label`)) ?? '';
    expect(cellOf('2027-03-06')).toContain('Early call');
    expect(cellOf('2027-03-05')).not.toContain('Early call');
  });
}, { CAL_TIMEZONE: 'Asia/Tokyo', CAL_TIMEZONE_MODE: 'site' });
