import { expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/test-app.ts';
import { parseFeed, unixOf } from '../helpers/ical.ts';
import { expectHtml, siteHelpers } from './site-helpers.ts';

const base = { start_date: '2027-03-05 19:00:00', end_date: '2027-03-05 22:00:00', timezone: 'Europe/Berlin' };

describeEachDialect('?ical=1 on the site pages', (t) => {
  const h = siteHelpers(t);

  async function feed(url: string) {
    const res = await t().app.inject({ url });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    return parseFeed(res.body);
  }

  it('gives each page\'s selection as iCalendar: a list with filters, an archive, a month, a day, a venue, one event', async () => {
    const jazz = await h.event({ ...base, title: 'Jazz Night', categories: ['Music'], tags: ['jazz'], venue: { venue: 'Blue Room' } });
    const talk = await h.event({ ...base, title: 'Talk', start_date: '2027-04-02 10:00', end_date: '2027-04-02 11:00', categories: ['Talks'] });
    await h.event({ ...base, title: 'Draft', status: 'draft' });
    const titles = async (url: string) => (await feed(url)).events.map((event) => event.summary).sort();

    expect(await titles('/events/?ical=1')).toEqual(['Jazz Night', 'Talk']);
    expect(await titles('/events/?ical=1&categories=music')).toEqual(['Jazz Night']);
    expect(await titles('/events/category/talks/?ical=1')).toEqual(['Talk']);
    expect(await titles('/tag/jazz/?ical=1')).toEqual(['Jazz Night']);
    expect(await titles('/events/month/2027-04/?ical=1')).toEqual(['Talk']);
    expect(await titles('/events/2027-03-05/?ical=1')).toEqual(['Jazz Night']);
    expect(await titles('/venue/blue-room/?ical=1')).toEqual(['Jazz Night']);
    const one = await feed('/event/talk/?ical=1');
    expect(one.events).toHaveLength(1);
    expect(one.events[0].startDate.toUnixTime()).toBe(unixOf(talk.utc_start_date));
    expect(one.events[0].endDate.toUnixTime()).toBe(unixOf(talk.utc_end_date));
    const page = await h.page('/events/category/music/');
    expect(page.html).toContain('href="webcal://cal.test/events/category/music/?ical=1"');
    expect((await h.page(`/event/${jazz.slug}/`)).html).toContain(`href="http://cal.test/event/${jazz.slug}/?ical=1"`);
  });

  it('keeps page errors as HTML: unknown event, hidden event, bad filter', async () => {
    await h.event({ ...base, title: 'Hidden', status: 'draft' });
    expectHtml(await h.page('/event/nope/?ical=1'), 404);
    expectHtml(await h.page('/event/hidden/?ical=1'), 404);
    const bad = await h.page('/events/?ical=1&categories=nope');
    expectHtml(bad, 400);
    expect(bad.html).toContain('<code>categories</code>');
  });
});
