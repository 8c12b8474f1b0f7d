import type { Config } from '../config.ts';
import type { EventRow } from './event.repository.ts';
import { presentCost } from './cost.ts';
import { isoWithOffset } from './event-dates.ts';
import { plainText } from '../posts/html.ts';

/**
 * schema.org Event data for single reads, with ISO 8601 dates carrying the event's offset; `venue` and
 * `organizers` are the venue's and organizers' own JSON-LD (or what stands in for it, see event-text.ts).
 */
export function eventJsonLd(
  row: EventRow,
  related: { url: string; venue?: unknown; organizers: unknown[]; config: Config },
) {
  const cost = presentCost(JSON.parse(row.cost) as string[], related.config.currency).cost_details;
  const { organizers } = related;
  return {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: row.title,
    description: plainText(row.excerpt || row.description),
    url: related.url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: isoWithOffset(row.start_local, row.start_utc),
    endDate: isoWithOffset(row.end_local, row.end_utc),
    ...(related.venue ? { location: related.venue } : {}),
    ...(organizers.length === 1 ? { organizer: organizers[0] } : organizers.length > 1 ? { organizer: organizers } : {}),
    ...(cost.values.length > 0
      ? { offers: { '@type': 'Offer', price: cost.values[0], priceCurrency: cost.currency_code, url: related.url, category: 'primary', availability: 'inStock', validFrom: validFrom(row) } }
      : {}),
    performer: 'Organization',
  };
}

/**
 * The reference formats the post's date as the site shows it (day only, in site time) and reads it back with
 * PHP's date(), which WordPress runs in UTC: midnight of the post's local day, always "+00:00".
 */
const validFrom = (row: EventRow) => `${row.date_local.slice(0, 10)}T00:00:00+00:00`;
