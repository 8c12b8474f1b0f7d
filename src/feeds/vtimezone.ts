import { foldLines } from './fold.ts';
import { DateTime, IANAZone } from 'luxon';
import { zoneAbbreviation } from '../time/zone-abbr.ts';

const DAY = 86_400_000;

/** One change of a zone's UTC offset: the instant (ms) and the offsets (minutes) before and after it. */
interface Transition {
  at: number;
  from: number;
  to: number;
}

/**
 * Every offset change in [from, to), found from Intl's own zone data (through Luxon): offsets are sampled
 * once a day, and a day whose offset differs is bisected down to the second the change happens. No zone
 * changes twice within a day, so none is missed.
 */
export function transitions(zone: IANAZone, from: number, to: number): Transition[] {
  const found: Transition[] = [];
  let before = from;
  let offset = zone.offset(from);
  for (let t = from + DAY; before < to; t += DAY) {
    const next = zone.offset(t);
    if (next !== offset) {
      // offset(lo) is the old offset, offset(hi) the new one; both stay whole seconds.
      let lo = before;
      let hi = t;
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        if (zone.offset(mid) === offset) lo = mid;
        else hi = mid;
      }
      if (hi < to) found.push({ at: hi, from: offset, to: next });
      offset = next;
    }
    before = t;
  }
  return found;
}

const offsetText = (minutes: number) => {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
};

/**
 * One observance. Its DTSTART is the wall-clock time at which it begins, read in the offset in use before
 * it (RFC 5545 §3.6.5: the reference writes the UTC time there instead, an hour or more off).
 */
function observance(zone: IANAZone, at: number, from: number, to: number): string[] {
  const after = DateTime.fromMillis(at, { zone });
  const kind = after.isInDST ? 'DAYLIGHT' : 'STANDARD';
  return [
    `BEGIN:${kind}`,
    `DTSTART:${DateTime.fromMillis(at + from * 60_000, { zone: 'utc' }).toFormat("yyyyLLdd'T'HHmmss")}`,
    `TZOFFSETFROM:${offsetText(from)}`,
    `TZOFFSETTO:${offsetText(to)}`,
    `TZNAME:${zoneAbbreviation(after)}`,
    `END:${kind}`,
  ];
}

// A zone's block depends only on its name and the years covered: feeds polled every hour reuse it.
const built = new Map<string, string>();

/**
 * The VTIMEZONE of an IANA zone over whole years [firstYear, lastYear]: the offset in use when the span
 * begins (so any instant in it is defined, whatever the zone did before), then each real transition. A zone
 * without changes in the span gets that first block alone.
 */
export function vtimezone(name: string, firstYear: number, lastYear: number): string {
  const key = `${name}|${firstYear}|${lastYear}`;
  let text = built.get(key);
  if (text === undefined) {
    const zone = IANAZone.create(name);
    const from = DateTime.fromObject({ year: firstYear }, { zone }).toMillis();
    const to = DateTime.fromObject({ year: lastYear + 1 }, { zone }).toMillis();
    const initial = zone.offset(from);
    const lines = [`BEGIN:VTIMEZONE`, `TZID:${name}`, ...observance(zone, from, initial, initial)];
    for (const change of transitions(zone, from, to)) lines.push(...observance(zone, change.at, change.from, change.to));
    lines.push('END:VTIMEZONE', '');
    text = foldLines(lines.join('\r\n'));
    if (built.size >= 1000) built.clear();
    built.set(key, text);
  }
  return text;
}
