import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import type { EventListQuery } from '../events/event-list.ts';
import { clientGone, sendCalendar } from '../feeds/feed.http.ts';
import { formatDay } from './format.ts';
import { addDays, addMonths, type Brief, gridRange, monthGrid } from './month-grid.ts';
import { toEventView } from './site-records.ts';
import { pageContext, renderDocument, sendHtml } from './site-render.tsx';
import type { SiteServices } from './site-services.ts';
import { EventsPage, type Listing, type PageLinks, StepNav, withQuery } from './views/listing.tsx';
import { MonthPage } from './views/month.tsx';
import type { PageContext } from './views/page-context.ts';
import { readStamp, todayIn, writeStamp } from '../time/clock.ts';

/** The query of every listing page: the REST list's filters, a page number, and `ical` for the feed. */
export type ListingQuery = Pick<EventListQuery, 'categories' | 'tags' | 'venue' | 'organizer' | 'featured' | 'search' | 'start_date' | 'end_date' |
  'geoloc' | 'geoloc_lat' | 'geoloc_lng' | 'geoloc_radius' | 'geoloc_bbox' | 'post_parent' | 'hide_subsequent_recurrences'> & {
  page?: number;
  ical?: boolean;
};

/** All events, a category's or a tag's: where its pages live, its heading, and the filter it adds. */
export interface Archive {
  base: string;
  heading: string;
  fixed: Partial<EventListQuery>;
}

const PER_PAGE = 12;
// A month of a very busy calendar; past this a day shows "N more" from what was loaded.
const MONTH_LIMIT = 5000;

const pathOf = (request: FastifyRequest) => request.url.split('?')[0];
/** This page's own query minus paging and the feed switch: what every link of the page keeps. */
function keptQuery(request: FastifyRequest): string {
  const params = new URLSearchParams(request.url.split('?')[1] ?? '');
  params.delete('page');
  params.delete('ical');
  return params.toString();
}

/** A window given as wall-clock bounds in the site zone: events overlapping [from, to). */
const overlapping = (from: string, to: string): Partial<EventListQuery> => ({
  strict_dates: true, ends_after: `${from} 00:00:00`, starts_before: `${to} 00:00:00`,
});

export function listingPages(services: SiteServices) {
  const { events, feeds, urls, config } = services;
  const today = () => todayIn(config.timezone);

  function listing(request: FastifyRequest, archive: Archive, query: ListingQuery): Listing {
    const keep = keptQuery(request);
    return {
      heading: archive.heading,
      base: archive.base,
      keep,
      feedUrl: `${urls.origin}${withQuery(pathOf(request), keep ? `${keep}&ical=1` : 'ical=1')}`,
      search: query.search,
    };
  }

  function pageLinks(ctx: PageContext, request: FastifyRequest, page: number, totalPages: number): PageLinks {
    const link = (n: number) => {
      const params = new URLSearchParams(keptQuery(request));
      if (n > 1) params.set('page', String(n));
      return ctx.href(withQuery(pathOf(request), params.toString()));
    };
    return { page, totalPages, previous: page > 1 ? link(page - 1) : undefined, next: page < totalPages ? link(page + 1) : undefined };
  }

  async function feed(request: FastifyRequest, reply: FastifyReply, query: EventListQuery, title: string) {
    return sendCalendar(request, reply, await feeds.calendar({ query, caller: request.caller, title, gone: clientGone(reply) }));
  }

  /** Events of a window a page at a time: the list view (the default window) and a day. */
  async function eventsPage(request: FastifyRequest, reply: FastifyReply, args: {
    archive: Archive; query: ListingQuery; filters: EventListQuery; view: 'list' | 'day'; title: string; nav?: (ctx: PageContext) => VNode;
  }) {
    const ctx = pageContext(request, config);
    const pageNumber = args.query.page ?? 1;
    const page = await events.list({ ...args.filters, page: pageNumber, per_page: PER_PAGE }, request.caller);
    const node = (
      <EventsPage ctx={ctx} listing={listing(request, args.archive, args.query)} view={args.view} title={args.title}
        events={page.items.map(toEventView)} links={pageLinks(ctx, request, pageNumber, page.totalPages)} nav={args.nav?.(ctx)} />
    );
    return sendHtml(reply, renderDocument(node));
  }

  const filtersOf = ({ page, ical, ...filters }: ListingQuery, archive: Archive): EventListQuery => ({ ...filters, ...archive.fixed });
  const withoutDates = ({ start_date, end_date, ...filters }: EventListQuery) => filters;

  return {
    async list(request: FastifyRequest, reply: FastifyReply, archive: Archive, query: ListingQuery) {
      const filters = filtersOf(query, archive);
      if (query.ical) return feed(request, reply, filters, archive.heading);
      return eventsPage(request, reply, { archive, query, filters, view: 'list', title: archive.heading });
    },

    async day(request: FastifyRequest, reply: FastifyReply, archive: Archive, query: ListingQuery, day = today()) {
      const filters = { ...withoutDates(filtersOf(query, archive)), ...overlapping(day, addDays(day, 1)) };
      const title = (ctx: PageContext) => `${archive.heading}: ${formatDay(ctx.language, day)}`;
      if (query.ical) return feed(request, reply, filters, `${archive.heading} ${day}`);
      const keep = keptQuery(request);
      const dayLink = (ctx: PageContext, other: string) => ctx.href(withQuery(`${archive.base}/${other}/`, keep));
      const nav = (ctx: PageContext) => (
        <StepNav ctx={ctx} label={ctx.words.day} previous={[dayLink(ctx, addDays(day, -1)), ctx.words.previousDay]}
          today={ctx.href(withQuery(`${archive.base}/today/`, keep))} next={[dayLink(ctx, addDays(day, 1)), ctx.words.nextDay]} />
      );
      return eventsPage(request, reply, { archive, query, filters, view: 'day', title: title(pageContext(request, config)), nav });
    },

    async month(request: FastifyRequest, reply: FastifyReply, archive: Archive, query: ListingQuery, month = today().slice(0, 7)) {
      const base = withoutDates(filtersOf(query, archive));
      if (query.ical) return feed(request, reply, { ...base, ...overlapping(`${month}-01`, `${addMonths(month, 1)}-01`) }, `${archive.heading} ${month}`);
      const { first, last } = gridRange(month);
      const rows = await events.span({ ...base, ...overlapping(first, addDays(last, 1)) }, request.caller, MONTH_LIMIT);
      // In 'site' mode days are the site's; in 'event' mode (the default) each event's own wall clock.
      const local = (utc: string, wall: string) =>
        config.timezoneMode === 'site' ? writeStamp(readStamp(utc, 'UTC').setZone(config.timezone)) : wall;
      const briefs: Brief[] = rows.map((row) => ({
        slug: row.slug, title: row.title, start: local(row.start_utc, row.start_local), end: local(row.end_utc, row.end_local),
        allDay: row.all_day === 1, featured: row.featured === 1,
      }));
      const ctx = pageContext(request, config);
      const node = (
        <MonthPage ctx={ctx} listing={listing(request, archive, query)} month={month} previous={addMonths(month, -1)} next={addMonths(month, 1)}
          weeks={monthGrid(month, briefs, today())} />
      );
      return sendHtml(reply, renderDocument(node));
    },

  };
}

export type ListingPages = ReturnType<typeof listingPages>;
