// Expands RFC 5545 rules with rrule, off the main thread (src/recurrence/rule-starts.ts). A rule whose
// parts can never all match (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30) makes rrule walk to the year 9999, seconds
// of CPU: the main thread stops waiting after a deadline (counted from when this worker could begin the set)
// and ends it. Plain JavaScript, so it runs as it is from the sources and from the build.
//
// Times are wall-clock text (`YYYY-MM-DD HH:MM:SS`) carried in the UTC fields of Dates: rrule computes
// in UTC, so a weekly 19:00 stays 19:00 whatever the zone does; the caller places each time in its zone.
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';

// CommonJS whose named exports Node cannot see from ESM.
const { RRule } = createRequire(import.meta.url)('rrule');

const asDate = (text) => new Date(`${text.replace(' ', 'T')}Z`);
const asText = (date) => date.toISOString().slice(0, 19).replace('T', ' ');

parentPort.on('message', ({ id, rules, start, through, most }) => {
  try {
    const dtstart = asDate(start);
    const end = asDate(through);
    const starts = new Set();
    // The first start any rule gives after `through`: when the series needs materializing further.
    let next = null;
    for (const { text, until } of rules) {
      const options = { ...RRule.parseString(text), dtstart };
      if (until) options.until = asDate(until);
      new RRule(options).all((date) => {
        if (date > end) {
          if (next === null || date < next) next = date;
          return false;
        }
        if (starts.size > most) return false;
        starts.add(asText(date));
        return true;
      });
    }
    parentPort.postMessage({ id, starts: [...starts], next: next === null ? null : asText(next) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
// Loaded: the main thread times each set from here on, not this thread's start.
parentPort.postMessage({ ready: true });
