import ICAL from 'ical.js';
import { expect } from 'vitest';

export interface ParsedFeed {
  calendar: ICAL.Component;
  events: ICAL.Event[];
  /** The events by UID. */
  byUid: Map<string, ICAL.Event>;
  /** The feed's own VTIMEZONE blocks by TZID. */
  zones: Map<string, ICAL.Component>;
}

/**
 * Reads a feed with a real parser (ical.js), after checking what parsers forgive: CRLF line ends only,
 * no line over 75 octets (RFC 5545 §3.1). Its VTIMEZONEs are registered, and only they: ical.js ships no
 * zone data, so every instant read back comes from the feed's own transitions.
 */
export function parseFeed(body: string): ParsedFeed {
  expect(body.endsWith('\r\n')).toBe(true);
  const lines = body.slice(0, -2).split('\r\n');
  for (const line of lines) {
    expect(line, 'bare line feed or carriage return').not.toMatch(/[\r\n]/);
    expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
  }
  ICAL.TimezoneService.reset();
  const calendar = new ICAL.Component(ICAL.parse(body));
  const zones = new Map<string, ICAL.Component>();
  for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) {
    const tzid = String(vtimezone.getFirstPropertyValue('tzid'));
    zones.set(tzid, vtimezone);
    ICAL.TimezoneService.register(vtimezone);
  }
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
  return { calendar, events, byUid: new Map(events.map((event) => [event.uid, event])), zones };
}

/** The Unix time of an API `utc_*_date` (`YYYY-MM-DD HH:MM:SS`, UTC). */
export const unixOf = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`) / 1000;

/** The unfolded content lines of a feed (continuation lines joined back). */
export const unfolded = (body: string) => body.replace(/\r\n[ \t]/g, '').split('\r\n');

/** An X- property's value as TEXT: ical.js leaves unknown properties as written (RFC 5545 §3.3.11 escapes). */
export const xText = (value: unknown) => String(value).replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
