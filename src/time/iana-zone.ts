import { IANAZone } from 'luxon';

// Luxon checks a zone by building an Intl formatter (~80 µs) on every call: a feed of a thousand events
// asked it a thousand times. Bounded, whatever clients send: the few hundred real zones fit.
const MOST = 2000;
const known = new Map<string, boolean>();

/** Whether `name` is a time zone of the IANA database (in any case, or a link such as `US/Eastern`). */
export function isIanaZone(name: string): boolean {
  let valid = known.get(name);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(name);
    if (known.size < MOST) known.set(name, valid);
  }
  return valid;
}
