/**
 * Links out of an event page: "add to calendar" for Google Calendar and Outlook (their documented
 * template URLs), a map search for the venue (a plain link: no map tiles are fetched or embedded), and
 * webcal:// subscriptions to a feed.
 */
export interface LinkableEvent {
  title: string;
  description: string;
  url: string;
  all_day: boolean | null;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
}

const compact = (text: string) => text.replace(/[-:]/g, '').replace(' ', 'T');
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export function googleCalendarLink(event: LinkableEvent, location: string, details: string): string {
  const dates = event.all_day
    ? `${compact(event.start_date.slice(0, 10))}/${compact(nextDay(event.end_date.slice(0, 10)))}`
    : `${compact(event.utc_start_date)}Z/${compact(event.utc_end_date)}Z`; // 20270305T180000Z
  const params = new URLSearchParams({ action: 'TEMPLATE', text: event.title, dates, details, location });
  if (!event.all_day && /\//.test(event.timezone)) params.set('ctz', event.timezone);
  return `https://calendar.google.com/calendar/render?${params}`;
}

export function outlookLink(event: LinkableEvent, location: string, details: string): string {
  const iso = (utc: string) => `${utc.replace(' ', 'T')}Z`;
  const params = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: event.title,
    startdt: event.all_day ? event.start_date.slice(0, 10) : iso(event.utc_start_date),
    enddt: event.all_day ? nextDay(event.end_date.slice(0, 10)) : iso(event.utc_end_date),
    allday: event.all_day ? 'true' : 'false',
    body: details,
    location,
  });
  return `https://outlook.live.com/calendar/0/deeplink/compose?${params}`;
}

export const mapLink = (address: string) => `https://www.openstreetmap.org/search?${new URLSearchParams({ query: address })}`;

/** The same feed for calendar apps: webcal:// is what makes them offer to subscribe. */
export const webcalLink = (httpUrl: string) => httpUrl.replace(/^https?:\/\//, 'webcal://');
