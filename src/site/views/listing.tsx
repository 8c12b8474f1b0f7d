import type { ComponentChildren } from 'preact';
import { webcalLink } from '../calendar-links.ts';
import type { EventView } from '../site-records.ts';
import { EventList } from './event-summary.tsx';
import { Layout } from './layout.tsx';
import type { PageContext } from './page-context.ts';

export type ViewName = 'list' | 'month' | 'day';

/** Where a listing lives and what it keeps in its links: an archive's base path and its filters. */
export interface Listing {
  heading: string;
  /** '/events', '/events/category/music', '/tag/jazz', ... (no language segment, no trailing slash). */
  base: string;
  /** The filters of this page (search, categories, ...) as a query string without '?', kept in every link. */
  keep: string;
  /** The absolute URL of this page's iCalendar feed. */
  feedUrl: string;
  /** The search term shown in the search box. */
  search?: string;
}

export const withQuery = (path: string, query: string) => (query ? `${path}?${query}` : path);

function ViewSwitch({ ctx, listing, current }: { ctx: PageContext; listing: Listing; current: ViewName }) {
  const views: Array<[ViewName, string, string]> = [
    ['list', `${listing.base}/list/`, ctx.words.list],
    ['month', `${listing.base}/month/`, ctx.words.month],
    ['day', `${listing.base}/today/`, ctx.words.day],
  ];
  return (
    <nav aria-label={ctx.words.viewsLabel} class="views">
      <ul>
        {views.map(([name, path, label]) => (
          <li><a href={ctx.href(withQuery(path, listing.keep))} aria-current={name === current ? 'page' : undefined}>{label}</a></li>
        ))}
      </ul>
    </nav>
  );
}

function SearchForm({ ctx, listing, view }: { ctx: PageContext; listing: Listing; view: ViewName }) {
  const hidden = [...new URLSearchParams(listing.keep)].filter(([name]) => name !== 'search');
  const action = view === 'month' ? `${listing.base}/month/` : `${listing.base}/list/`;
  return (
    <form class="search" role="search" method="get" action={ctx.href(action)}>
      <label for="search">{ctx.words.searchEvents}</label>
      <input id="search" type="search" name="search" value={listing.search ?? ''} />
      {hidden.map(([name, value]) => <input type="hidden" name={name} value={value} />)}
      <button type="submit">{ctx.words.search}</button>
    </form>
  );
}

/** Subscribe (webcal://, calendar apps offer to subscribe) or download this selection as iCalendar. */
export function FeedLinks({ ctx, feedUrl }: { ctx: PageContext; feedUrl: string }) {
  return (
    <p class="feeds">
      <a href={webcalLink(feedUrl)}>{ctx.words.subscribeCalendar}</a>
      <a href={feedUrl} type="text/calendar">{ctx.words.downloadFeed}</a>
    </p>
  );
}

/** The page around every listing view: heading, view switch, search, then the view, then the feeds. */
export function ListingPage(props: {
  ctx: PageContext;
  listing: Listing;
  view: ViewName;
  title: string;
  nav?: ComponentChildren;
  children: ComponentChildren;
}) {
  const { ctx, listing } = props;
  return (
    <Layout ctx={ctx} title={props.title} head={<link rel="alternate" type="text/calendar" title={ctx.words.subscribeCalendar} href={listing.feedUrl} />}>
      <h1>{props.title}</h1>
      <div class="toolbar">
        <ViewSwitch ctx={ctx} listing={listing} current={props.view} />
        <SearchForm ctx={ctx} listing={listing} view={props.view} />
      </div>
      {props.nav}
      {props.children}
      <FeedLinks ctx={ctx} feedUrl={listing.feedUrl} />
    </Layout>
  );
}

export interface PageLinks {
  page: number;
  totalPages: number;
  previous?: string;
  next?: string;
}

export function Pagination({ ctx, links }: { ctx: PageContext; links: PageLinks }) {
  if (links.totalPages <= 1) return null;
  return (
    <nav class="pagination" aria-label={ctx.words.page(links.page, links.totalPages)}>
      {links.previous && <a rel="prev" href={links.previous}>{ctx.words.previousPage}</a>}
      <span>{ctx.words.page(links.page, links.totalPages)}</span>
      {links.next && <a rel="next" href={links.next}>{ctx.words.nextPage}</a>}
    </nav>
  );
}

/** The list view and the day view: events in order, a page at a time. */
export function EventsPage(props: {
  ctx: PageContext;
  listing: Listing;
  view: 'list' | 'day';
  title: string;
  events: EventView[];
  links: PageLinks;
  nav?: ComponentChildren;
}) {
  return (
    <ListingPage ctx={props.ctx} listing={props.listing} view={props.view} title={props.title} nav={props.nav}>
      <EventList ctx={props.ctx} events={props.events} />
      <Pagination ctx={props.ctx} links={props.links} />
    </ListingPage>
  );
}

/** Previous / today / next links of the month and day views. */
export function StepNav(props: { ctx: PageContext; label: string; previous: [string, string]; today: string; next: [string, string] }) {
  const { ctx } = props;
  return (
    <nav class="step" aria-label={props.label}>
      <a rel="prev" href={props.previous[0]}>{props.previous[1]}</a>
      <a href={props.today}>{ctx.words.today}</a>
      <a rel="next" href={props.next[0]}>{props.next[1]}</a>
    </nav>
  );
}
