import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import type { Repositories } from '../store.ts';
import { readStamp, writeStamp } from '../time/clock.ts';
import type { createImporter, ImportOptions, Failure, Tally } from './importer.ts';
import { usableKey } from './mapping.ts';
import { createFetcher, ImportError, type SourceOptions } from './source.ts';

type Importer = ReturnType<typeof createImporter>;

/** VEVENTs written a transaction at a time (see the importer's writeBatch). */
const BATCH = 100;

const pad = (n: number) => String(n).padStart(2, '0');
const wall = (t: ICAL.Time) => `${t.year}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;

/**
 * A calendar file's text, or a feed's: read as the site's pages are (source.ts), retried on a 5xx, a 429, a
 * timeout or a calendar cut short (its BEGIN:VCALENDAR without the END:VCALENDAR that closes it).
 */
async function readCalendar(where: string, options: SourceOptions = {}): Promise<string> {
  try {
    if (!/^https?:\/\//.test(where)) return await readFile(where, 'utf8');
    return (await createFetcher({ ...options, accept: 'text/calendar' })(where, whole)).value;
  } catch (error) {
    throw new ImportError(`cannot read the calendar ${where}: ${(error as Error).message}`);
  }
}

// What is no calendar at all is left to the parser, which says so; only a calendar's missing end is asked again.
const whole = (text: string): string => {
  if (/^\uFEFF?\s*BEGIN:VCALENDAR/i.test(text) && !/END:VCALENDAR\s*$/i.test(text)) throw new Error('the calendar was cut short');
  return text;
};

/**
 * One VEVENT as the API's event input: wall times in the event's TZID, DATE values as all-day events;
 * LOCATION as the venue, ORGANIZER (its CN, else its address) as the organizer and CATEGORIES as categories,
 * each found by name or made, as an API create with names does.
 */
function eventInput(event: ICAL.Event) {
  const start = event.startDate;
  if (!start) throw new Error('it has no DTSTART');
  const end = event.endDate ?? start;
  const zone = start.zone?.tzid;
  const timezone = zone && zone !== 'floating' ? (zone === 'Z' ? 'UTC' : zone) : undefined;
  const allDay = start.isDate;
  // DTEND of a DATE is the day after the last (RFC 5545 §3.6.1); TEC's end date is the last day itself.
  const last = end.clone();
  if (allDay && end.compare(start) > 0) last.adjust(-1, 0, 0, 0);
  const url = event.component.getFirstPropertyValue('url');
  const location = event.location?.trim();
  // GEO is "lat;lng" (RFC 5545 §3.8.1.6): it places the LOCATION's venue.
  const geo = event.component.getFirstPropertyValue('geo') as unknown as [number, number] | null;
  const [lat, lng] = Array.isArray(geo) ? geo.map(Number) : [NaN, NaN];
  const at = Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { geo_lat: lat, geo_lng: lng } : {};
  const categories = event.component.getAllProperties('categories').flatMap((p) => p.getValues().map(String)).map((c) => c.trim()).filter(Boolean);
  return {
    title: event.summary ?? '',
    description: (event.description ?? '').replace(/\n/g, '<br>'),
    start_date: allDay ? `${wall(start).slice(0, 10)} 00:00:00` : wall(start),
    end_date: allDay ? `${wall(last).slice(0, 10)} 23:59:59` : wall(end),
    ...(timezone ? { timezone } : {}),
    all_day: allDay,
    ...(typeof url === 'string' ? { website: url } : {}),
    ...(location ? { venue: { venue: location, ...at } } : {}),
    ...(categories.length > 0 ? { categories } : {}),
    ...organizers(event.component),
    ...recurrenceOf(event),
    status: 'publish',
  };
}

/**
 * RRULE, RDATE and EXDATE as the API's `recurrence`, dates as wall-clock times in the event's own zone (a
 * date alone stays a date: the whole day). A VEVENT without RRULE has none, even with RDATEs.
 */
function recurrenceOf(event: ICAL.Event) {
  const rules = event.component.getAllProperties('rrule').map((property) => String(property.getFirstValue()));
  if (rules.length === 0) return {};
  const zone = event.startDate.zone;
  const dates = (name: string) => event.component.getAllProperties(name).flatMap((property) => property.getValues())
    .filter((value): value is ICAL.Time => value instanceof ICAL.Time)
    .map((time) => (time.isDate ? wall(time).slice(0, 10) : wall(zone && time.zone !== zone ? time.convertToZone(zone) : time)));
  const rdates = dates('rdate');
  const exdates = dates('exdate');
  return { recurrence: { rules, ...(rdates.length > 0 ? { rdates } : {}), ...(exdates.length > 0 ? { exdates } : {}) } };
}

/**
 * An exception (a VEVENT with RECURRENCE-ID) is written onto the occurrence its series' rules made here: the
 * series found by its UID's lineage, the occurrence by its original start in the series' zone. None there
 * (a date past the horizon, or rules that never gave it): a new event of its own.
 */
function exceptionTarget(event: ICAL.Event, property: ICAL.Property) {
  const value = property.getFirstValue() as ICAL.Time;
  // Its zone: UTC (`…Z`), its TZID (known to ical.js only with a VTIMEZONE, so read as written), or floating.
  const tzid = value.zone === ICAL.Timezone.utcTimezone ? 'UTC' : (property.getParameter('tzid') as string | undefined);
  return async (repos: Repositories) => {
    const seriesId = (await repos.lineage.findMany('event', [event.uid])).get(event.uid)?.local_id;
    const series = seriesId === undefined ? undefined : await repos.events.findById(seriesId);
    if (!series || series.recurrence === null) return undefined;
    const written = value.isDate ? `${wall(value).slice(0, 10)} ${series.start_local.slice(11)}` : wall(value);
    const moved = readStamp(written, tzid ?? series.timezone).setZone(series.timezone);
    return repos.events.occurrenceAt(series.id, moved.isValid ? writeStamp(moved) : written);
  };
}

/** ORGANIZER;CN=Name:mailto:who@example.org as `{organizer: 'Name', email: 'who@example.org'}`. */
function organizers(component: ICAL.Component) {
  const list = component.getAllProperties('organizer').map((property) => {
    const address = String(property.getFirstValue() ?? '').replace(/^mailto:/i, '').trim();
    const name = String(property.getParameter('cn') ?? '').trim() || address;
    return name === '' ? undefined : { organizer: name, ...(address.includes('@') ? { email: address } : {}) };
  }).filter((entry) => entry !== undefined);
  return list.length > 0 ? { organizer: list } : {};
}

/**
 * The modification mark of a VEVENT: LAST-MODIFIED when there is one, else a digest of the event without
 * DTSTAMP (which a feed sets to the time it was served, so it would make every re-run an update).
 */
function modifiedMark(component: ICAL.Component): string {
  const stamp = component.getFirstPropertyValue('last-modified');
  if (stamp instanceof ICAL.Time) return wall(stamp.convertToZone(ICAL.Timezone.utcTimezone));
  const copy = new ICAL.Component(component.toJSON());
  copy.removeAllProperties('dtstamp');
  return createHash('sha256').update(copy.toString()).digest('base64url');
}

// ical.js reads a property's value when first asked, and throws a plain Error on one it cannot read.
const unreadable = (error: unknown) => `the event cannot be read: ${(error as Error).message}`;
function readable<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new Error(unreadable(error));
  }
}

const uidOf = (component: ICAL.Component) => {
  try {
    return String(component.getFirstPropertyValue('uid') ?? 'no UID');
  } catch {
    return 'no UID';
  }
};

/** `import --ics`: a calendar file or URL, each VEVENT keyed by its UID (and RECURRENCE-ID, for one occurrence). */
export async function importIcs(where: string, importer: Importer, options: ImportOptions, source?: SourceOptions) {
  const text = await readCalendar(where, source);
  let calendar: ICAL.Component;
  try {
    const parsed = ICAL.parse(text);
    // Several components at the top (a stray END closed the calendar early): ical.js gives a list of them,
    // which is not one calendar, and would have been read as one with no events in it.
    if (!Array.isArray(parsed) || parsed[0] !== 'vcalendar') throw new Error('it is not one VCALENDAR (a BEGIN or END out of place?)');
    calendar = new ICAL.Component(parsed);
  } catch (error) {
    throw new ImportError(`${where} is not an iCalendar file: ${(error as Error).message}`);
  }
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  // Series before their exceptions, which are written onto the occurrences the series made.
  const vevents = calendar.getAllSubcomponents('vevent')
    .sort((a, b) => Number(a.hasProperty('recurrence-id')) - Number(b.hasProperty('recurrence-id')));
  const tally: Tally = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  const failures: Failure[] = [];
  for (let at = 0; at < vevents.length; at += BATCH) {
    const events: ICAL.Event[] = [];
    const batch = [];
    for (const component of vevents.slice(at, at + BATCH)) {
      // A value ical.js cannot read (`DTSTART:2027`, `RECURRENCE-ID:x`) fails its event alone, as a record the
      // API refuses does.
      try {
        const event = new ICAL.Event(component);
        const recurrence = event.component.getFirstProperty('recurrence-id');
        const key = `${event.uid}${recurrence ? `#${String(recurrence.getFirstValue())}` : ''}`;
        if (!usableKey(key)) throw new Error('its UID is no key (a control character in it, or past 2000 characters)');
        const target = recurrence ? exceptionTarget(event, recurrence) : undefined;
        batch.push({ key, modified: modifiedMark(event.component), input: () => readable(() => eventInput(event)), ...(target ? { target } : {}) });
        events.push(event);
      } catch (error) {
        tally.failed++;
        failures.push({ resource: 'events', url: `${where}#${uidOf(component)}`, reason: unreadable(error) });
      }
    }
    const outcomes = await importer.writeBatch('event', batch, options);
    outcomes.forEach((result, i) => {
      tally[result.outcome]++;
      if (result.outcome === 'failed') failures.push({ resource: 'events', url: `${where}#${events[i].uid}`, reason: result.reason });
    });
  }
  return { summary: { events: tally }, failures };
}
