import { IANAZone } from 'luxon';

/**
 * Luxon asks Intl for a zone's UTC offset (`formatToParts`, a few µs) every time it places a time in a zone,
 * several times for each date it parses or formats: 5 % of an event create, more of a feed. An offset only
 * changes at a transition, a few times a year: once known for a whole UTC day, it is kept for that day.
 * A day is kept only when its first and last millisecond have the same offset, so a day with a transition
 * is always asked of Intl (no zone changes twice within a day since 1970; earlier days are not kept).
 */
const DAY_MS = 86_400_000;
const FIRST_KEPT = Date.UTC(1970, 0, 1);
const LAST_KEPT = Date.UTC(2200, 0, 1);
// Offsets of about 300 years of days for one zone, or of a few years for every zone: bounded either way.
const MOST_DAYS = 100_000;

let installed = false;

/** Makes every IANA zone of luxon remember its offsets by day. Once per process; harmless to call again. */
export function rememberZoneOffsets(): void {
  if (installed) return;
  installed = true;
  const asked = IANAZone.prototype.offset;
  const kept = new Map<string, Map<number, number>>();
  let days = 0;
  IANAZone.prototype.offset = function offset(this: IANAZone, ts: number): number {
    if (!(ts >= FIRST_KEPT && ts < LAST_KEPT)) return asked.call(this, ts);
    const day = Math.floor(ts / DAY_MS);
    let zone = kept.get(this.name);
    const known = zone?.get(day);
    if (known !== undefined) return known;
    const atStart = asked.call(this, day * DAY_MS);
    const atEnd = asked.call(this, (day + 1) * DAY_MS - 1);
    if (atStart !== atEnd || Number.isNaN(atStart)) return asked.call(this, ts);
    if (days >= MOST_DAYS) {
      kept.clear();
      days = 0;
      zone = undefined;
    }
    if (!zone) kept.set(this.name, (zone = new Map()));
    zone.set(day, atStart);
    days++;
    return atStart;
  };
}
