import type { Config } from '../config.ts';
import type { EventRow } from './event.repository.ts';
import { presentCost } from './cost.ts';
import { isoWithOffset } from './event-dates.ts';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * schema.org descriptions are plain text: tags go, and the entities the sanitizer writes (`&amp;`, `&lt;`,
 * numeric ones) become their characters again, or consumers would show `Rock &amp; Roll`.
 */
const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .trim();

/** schema.org Event data for single reads, with ISO 8601 dates carrying the event's offset. */
export function eventJsonLd(
  row: EventRow,
  related: { url: string; venue?: Record<string, unknown>; organizers: Record<string, unknown>[]; config: Config },
) {
  const cost = presentCost(JSON.parse(row.cost) as string[], related.config.currency).cost_details;
  const organizers = related.organizers.map((o) => o.json_ld).filter(Boolean);
  return {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: row.title,
    description: plain(row.excerpt || row.description),
    url: related.url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: isoWithOffset(row.start_local, row.start_utc),
    endDate: isoWithOffset(row.end_local, row.end_utc),
    ...(related.venue?.json_ld ? { location: related.venue.json_ld } : {}),
    ...(organizers.length === 1 ? { organizer: organizers[0] } : organizers.length > 1 ? { organizer: organizers } : {}),
    ...(cost.values.length > 0
      ? { offers: { '@type': 'Offer', price: cost.values[0], priceCurrency: cost.currency_code, url: related.url, category: 'primary', availability: 'inStock' } }
      : {}),
    performer: 'Organization',
  };
}
