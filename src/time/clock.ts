import { DateTime } from 'luxon';

export const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** A stored timestamp pair: wall-clock time in a zone, and the same instant in UTC. */
export interface Stamp {
  local: string;
  utc: string;
}

export function stampOf(instant: DateTime, zone: string): Stamp {
  return { local: instant.setZone(zone).toFormat(SQL_FORMAT), utc: instant.toUTC().toFormat(SQL_FORMAT) };
}

export function nowStamp(zone: string): Stamp {
  return stampOf(DateTime.utc(), zone);
}
