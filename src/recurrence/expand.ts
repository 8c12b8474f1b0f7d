import { createRequire } from 'node:module';
import { DateTime } from 'luxon';
import { invalidParam } from '../errors.ts';
import { readStamp, writeStamp } from '../time/clock.ts';
import { ExpansionTimeout, type RuleSet, ruleStarts } from './rule-starts.ts';

/**
 * Recurrence (issue 12): RFC 5545 rules, extra dates and exception dates, expanded in the event's own
 * wall-clock time, so a weekly 19:00 stays 19:00 across a change of daylight-saving time. rrule (a
 * well-kept RFC 5545 implementation) iterates the rules in a worker (rule-starts.ts); each start is then
 * placed in the event's zone, which is where a time that does not exist (the hour skipped in spring) is
 * found and reported.
 */
export interface Recurrence {
  rules: string[];
  /** Extra occurrences: `YYYY-MM-DD HH:MM:SS` (or a date: at the series' time of day), in the event's zone. */
  rdates?: string[];
  /** Occurrences left out, the same way: a date alone leaves out every occurrence of that day. */
  exdates?: string[];
}

export interface Occurrence {
  /** Wall-clock start and end in the event's zone, `YYYY-MM-DD HH:MM:SS`. */
  start: string;
  end: string;
}

export interface Expansion {
  occurrences: Occurrence[];
  warnings: string[];
  /** True when `max` occurrences were reached before the rules (or `through`) ended. */
  capped: boolean;
  /** The first start after `through`, wall-clock; null when the series ends by then. */
  next: string | null;
}

// rrule ships CommonJS whose named exports Node cannot see from ESM; require gives them, typed.
const { RRule } = createRequire(import.meta.url)('rrule') as typeof import('rrule');

const FREQUENCIES = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
const PARTS = new Set(['FREQ', 'UNTIL', 'COUNT', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'BYYEARDAY', 'BYWEEKNO', 'BYMONTH', 'BYSETPOS', 'WKST']);

// Each list part's values as RFC 5545 §3.3.10 allows them: rrule takes some out-of-range values without a
// word (WKST=XX, BYWEEKNO=60), which would make a rule silently mean something else, or nothing.
const numbers = (min: number, max: number, signed: boolean) => (value: string) =>
  /^[+-]?\d{1,4}$/.test(value) && (signed || !/^[+-]/.test(value)) && Math.abs(Number(value)) >= min && Math.abs(Number(value)) <= max;
const WEEKDAY = /^(SU|MO|TU|WE|TH|FR|SA)$/;
const PART_VALUES: Record<string, (value: string) => boolean> = {
  COUNT: (value) => /^\d{1,9}$/.test(value) && Number(value) >= 1,
  INTERVAL: (value) => /^\d{1,9}$/.test(value) && Number(value) >= 1,
  BYDAY: (value) => /^([+-]?\d{1,2})?(SU|MO|TU|WE|TH|FR|SA)$/.test(value) && Math.abs(Number.parseInt(value, 10) || 1) <= 53 && Number.parseInt(value, 10) !== 0,
  BYMONTHDAY: numbers(1, 31, true),
  BYYEARDAY: numbers(1, 366, true),
  BYWEEKNO: numbers(1, 53, true),
  BYMONTH: numbers(1, 12, false),
  BYSETPOS: numbers(1, 366, true),
  WKST: (value) => WEEKDAY.test(value),
};
export const MAX_RULES = 10;
export const MAX_DATES = 1000;
const PARAM = 'recurrence';

/**
 * One rule, checked part by part (a typo must not silently mean "every day"), and its UNTIL as a wall-clock
 * bound in `zone` (RFC 5545: a UTC time, or a date meaning through that day).
 */
function checkedRule(text: string, zone: string): RuleSet['rules'][number] {
  const rule = text.trim().replace(/^RRULE:/i, '').toUpperCase();
  const parts = rule.split(';').filter(Boolean).map((part) => part.split('='));
  const bad = parts.find(([key, value]) => !PARTS.has(key) || !value);
  if (bad) throw invalidParam(PARAM, `Unknown or empty rule part "${bad.join('=')}" in "${rule}".`);
  const outOfRange = parts.find(([key, value]) => PART_VALUES[key] && !value.split(',').every(PART_VALUES[key]));
  if (outOfRange) throw invalidParam(PARAM, `A rule part has a value RFC 5545 does not allow: "${outOfRange.join('=')}" in "${rule}".`);
  const freq = parts.find(([key]) => key === 'FREQ')?.[1];
  if (!freq || !FREQUENCIES.has(freq)) throw invalidParam(PARAM, `A rule needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY: "${rule}".`);
  const until = parts.find(([key]) => key === 'UNTIL')?.[1];
  if (until && parts.some(([key]) => key === 'COUNT')) throw invalidParam(PARAM, `A rule has UNTIL or COUNT, not both: "${rule}".`);
  const rest = parts.filter(([key]) => key !== 'UNTIL').map((part) => part.join('=')).join(';');
  try {
    RRule.parseString(rest);
  } catch (error) {
    throw invalidParam(PARAM, `Not an RFC 5545 rule: "${rule}" (${(error as Error).message}).`);
  }
  return until ? { text: rest, until: wallUntil(until, zone, rule) } : { text: rest };
}

/** UNTIL as wall-clock text: `20270630` is through the end of that day, `20270630T170000Z` an instant. */
export function wallUntil(value: string, zone: string, rule: string): string {
  const shapes: Array<[RegExp, string, string]> = [
    [/^\d{8}$/, 'yyyyMMdd', 'local'], [/^\d{8}T\d{6}$/, "yyyyMMdd'T'HHmmss", 'local'], [/^\d{8}T\d{6}Z$/, "yyyyMMdd'T'HHmmss'Z'", 'UTC'],
  ];
  const shape = shapes.find(([pattern]) => pattern.test(value));
  const parsed = shape ? DateTime.fromFormat(value, shape[1], { zone: shape[2] === 'UTC' ? 'UTC' : zone }) : undefined;
  if (!shape || !parsed?.isValid) throw invalidParam(PARAM, `UNTIL is a date (YYYYMMDD) or a time (YYYYMMDDTHHMMSSZ): "${rule}".`);
  if (value.length === 8) return `${parsed.toFormat('yyyy-MM-dd')} 23:59:59`;
  return writeStamp(parsed.setZone(zone));
}

/** A listed date as wall-clock text; a date alone takes `timeOfDay` (and `dateOnly` says so). */
function listedDate(text: string, timeOfDay: string): { at: string; dateOnly: boolean } {
  const value = String(text).trim().replace('T', ' ');
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value).isValid) return { at: `${value} ${timeOfDay}`, dateOnly: true };
  const at = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(value) ? `${value}:00` : value;
  if (readStamp(at).isValid) return { at, dateOnly: false };
  throw invalidParam(PARAM, `Dates are YYYY-MM-DD or YYYY-MM-DD HH:MM:SS in the event's time zone: "${text}".`);
}

/**
 * The occurrences of a series starting at `start` and ending at `end` (wall-clock in `zone`), in order:
 * the first is the series' own start (RFC 5545: DTSTART is the first instance), then what the rules and
 * rdates add, without the exdates. Stops after `through` (wall-clock) and at `max` occurrences.
 */
export async function expand(args: { start: string; end: string; zone: string; recurrence: Recurrence; through: string; max: number }): Promise<Expansion> {
  const { recurrence, zone } = args;
  const rules = recurrence.rules;
  if (!Array.isArray(rules) || rules.length === 0 || rules.length > MAX_RULES) throw invalidParam(PARAM, `A recurrence has 1 to ${MAX_RULES} rules.`);
  for (const name of ['rdates', 'exdates'] as const) {
    if ((recurrence[name]?.length ?? 0) > MAX_DATES) throw invalidParam(PARAM, `A recurrence has at most ${MAX_DATES} ${name}.`);
  }
  const checked = rules.map((rule) => checkedRule(String(rule), zone));
  const timeOfDay = args.start.slice(11);
  const rdates = (recurrence.rdates ?? []).map((d) => listedDate(d, timeOfDay).at);
  const exdates = (recurrence.exdates ?? []).map((d) => listedDate(d, timeOfDay));

  let fromRules: string[];
  let nextFromRules: string | null;
  try {
    ({ starts: fromRules, next: nextFromRules } = await ruleStarts({ rules: checked, start: args.start, through: args.through, most: args.max + exdates.length }));
  } catch (error) {
    if (error instanceof ExpansionTimeout) throw invalidParam(PARAM, 'These rules take too long to expand: can they ever match (a 30th of February)?');
    // What rrule refuses only when it runs (a weekday "XX"): the rules, not the service.
    throw invalidParam(PARAM, `These rules cannot be expanded: %s`.replace('%s', (error as Error).message));
  }
  const warnings: string[] = [];
  for (const at of rdates.filter((at) => at < args.start)) warnings.push(`The extra date ${at} is before the series start: it is left out.`);
  const starts = new Set([args.start, ...fromRules, ...rdates.filter((at) => at >= args.start && at <= args.through)]);

  if (!fromRules.includes(args.start)) {
    warnings.push(`The series start ${args.start} is not a date of its rules (RFC 5545 leaves such a series undefined): it is kept as the first occurrence.`);
  }
  const unused = new Set(exdates.map((d) => d.at));
  const excepted = (at: string) => exdates.find((ex) => (ex.dateOnly ? ex.at.slice(0, 10) === at.slice(0, 10) : ex.at === at));
  const kept = [...starts].sort().filter((at) => {
    const hit = excepted(at);
    if (hit) unused.delete(hit.at);
    return !hit;
  });
  // An excepted next start of the rules stays: what follows it is not known yet (one run too many at worst).
  const next = [...(nextFromRules === null ? [] : [nextFromRules]), ...rdates.filter((at) => at > args.through && !excepted(at))].sort()[0] ?? null;
  for (const at of unused) warnings.push(`The exception ${at} matches no occurrence.`);
  const capped = kept.length > args.max;
  if (capped) kept.length = args.max;

  // Each occurrence lasts as long, in wall-clock time, as the series itself.
  const wall = (text: string) => readStamp(text, 'UTC');
  const length = wall(args.end).diff(wall(args.start));
  const occurrences = kept.map((at) => {
    const start = writeStamp(readStamp(at, zone));
    if (start !== at) warnings.push(`${at} does not exist in ${zone} (the clocks go forward then): that occurrence starts at ${start}.`);
    const end = writeStamp(wall(at).plus(length));
    return { start, end: end > start ? end : start };
  });
  return { occurrences, warnings, capped, next };
}
