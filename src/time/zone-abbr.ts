import type { DateTime } from 'luxon';

// Intl names a zone's abbreviation only in locales where it is in common use ("CET" in en-GB, "IST" in
// en-IN, "JST" in ja-JP); asking those in turn gives what PHP's tzdata prints for most zones.
const LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-ZA', 'en-NZ', 'ja-JP'];

// An abbreviation depends only on the zone and its offset at the time; each Intl lookup costs ~100 µs.
const known = new Map<string, string>();

/** The time-zone abbreviation at this instant ("EST", "CEST"), else PHP's numeric form ("+03", "+0530"). */
export function zoneAbbreviation(at: DateTime): string {
  const key = `${at.zoneName}|${at.offset}`;
  let abbreviation = known.get(key);
  if (abbreviation === undefined) {
    abbreviation = lookUp(at);
    known.set(key, abbreviation);
  }
  return abbreviation;
}

function lookUp(at: DateTime): string {
  if (at.zoneName === 'UTC') return 'UTC';
  for (const locale of LOCALES) {
    const name = at.setLocale(locale).toFormat('ZZZZ');
    if (/^[A-Z]{2,5}$/.test(name)) return name;
  }
  const sign = at.offset < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(at.offset) / 60)).padStart(2, '0');
  const minutes = Math.abs(at.offset) % 60;
  return `${sign}${hours}${minutes ? String(minutes).padStart(2, '0') : ''}`;
}
