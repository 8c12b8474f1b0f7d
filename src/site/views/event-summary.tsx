import { formatEventTimes, formatMonth } from '../format.ts';
import type { EventView } from '../site-records.ts';
import type { PageContext } from './page-context.ts';

/** One event in a list: title, when, where, and a short text. */
export function EventSummary({ ctx, event }: { ctx: PageContext; event: EventView }) {
  const venue = Array.isArray(event.venue) ? undefined : event.venue;
  return (
    <article class={event.featured ? 'event-summary featured' : 'event-summary'}>
      <h3><a href={ctx.href(`/event/${encodeURIComponent(event.slug)}/`)}>{event.title}</a></h3>
      <p class="when"><time dateTime={event.utc_start_date.replace(' ', 'T') + 'Z'}>{formatEventTimes(ctx.language, event)}</time></p>
      {venue && (
        <p class="where">
          <a href={ctx.href(`/venue/${encodeURIComponent(venue.slug)}/`)}>{venue.venue}</a>
          {venue.city ? `, ${venue.city}` : ''}
        </p>
      )}
      {event.featured && <p class="badge">{ctx.words.featured}</p>}
      {event.cost && <p class="cost">{event.cost}</p>}
      {event.summary && <p class="excerpt">{event.summary}</p>}
    </article>
  );
}

/** Events grouped under month headings, as the reference's list view shows them. */
export function EventList({ ctx, events }: { ctx: PageContext; events: EventView[] }) {
  if (events.length === 0) return <p class="empty">{ctx.words.noEvents}</p>;
  const groups: Array<{ month: string; events: EventView[] }> = [];
  for (const event of events) {
    const month = event.start_date.slice(0, 7);
    if (groups.at(-1)?.month !== month) groups.push({ month, events: [] });
    groups.at(-1)?.events.push(event);
  }
  return (
    <div class="event-list">
      {groups.map((group) => (
        <section aria-label={formatMonth(ctx.language, group.month)}>
          <h2 class="month-heading">{formatMonth(ctx.language, group.month)}</h2>
          <ul class="events">
            {group.events.map((event) => <li><EventSummary ctx={ctx} event={event} /></li>)}
          </ul>
        </section>
      ))}
    </div>
  );
}
