import { DateTime, FixedOffsetZone } from 'luxon';
import { writeStamp } from './clock.ts';
import { daysIn, plainFields } from './wall-time.ts';

export interface ParseDateOptions {
  /** IANA zone (or 'UTC', or a fixed offset such as 'UTC+5') in which wall-clock values are read. */
  zone: string;
  /** The current instant; injected so results are reproducible. */
  now: DateTime;
}

export interface ParsedDate {
  /** The instant, always expressed in opts.zone. */
  value: DateTime;
  /** True when the input itself fixed the instant (ISO with Z/offset, Unix timestamp). */
  explicitOffset: boolean;
  /** True when the input named a time of day, an hour/minute/second amount, `now`, or a timestamp. */
  hasTime: boolean;
}

/** `YYYY-MM-DD HH:MM:SS` of `dt` in its own zone. */
export function formatSql(dt: DateTime): string {
  return writeStamp(dt);
}

interface Clock { hour: number; minute: number; second: number; millisecond: number }
type Tok =
  | { t: 'date'; y: number; mo: number; d: number; iso: boolean }
  | (Clock & { t: 'clock'; off: number | null })
  | { t: 'num'; signed: boolean; n: number; digits: number }
  | { t: 'word'; w: string }
  | { t: 'comma' };
interface Rel { years: number; months: number; days: number; hours: number; minutes: number; seconds: number }
interface Base { dt: DateTime; next: number; explicit: boolean; hasTime: boolean; timeSet: boolean }

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september',
  'october', 'november', 'december'];
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const DAY_WORDS = new Map([['yesterday', -1], ['today', 0], ['tomorrow', 1]]);
const UNITS = new Map<string, [keyof Rel, number]>();
for (const [names, key, factor] of [
  ['sec secs second seconds', 'seconds', 1], ['min mins minute minutes', 'minutes', 1],
  ['hour hours', 'hours', 1], ['day days', 'days', 1], ['week weeks', 'days', 7],
  ['fortnight fortnights', 'days', 14], ['month months', 'months', 1], ['year years', 'years', 1],
] as const) {
  for (const name of names.split(' ')) UNITS.set(name, [key, factor]);
}

/** 1-based index of a full or three-letter name (plus PHP's `sept`), 0 if none. */
function nameIndex(list: string[], w: string | undefined): number {
  if (w === undefined) return 0;
  if (w === 'sept') w = 'sep';
  return list.findIndex((n) => n === w || n.slice(0, 3) === w) + 1;
}

function clockTok(m: RegExpExecArray): Tok | null {
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  // Milliseconds are Luxon's resolution: extra fraction digits are truncated, not rounded.
  const millisecond = Number((m[4] ?? '').padEnd(3, '0').slice(0, 3));
  let off: number | null = m[5] ? 0 : null;
  const spec = (m[6] ?? m[7])?.trim().replace(':', '');
  if (spec) {
    const [oh, om] = [Number(spec.slice(1, 3)), Number(spec.slice(3) || 0)];
    if (oh > 18 || om > 59) return null;
    off = (spec[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  return { t: 'clock', hour, minute, second, millisecond, off };
}

const LEXERS: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => Tok | null]> = [
  // 2018-01-05 / 2018/1/5 (one separator style), optionally glued to an ISO `T` time.
  [/(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?!\d)(t(?=\d))?/y,
    (m) => ({ t: 'date', y: Number(m[1]), mo: Number(m[3]), d: Number(m[4]), iso: m[5] !== undefined })],
  // 16:00[:00[.fff]] with an optional ISO offset: Z, +HH, +HHMM, +HH:MM. A space may precede only the
  // four-digit forms so that `10:00 +1 hour` / `10:00 +15 minutes` stay relative amounts.
  [/(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:(z)|( ?[+-]\d{2}:?\d{2})|([+-]\d{2}))?(?![\d:.])/y, clockTok],
  [/([+-]?)(\d+)(?![\d:])/y,
    (m) => ({ t: 'num', signed: m[1] !== '', n: Number(m[1]! + m[2]!), digits: m[2]!.length })],
  [/[a-z]+/y, (m) => ({ t: 'word', w: m[0] })],
  [/,/y, () => ({ t: 'comma' })],
];

function lex(text: string): Tok[] | null {
  const toks: Tok[] = [];
  let pos = 0;
  while (pos < text.length) {
    if (text[pos] === ' ') { pos++; continue; }
    let tok: Tok | null = null;
    for (const [re, make] of LEXERS) {
      re.lastIndex = pos;
      const m = re.exec(text);
      if (!m) continue;
      tok = make(m);
      pos = re.lastIndex;
      break;
    }
    if (!tok) return null;
    toks.push(tok);
  }
  return toks;
}

const wordAt = (toks: Tok[], i: number): string | undefined => {
  const t = toks[i];
  return t?.t === 'word' ? t.w : undefined;
};
/** An unsigned number token with at most `digits` digits (exactly 4 for years). */
const plainNum = (t: Tok | undefined, digits: number, exact = false): number | undefined =>
  t?.t === 'num' && !t.signed && (exact ? t.digits === digits : t.digits <= digits) ? t.n : undefined;

/**
 * The leading absolute part, if any. PHP lets day words follow a time (`11:00 tomorrow`) but then
 * silently resets the time to midnight; we only accept a base in front, so that trap is a 400.
 */
function readBase(toks: Tok[], now: DateTime): Base | null | undefined {
  const [a, b] = toks;
  const today = now.startOf('day');
  const at = (dt: DateTime, next: number, hasTime = false): Base | null =>
    dt.isValid ? { dt, next, explicit: false, hasTime, timeSet: false } : null;
  if (a?.t === 'date') {
    const ymd = { year: a.y, month: a.mo, day: a.d };
    if (b?.t === 'clock' && b.off !== null) {
      // An ISO offset fixes the instant; later relative amounts are applied in that offset, like PHP.
      const { hour, minute, second, millisecond } = b;
      const zone = FixedOffsetZone.instance(b.off);
      const dt = DateTime.fromObject({ year: ymd.year, month: ymd.month, day: ymd.day, hour, minute, second, millisecond }, { zone });
      return dt.isValid ? { dt, next: 2, explicit: true, hasTime: true, timeSet: true } : null;
    }
    if (a.iso && b?.t !== 'clock') return null;
    return at(DateTime.fromObject(ymd, { zone: now.zone }), 1); // a following clock is read as time of day
  }
  const w = wordAt(toks, 0);
  if (w === 'now') return at(now, 1, true); // PHP: `now 10:00` is today at 10:00
  const shift = DAY_WORDS.get(w ?? '');
  if (shift !== undefined) return at(today.plus({ days: shift }), 1);

  // PHP weekday semantics: bare name = today if it matches, else the next one; `next` is strictly after
  // today, `last`/`previous` strictly before. All at local midnight.
  const mod = w === 'next' || w === 'last' || w === 'previous' ? w : undefined;
  const wd = nameIndex(WEEKDAYS, mod ? wordAt(toks, 1) : w);
  if (wd) {
    const ahead = (wd - today.weekday + 7) % 7;
    if (mod === 'next') return at(today.plus({ days: ahead || 7 }), 2);
    if (mod) return at(today.minus({ days: (today.weekday - wd + 7) % 7 || 7 }), 2);
    return at(today.plus({ days: ahead }), 1);
  }
  if (mod) return null;

  // `January 5, 2018` / `Jan 5 2018` / `5 January 2018`; the year is required (no guessing).
  const monthFirst = nameIndex(MONTHS, w);
  const dayFirst = monthFirst ? 0 : nameIndex(MONTHS, wordAt(toks, 1));
  if (!monthFirst && !(dayFirst && plainNum(a, 2) !== undefined)) return undefined;
  const day = plainNum(monthFirst ? b : a, 2);
  const yi = monthFirst && toks[2]?.t === 'comma' ? 3 : 2;
  const year = plainNum(toks[yi], 4, true);
  if (day === undefined || year === undefined) return null;
  return at(DateTime.fromObject({ year, month: monthFirst || dayFirst, day }, { zone: now.zone }), yi + 1);
}

/** A time of day at toks[i]: `[clock, next]`, undefined if none starts there, null if malformed. */
function readTime(toks: Tok[], i: number): [Clock, number] | null | undefined {
  const t = toks[i];
  const mer = wordAt(toks, i + 1);
  const meridiem = mer === 'am' || mer === 'pm' ? mer : undefined;
  const twelve = (c: Clock): [Clock, number] | null =>
    c.hour >= 1 && c.hour <= 12 ? [{ ...c, hour: (c.hour % 12) + (meridiem === 'pm' ? 12 : 0) }, i + 2] : null;
  if (t?.t === 'clock') {
    if (t.off !== null) return null; // offsets only make sense on a full ISO date-time
    const c = { hour: t.hour, minute: t.minute, second: t.second, millisecond: t.millisecond };
    return meridiem ? twelve(c) : [c, i + 1];
  }
  const h = plainNum(t, 2);
  if (h !== undefined && meridiem) return twelve({ hour: h, minute: 0, second: 0, millisecond: 0 });
  const w = wordAt(toks, i);
  if (w === 'noon' || w === 'midnight') {
    return [{ hour: w === 'noon' ? 12 : 0, minute: 0, second: 0, millisecond: 0 }, i + 1];
  }
  return undefined;
}

function applyRel(dt: DateTime, r: Rel): DateTime {
  // PHP lets a day-of-month the target month lacks overflow (Jan 31 +1 month = Mar 3, Feb 29 +1 year =
  // Mar 1) where Luxon clamps (Feb 28); add the clamped-away days back. Calendar units move the local
  // wall clock in the zone (so `+1 day` across DST stays at the same local time; a wall time that
  // does not exist is shifted forward by Luxon), then hours/minutes/seconds move the instant.
  // Most input names a date and no amount: nothing to move (Luxon's arithmetic is the parser's costliest part).
  if (!r.years && !r.months && !r.days && !r.hours && !r.minutes && !r.seconds) return dt;
  const clamped = dt.plus({ years: r.years, months: r.months });
  return dt
    .plus({ years: r.years, months: r.months, days: r.days + (dt.day - clamped.day) })
    .plus({ hours: r.hours, minutes: r.minutes, seconds: r.seconds });
}

/**
 * Whether `parseDate` reads `input` in UTC: the schema's check of a date parameter, before the service parses
 * it in its own zone. The plain form is checked by its fields alone (in UTC every wall time is there once),
 * without making a DateTime: an event create's two dates, checked and then parsed, were ~2.5% of its CPU.
 */
export function readsAsDate(input: string): boolean {
  const plain = plainFields(input.toLowerCase());
  if (plain) {
    const [year, month, day, hour, minute, second] = plain;
    if (year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour <= 23 && minute <= 59 && second <= 59) return true;
  }
  return parseDate(input, { zone: 'UTC', now: DateTime.utc() }) !== null;
}

/**
 * Parses the subset of PHP `strtotime` input that API clients actually send; anything else is null.
 * Grammar: timestamp | [base] { time-of-day (once) | [+-]N unit | `ago` (once, after an amount) }.
 */
export function parseDate(input: string, opts: ParseDateOptions): ParsedDate | null {
  if (typeof input !== 'string') return null;
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  const now = opts.now.setZone(opts.zone);
  if (text === '' || !now.isValid) return null;

  // All digits is a Unix timestamp (PHP spells it `@1514764800`; we accept both).
  const stamp = /^@?(\d+)$/.exec(text);
  if (stamp) {
    const secs = Number(stamp[1]);
    if (!Number.isSafeInteger(secs)) return null;
    const value = DateTime.fromSeconds(secs, { zone: now.zone });
    return value.isValid ? { value, explicitOffset: true, hasTime: true } : null;
  }

  // The form nearly every client sends (a write reads two), without the lexer; anything the general path
  // would treat differently (a day the month lacks, an hour the clocks skip) goes on to it.
  const plain = plainFields(text);
  if (plain) {
    const [year, month, day, hour, minute, second] = plain;
    // The day's start, then the time: as the general path does (an hour that comes twice is its first).
    const value = DateTime.fromObject({ year, month, day }, { zone: now.zone }).set({ hour, minute, second });
    if (value.isValid && value.day === day && value.month === month && value.hour === hour && value.minute === minute) {
      return { value, explicitOffset: false, hasTime: true };
    }
  }

  const toks = lex(text);
  if (!toks) return null;
  const base = readBase(toks, now);
  if (base === null) return null;

  let clock: Clock | undefined;
  const rel: Rel = { years: 0, months: 0, days: 0, hours: 0, minutes: 0, seconds: 0 };
  let relHasTime = false;
  let afterAmount = false;
  let agoSeen = false;
  for (let i = base?.next ?? 0; i < toks.length;) {
    const time = readTime(toks, i);
    if (time === null) return null;
    if (time) {
      if (clock || base?.timeSet) return null;
      [clock, i] = time;
      afterAmount = false;
      continue;
    }
    const t = toks[i]!;
    const unit = UNITS.get(wordAt(toks, i + 1) ?? '');
    if (t.t === 'num' && unit && Number.isSafeInteger(t.n)) {
      rel[unit[0]] += t.n * unit[1];
      relHasTime ||= unit[0] === 'hours' || unit[0] === 'minutes' || unit[0] === 'seconds';
      afterAmount = true;
      i += 2;
      continue;
    }
    // PHP's `ago` negates every amount read so far; a second one would flip them back, so refuse it.
    if (wordAt(toks, i) === 'ago' && afterAmount && !agoSeen) {
      for (const k of Object.keys(rel) as (keyof Rel)[]) rel[k] = -rel[k];
      agoSeen = true;
      afterAmount = false;
      i++;
      continue;
    }
    return null;
  }

  // Without a base, a time of day reads against today and bare amounts count from now (PHP's default).
  let dt = base?.dt ?? (clock ? now.startOf('day') : now);
  // A wall time skipped by a DST spring-forward (02:30 on the change day) is shifted forward by Luxon.
  if (clock) dt = dt.set(clock);
  dt = applyRel(dt, rel);
  if (!dt.isValid) return null;
  return {
    value: dt.setZone(now.zone),
    explicitOffset: base?.explicit ?? false,
    hasTime: base ? base.hasTime || clock !== undefined || relHasTime : true,
  };
}
