/** The month view's grid: whole weeks, Monday first, each day with the events it covers. Pure. */
export interface Brief {
  slug: string;
  title: string;
  /** Wall-clock 'YYYY-MM-DD HH:MM:SS' in the zone the calendar compares in. */
  start: string;
  end: string;
  allDay: boolean;
  featured: boolean;
}

export interface GridDay {
  day: string;
  inMonth: boolean;
  today: boolean;
  /** The first events of the day, in start order; `more` counts the rest. */
  events: Brief[];
  more: number;
}

const DAY_MS = 86_400_000;
const toTime = (day: string) => Date.parse(`${day}T00:00:00Z`);
const toDay = (time: number) => new Date(time).toISOString().slice(0, 10);

export const addDays = (day: string, days: number) => toDay(toTime(day) + days * DAY_MS);
export const addMonths = (month: string, months: number) => {
  const [year, m] = month.split('-').map(Number);
  const date = new Date(Date.UTC(year, m - 1 + months, 1));
  return date.toISOString().slice(0, 7);
};
export const isRealMonth = (month: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(month);
export const isRealDay = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(toTime(day)) && toDay(toTime(day)) === day;

/** The last day an event covers: one ending at midnight exactly does not reach into that day. */
function lastDay(brief: Brief): string {
  const day = brief.end.slice(0, 10);
  return brief.end.slice(11) === '00:00:00' && brief.end > brief.start ? addDays(day, -1) : day;
}

/** The first and last day the grid of `month` shows (whole weeks, Monday to Sunday). */
export function gridRange(month: string): { first: string; last: string } {
  const firstOfMonth = `${month}-01`;
  const weekday = (new Date(toTime(firstOfMonth)).getUTCDay() + 6) % 7; // Monday = 0
  const first = addDays(firstOfMonth, -weekday);
  const lastOfMonth = addDays(`${addMonths(month, 1)}-01`, -1);
  const last = addDays(lastOfMonth, 6 - ((new Date(toTime(lastOfMonth)).getUTCDay() + 6) % 7));
  return { first, last };
}

export function monthGrid(month: string, briefs: Brief[], today: string, perDay = 3): GridDay[][] {
  const { first, last } = gridRange(month);
  const byDay = new Map<string, Brief[]>();
  for (const brief of briefs) {
    const from = brief.start.slice(0, 10) < first ? first : brief.start.slice(0, 10);
    const to = lastDay(brief) > last ? last : lastDay(brief);
    for (let day = from; day <= to; day = addDays(day, 1)) {
      const list = byDay.get(day);
      if (list) list.push(brief);
      else byDay.set(day, [brief]);
    }
  }
  const weeks: GridDay[][] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) {
    if ((toTime(day) - toTime(first)) % (7 * DAY_MS) === 0) weeks.push([]);
    const events = byDay.get(day) ?? [];
    weeks[weeks.length - 1].push({
      day,
      inMonth: day.startsWith(month),
      today: day === today,
      events: events.slice(0, perDay),
      more: Math.max(0, events.length - perDay),
    });
  }
  return weeks;
}
