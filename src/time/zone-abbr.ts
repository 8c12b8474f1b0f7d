import type { DateTime } from 'luxon';

// Intl names a zone's abbreviation only in locales where it is in common use ("CET" in en-GB, "IST" in
// en-IN, "JST" in ja-JP); asking those in turn gives what PHP's tzdata prints for most zones.
const LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-ZA', 'en-NZ', 'ja-JP'];

/** The time-zone abbreviation at this instant ("EST", "CEST"), else PHP's numeric form ("+03", "+0530"). */
export function zoneAbbreviation(at: DateTime): string {
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
