import { googleCalendarLink, mapLink, outlookLink } from '../calendar-links.ts';
import { formatEventTimes } from '../format.ts';
import type { EventView, VenueRecord } from '../site-records.ts';
import { Layout } from './layout.tsx';
import type { PageContext } from './page-context.ts';

/** JSON inside <script>: `<` escaped so no text in it can close the element. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export const addressOf = (venue: VenueRecord) =>
  [venue.address, venue.city, venue.stateprovince, venue.zip, venue.country].map((part) => part.trim()).filter(Boolean).join(', ');

/** canonical, the API record, the feed, OpenGraph and schema.org data: what crawlers and link previews read. */
function RecordHead(props: { ctx: PageContext; title: string; description: string; url: string; restUrl: string; feedUrl: string; image?: string; jsonLd?: unknown }) {
  return (
    <>
      <meta name="description" content={props.description} />
      <link rel="canonical" href={props.url} />
      <link rel="alternate" type="application/json" title={props.ctx.words.apiRecord} href={props.restUrl} />
      <link rel="alternate" type="text/calendar" href={props.feedUrl} />
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={props.ctx.siteName} />
      <meta property="og:title" content={props.title} />
      <meta property="og:description" content={props.description} />
      <meta property="og:url" content={props.url} />
      <meta property="og:locale" content={props.ctx.language} />
      {props.image && <meta property="og:image" content={props.image} />}
      {props.jsonLd !== undefined && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: scriptJson(props.jsonLd) }} />}
    </>
  );
}
export { RecordHead };

export function VenueDetails({ ctx, venue, linkName }: { ctx: PageContext; venue: VenueRecord; linkName: boolean }) {
  const address = addressOf(venue);
  return (
    <>
      <p class="venue-name">
        {linkName ? <a href={ctx.href(`/venue/${encodeURIComponent(venue.slug)}/`)}>{venue.venue}</a> : venue.venue}
      </p>
      {address && <address>{address}</address>}
      {address && venue.show_map_link && <p><a href={mapLink(address)} rel="external noopener">{ctx.words.showMap}</a></p>}
      {venue.phone && <p>{ctx.words.phone}: <a href={`tel:${venue.phone.replace(/[^\d+]/g, '')}`}>{venue.phone}</a></p>}
      {venue.website && <p><a href={venue.website} rel="external noopener">{ctx.words.website}</a></p>}
    </>
  );
}

export function EventPage({ ctx, event, feedUrl }: { ctx: PageContext; event: EventView; feedUrl: string }) {
  const w = ctx.words;
  const venue = Array.isArray(event.venue) ? undefined : event.venue;
  const location = venue ? [venue.venue, addressOf(venue)].filter(Boolean).join(', ') : '';
  const details = `${event.summary}\n\n${event.url}`.trim();
  const image = event.image === false ? undefined : event.image.url;
  const head = (
    <RecordHead ctx={ctx} title={event.title} description={event.summary} url={event.url} restUrl={event.rest_url} feedUrl={feedUrl} image={image} jsonLd={event.json_ld} />
  );
  return (
    <Layout ctx={ctx} title={event.title} head={head}>
      <article class="event">
        <h1>{event.title}</h1>
        <p class="when"><time dateTime={`${event.utc_start_date.replace(' ', 'T')}Z`}>{formatEventTimes(ctx.language, event)}</time></p>
        {event.featured && <p class="badge">{w.featured}</p>}
        {image && <img class="event-image" src={image} alt="" />}
        <div class="description" dangerouslySetInnerHTML={{ __html: event.description }} />
        <dl class="details">
          <dt>{w.when}</dt>
          <dd>{formatEventTimes(ctx.language, event)}</dd>
          {event.cost && <><dt>{w.cost}</dt><dd>{event.cost}</dd></>}
          {event.categories.length > 0 && (
            <><dt>{w.categories}</dt><dd>{event.categories.map((term, i) => <>{i > 0 && ', '}<a href={ctx.href(`/events/category/${encodeURIComponent(term.slug)}/`)}>{term.name}</a></>)}</dd></>
          )}
          {event.tags.length > 0 && (
            <><dt>{w.tags}</dt><dd>{event.tags.map((term, i) => <>{i > 0 && ', '}<a href={ctx.href(`/events/tag/${encodeURIComponent(term.slug)}/`)} rel="tag">{term.name}</a></>)}</dd></>
          )}
          {event.series && (
            <><dt>{w.series}</dt><dd><a href={ctx.href(`/events/?post_parent=${event.series.id}`)}>{w.seriesDates}</a></dd></>
          )}
          {event.website && event.website !== event.url && <><dt>{w.website}</dt><dd><a href={event.website} rel="external noopener">{event.website}</a></dd></>}
        </dl>
        {venue && (
          <section class="venue" aria-labelledby="venue-heading">
            <h2 id="venue-heading">{w.venue}</h2>
            <VenueDetails ctx={ctx} venue={venue} linkName />
          </section>
        )}
        {event.organizer.length > 0 && (
          <section class="organizers" aria-labelledby="organizers-heading">
            <h2 id="organizers-heading">{event.organizer.length > 1 ? w.organizers : w.organizer}</h2>
            <ul>
              {event.organizer.map((organizer) => (
                <li>
                  <a href={ctx.href(`/organizer/${encodeURIComponent(organizer.slug)}/`)}>{organizer.organizer}</a>
                  {organizer.email && <> · <a href={`mailto:${organizer.email}`}>{organizer.email}</a></>}
                  {organizer.phone && <> · {organizer.phone}</>}
                </li>
              ))}
            </ul>
          </section>
        )}
        <section class="add-to-calendar" aria-labelledby="add-heading">
          <h2 id="add-heading">{w.addToCalendar}</h2>
          <ul>
            <li><a href={feedUrl} type="text/calendar" download>{w.downloadIcs}</a></li>
            <li><a href={googleCalendarLink(event, location, details)} rel="external noopener">{w.googleCalendar}</a></li>
            <li><a href={outlookLink(event, location, details)} rel="external noopener">{w.outlook}</a></li>
          </ul>
        </section>
      </article>
    </Layout>
  );
}

export function PasswordPage({ ctx, action, wrong }: { ctx: PageContext; action: string; wrong: boolean }) {
  const w = ctx.words;
  return (
    <Layout ctx={ctx} title={w.protectedTitle} head={<meta name="robots" content="noindex" />}>
      <h1>{w.protectedTitle}</h1>
      {wrong && <p class="alert" role="alert">{w.wrongPassword}</p>}
      <p>{w.protectedHelp}</p>
      <form class="password" method="post" action={action}>
        <label for="post_password">{w.password}</label>
        <input id="post_password" name="post_password" type="password" autocomplete="off" required />
        <button type="submit">{w.unlock}</button>
      </form>
    </Layout>
  );
}
