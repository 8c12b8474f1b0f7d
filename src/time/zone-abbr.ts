import type { DateTime } from 'luxon';
import moment from 'moment-timezone';
import type { PlacedTime } from './wall-time.ts';

// PHP prints the abbreviations of the tz database ("HKT", "CEST"); Node's Intl knows them only for a few
// locales and zones, so they come from moment-timezone's copy of the tzdb (its packed data; moment itself
// is not used). Where the database has no letters for a zone it has the numeric form ("-03"), as PHP does.

/** An instant in a zone: a DateTime, or a time placed without one (time/wall-time.ts). */
type ZonedInstant = Pick<DateTime, 'zoneName' | 'offset' | 'year' | 'toMillis'> | Pick<PlacedTime, 'zoneName' | 'offset' | 'year' | 'millis'>;

// An abbreviation depends on the zone, its offset and the rule period; the year stands in for the period
// (letters changing within a year at an unchanged offset, as EWT to EPT in 1945, are not worth a lookup).
const known = new Map<string, string>();

/** The time-zone abbreviation at this instant ("EST", "CEST"), else PHP's numeric form ("+03", "+0530"). */
export function zoneAbbreviation(at: ZonedInstant): string {
  const key = `${at.zoneName}|${at.offset}|${at.year}`;
  let abbreviation = known.get(key);
  if (abbreviation === undefined) {
    abbreviation = lookUp(at);
    known.set(key, abbreviation);
  }
  return abbreviation;
}

function lookUp(at: ZonedInstant): string {
  const zone = at.zoneName === null ? null : moment.tz.zone(at.zoneName);
  if (zone) return zone.abbr('millis' in at ? at.millis : at.toMillis());
  const sign = at.offset < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(at.offset) / 60)).padStart(2, '0');
  const minutes = Math.abs(at.offset) % 60;
  return `${sign}${hours}${minutes ? String(minutes).padStart(2, '0') : ''}`;
}
