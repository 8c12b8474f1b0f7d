import type { ComponentChildren } from 'preact';
import type { EventView, OrganizerRecord, VenueRecord } from '../site-records.ts';
import { RecordHead, VenueDetails } from './event.tsx';
import { EventList } from './event-summary.tsx';
import { Layout } from './layout.tsx';
import { FeedLinks, type PageLinks, Pagination } from './listing.tsx';
import type { PageContext } from './page-context.ts';
import { plainText } from '../../posts/html.ts';

interface Upcoming {
  events: EventView[];
  links: PageLinks;
  feedUrl: string;
}

/** A venue or an organizer: its details, then its upcoming events a page at a time. */
function PlacePage(props: {
  ctx: PageContext;
  record: VenueRecord | OrganizerRecord;
  name: string;
  restUrl: string;
  eventsHeading: string;
  upcoming: Upcoming;
  children: ComponentChildren;
}) {
  const { ctx, record, upcoming } = props;
  const description = plainText(record.excerpt || record.description);
  const head = (
    <RecordHead ctx={ctx} title={props.name} description={description} url={record.url} restUrl={props.restUrl} feedUrl={upcoming.feedUrl}
      image={record.image === false ? undefined : record.image.url} jsonLd={record.json_ld} />
  );
  return (
    <Layout ctx={ctx} title={props.name} head={head}>
      <h1>{props.name}</h1>
      <div class="record-details">{props.children}</div>
      {record.description && <div class="description" dangerouslySetInnerHTML={{ __html: record.description }} />}
      <section aria-labelledby="upcoming-heading">
        <h2 id="upcoming-heading">{props.eventsHeading}</h2>
        <EventList ctx={ctx} events={upcoming.events} />
        <Pagination ctx={ctx} links={upcoming.links} />
        <FeedLinks ctx={ctx} feedUrl={upcoming.feedUrl} />
      </section>
    </Layout>
  );
}

export function VenuePage({ ctx, venue, restUrl, upcoming }: { ctx: PageContext; venue: VenueRecord; restUrl: string; upcoming: Upcoming }) {
  return (
    <PlacePage ctx={ctx} record={venue} name={venue.venue} restUrl={restUrl} eventsHeading={ctx.words.eventsAt(venue.venue)} upcoming={upcoming}>
      <VenueDetails ctx={ctx} venue={venue} linkName={false} />
    </PlacePage>
  );
}

export function OrganizerPage(props: { ctx: PageContext; organizer: OrganizerRecord; restUrl: string; upcoming: Upcoming }) {
  const { ctx, organizer, upcoming } = props;
  const w = ctx.words;
  return (
    <PlacePage ctx={ctx} record={organizer} name={organizer.organizer} restUrl={props.restUrl} eventsHeading={w.eventsBy(organizer.organizer)} upcoming={upcoming}>
      {organizer.phone && <p>{w.phone}: {organizer.phone}</p>}
      {organizer.email && <p>{w.email}: <a href={`mailto:${organizer.email}`}>{organizer.email}</a></p>}
      {organizer.website && <p><a href={organizer.website} rel="external noopener">{w.website}</a></p>}
    </PlacePage>
  );
}
