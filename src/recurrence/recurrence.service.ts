import { DateTime } from 'luxon';
import type { Config } from '../config.ts';
import { forbidden, invalidParam } from '../errors.ts';
import { eventDateColumns } from '../events/event-dates.ts';
import { readStamp, writeStamp } from '../time/clock.ts';
import { parseDate } from '../time/parse-date.ts';
import { type Caller, canCreate } from '../users/roles.ts';
import { expand } from './expand.ts';
import { PREVIEW_DAYS, PREVIEW_MOST, type PreviewInput } from './recurrence.schemas.ts';

/** Recurrence for people writing events: what a rule would give, before anything is written. */
export function createRecurrenceService(deps: { config: Config }) {
  return {
    /** The occurrences the rules give, each as an event would carry its dates, with warnings; writes nothing. */
    async preview(input: PreviewInput, caller: Caller | null) {
      if (!canCreate(caller)) throw forbidden(caller !== null);
      const series = eventDateColumns(input, undefined, deps.config.timezone);
      if (!series) throw invalidParam('start_date');
      const zone = series.timezone;
      const start = readStamp(series.start_local, zone);
      let through: DateTime = start.plus({ days: PREVIEW_DAYS });
      if (input.through !== undefined) {
        const parsed = parseDate(input.through, { zone, now: DateTime.utc() });
        if (!parsed) throw invalidParam('through');
        // A date alone (or an all-day series) is through the end of that day.
        through = series.all_day || !parsed.hasTime ? parsed.value.endOf('day') : parsed.value;
      }
      const expansion = await expand({
        start: series.start_local, end: series.end_local, zone, recurrence: input.recurrence,
        through: writeStamp(through), max: input.limit ?? PREVIEW_MOST,
      });
      const occurrences = expansion.occurrences.map((occurrence) => {
        const dates = eventDateColumns({ start_date: occurrence.start, end_date: occurrence.end, timezone: zone, all_day: series.all_day === 1 }, undefined, zone);
        if (!dates) throw new Error('an occurrence without dates');
        return { start_date: dates.start_local, end_date: dates.end_local, utc_start_date: dates.start_utc, utc_end_date: dates.end_utc, timezone_abbr: dates.timezone_abbr };
      });
      return { occurrences, total: occurrences.length, capped: expansion.capped, warnings: expansion.warnings };
    },
  };
}

export type RecurrenceService = ReturnType<typeof createRecurrenceService>;
