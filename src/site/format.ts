import type { Language } from '../i18n/language.ts';

/**
 * Dates on pages, in the page's language. Event times are wall-clock text in the event's own zone
 * ('YYYY-MM-DD HH:MM:SS', as the API returns them): they are formatted as they are, read as UTC so that
 * no zone conversion moves them, and the zone's abbreviation is written after them.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}:${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' });
    formatters.set(key, found);
  }
  return found;
}

/** 'YYYY-MM-DD[ HH:MM[:SS]]' as a Date whose UTC fields are that wall clock. */
export function wallClock(text: string): Date {
  const [date, time = '00:00:00'] = text.split(' ');
  return new Date(`${date}T${time.length === 5 ? `${time}:00` : time}Z`);
}

const DAY: Intl.DateTimeFormatOptions = { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' };
const DAY_TIME: Intl.DateTimeFormatOptions = { ...DAY, hour: 'numeric', minute: '2-digit' };
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

export const formatDay = (language: Language, day: string) => formatter(language, DAY).format(wallClock(day));
export const formatTime = (language: Language, at: string) => formatter(language, TIME).format(wallClock(at));
export const formatMonth = (language: Language, month: string) =>
  formatter(language, { year: 'numeric', month: 'long' }).format(wallClock(`${month}-01`));
export const formatShortDay = (language: Language, day: string) =>
  formatter(language, { weekday: 'short', month: 'short', day: 'numeric' }).format(wallClock(day));

/** Weekday names Monday first: the short one to show, the long one for assistive technology. */
export function weekdayNames(language: Language): Array<{ short: string; long: string }> {
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => {
    const day = wallClock(`2024-01-0${i + 1}`);
    return { short: formatter(language, { weekday: 'short' }).format(day), long: formatter(language, { weekday: 'long' }).format(day) };
  });
}

export interface EventTimes {
  start_date: string;
  end_date: string;
  all_day: boolean | null;
  timezone_abbr: string;
}

/** "Friday, 5 March 2027, 19:00 – 22:30 CET", or a date range for all-day and multi-day events. */
export function formatEventTimes(language: Language, event: EventTimes): string {
  const start = wallClock(event.start_date);
  const end = wallClock(event.end_date);
  const sameDay = event.start_date.slice(0, 10) === event.end_date.slice(0, 10);
  if (event.all_day) {
    return sameDay ? formatter(language, DAY).format(start) : formatter(language, DAY).formatRange(start, end);
  }
  const range = sameDay
    ? `${formatter(language, DAY_TIME).format(start)} – ${formatter(language, TIME).format(end)}`
    : formatter(language, DAY_TIME).formatRange(start, end);
  return `${range} ${event.timezone_abbr}`.trim();
}

/** The short form a list or a month cell shows: the start time, or nothing for all-day events. */
export const startTime = (language: Language, event: EventTimes) => (event.all_day ? '' : formatTime(language, event.start_date));
