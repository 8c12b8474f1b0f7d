import type { DateTime } from 'luxon';
import { statusChange } from '../changes/change.repository.ts';
import { invalidParam } from '../errors.ts';
import { eventDateColumns } from '../events/event-dates.ts';
import { moveTermCounts } from '../events/event-links-write.ts';
import type { EventColumns, EventRow } from '../events/event.repository.ts';
import type { Repositories } from '../store.ts';
import { nowStamp, readStamp, writeStamp } from '../time/clock.ts';
import { expand, type Occurrence, type Recurrence } from './expand.ts';

/**
 * Recurring series stored as events (issue 12), the reference's model: the series is an event carrying its
 * rules, and each further occurrence is an event of its own whose parent is the series, so every list and
 * filter (`post_parent` among them) sees them. Everything here runs inside the caller's write transaction,
 * with the series' row locked.
 */
export interface SeriesContext {
  /** Rules are materialized this many days ahead of `now` (or of the series' start, when later). */
  horizonDays: number;
  /** The most occurrences a series has. */
  maxOccurrences: number;
  siteZone: string;
  now: DateTime;
  /** Who made the change (null: the service moving the horizon on). */
  userId: number | null;
  /** A write giving more than the cap is refused (400); the horizon moving on stops at the cap instead. */
  pastCap: 'refuse' | 'stop';
}

/** An occurrence of a series (not the series event itself). */
export const isOccurrence = (row: EventRow) => row.parent_id !== 0 && row.original_start !== null;

/**
 * Locks an event for a write, an occurrence's series first: a series' writers lock it, then write its
 * occurrences, so a writer of one occurrence that took the other order could deadlock with them, or write
 * under a series edit that read the occurrence before it. Returns the event's status under the lock.
 */
export async function lockForWrite(repos: Repositories, row: EventRow): Promise<string | undefined> {
  if (isOccurrence(row)) await repos.events.lockStatus(row.parent_id);
  return repos.events.lockStatus(row.id);
}

/** What an occurrence has of its own; every other column it takes from its series. */
const OWN_COLUMNS = new Set<string>([
  'id', 'slug', 'sequence', 'parent_id', 'recurrence', 'original_start', 'override', 'recurrence_next',
  'start_local', 'end_local', 'start_utc', 'end_utc', 'timezone_abbr', 'modified_local', 'modified_utc',
]);

const sharedColumns = (series: EventRow) =>
  Object.fromEntries(Object.entries(series).filter(([key]) => !OWN_COLUMNS.has(key))) as Partial<EventColumns>;

function occurrenceDates(series: EventRow, slot: Occurrence) {
  const dates = eventDateColumns({ start_date: slot.start, end_date: slot.end, timezone: series.timezone, all_day: series.all_day === 1 }, undefined, series.timezone);
  if (!dates) throw new Error('an occurrence without dates');
  return { start_local: dates.start_local, end_local: dates.end_local, start_utc: dates.start_utc, end_utc: dates.end_utc, timezone_abbr: dates.timezone_abbr };
}

/** The occurrences the rules give through the horizon, other than the series' own start. */
async function wantedSlots(series: EventRow, ctx: SeriesContext) {
  const recurrence = JSON.parse(series.recurrence as string) as Recurrence;
  if (ctx.pastCap === 'refuse') checkCount(recurrence, ctx.maxOccurrences);
  // The horizon runs from now, or from the series' start when that is later (a series for next year).
  const from = writeStamp(ctx.now.setZone(series.timezone));
  const ahead = readStamp(from > series.start_local ? from : series.start_local, 'UTC').plus({ days: ctx.horizonDays });
  // Dates are four-digit years everywhere (text compares as time): the horizon ends with the year 9999.
  const through = ahead.year > 9999 ? '9999-12-31 23:59:59' : writeStamp(ahead);
  const max = ctx.maxOccurrences;
  const expansion = await expand({ start: series.start_local, end: series.end_local, zone: series.timezone, recurrence, through, max });
  if (expansion.capped && ctx.pastCap === 'refuse') {
    throw invalidParam('recurrence', `A series has at most ${max} occurrences (CAL_RECURRENCE_MAX_OCCURRENCES): these rules give more by ${through.slice(0, 10)}.`);
  }
  return { slots: expansion.occurrences.filter((slot) => slot.start !== series.start_local), next: expansion.capped ? null : expansion.next };
}

/** A rule's COUNT past the cap is refused at once, whatever the horizon shows of it. */
function checkCount(recurrence: Recurrence, max: number) {
  for (const rule of recurrence.rules) {
    const count = /(?:^|;)COUNT=(\d+)/i.exec(String(rule))?.[1];
    if (count !== undefined && Number(count) > max) {
      throw invalidParam('recurrence', `A series has at most ${max} occurrences (CAL_RECURRENCE_MAX_OCCURRENCES): these rules give more by ${`COUNT=${count}`}.`);
    }
  }
}

/**
 * Each wanted occurrence with the stored one that keeps its id: the same original start, else one from the
 * same day (the series' time moved), else (`inOrder`) the next one left (its weekday moved). A trashed
 * occurrence keeps only its own start: one deleted on its own is an exception, and stays in the trash.
 */
function pair(slots: Occurrence[], rows: EventRow[], inOrder: boolean): Map<Occurrence, EventRow> {
  const pairs = new Map<Occurrence, EventRow>();
  const free = new Set(rows);
  const claim = (slot: Occurrence, row: EventRow | undefined) => {
    if (!row) return;
    pairs.set(slot, row);
    free.delete(row);
  };
  const byStart = new Map(rows.map((row) => [row.original_start, row]));
  for (const slot of slots) claim(slot, byStart.get(slot.start));
  const live = () => rows.filter((row) => free.has(row) && row.status !== 'trash');
  const byDay = new Map<string, EventRow[]>();
  for (const row of live()) {
    const day = (row.original_start as string).slice(0, 10);
    byDay.set(day, [...(byDay.get(day) ?? []), row]);
  }
  for (const slot of slots) if (!pairs.has(slot)) claim(slot, byDay.get(slot.start.slice(0, 10))?.find((row) => free.has(row)));
  const rest = live();
  if (inOrder) for (const slot of slots) if (!pairs.has(slot) && rest.length > 0) claim(slot, rest.shift());
  return pairs;
}

/**
 * Overrides keep the occurrence they replace, followed to its new start when the series' time moved (their
 * RECURRENCE-ID); one whose occurrence the rules no longer give is an event of its own from then on.
 */
async function placeOverrides(repos: Repositories, slots: Occurrence[], overrides: EventRow[], ctx: SeriesContext): Promise<Occurrence[]> {
  const pairs = pair(slots, overrides, false);
  for (const [slot, row] of pairs) {
    if (row.original_start === slot.start) continue;
    await repos.events.update(row.id, { original_start: slot.start }, true);
    repos.changes.note({ kind: 'event', id: row.id, action: 'update', userId: ctx.userId });
  }
  const placed = new Set(pairs.values());
  const orphans = overrides.filter((row) => !placed.has(row)).map((row) => row.id);
  await repos.events.updateMany(orphans, { parent_id: 0, original_start: null, override: 0 }, true);
  for (const id of orphans) repos.changes.note({ kind: 'event', id, action: 'update', userId: ctx.userId });
  return slots.filter((slot) => !pairs.has(slot));
}

/** Free slugs for new occurrences: the series' slug and the date (`gig-2027-01-05`), numbered when taken. */
async function occurrenceSlugs(repos: Repositories, seriesSlug: string, slots: Occurrence[]): Promise<string[]> {
  const bases = slots.map((slot) => `${seriesSlug}-${slot.start.slice(0, 10)}`);
  // The names an event created meanwhile would lock for the same slugs (event-input.ts).
  await repos.lockName(bases.map((base) => `event-slug:${base}`));
  const taken = await repos.events.slugsStartingWith(seriesSlug);
  return bases.map((base) => {
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  });
}

/**
 * Brings a series' occurrences in line with the series: what it shares with them (title, venue, terms,
 * status...) copied, the rules' new dates created, the dates they no longer give deleted, each kept
 * occurrence keeping its id. Occurrences edited on their own (overrides) are left as they are. Writes, and
 * notes in the change log, only what differs.
 */
export async function materialize(repos: Repositories, seriesId: number, ctx: SeriesContext, rulesSent = false): Promise<void> {
  let series = await repos.events.findById(seriesId);
  if (!series) return;
  let members = await repos.events.seriesMembers(series.id);
  if (series.recurrence === null) return dissolve(repos, series, members, ctx);
  if (!rulesSent && series.original_start !== null && series.original_start !== series.start_local) {
    ({ series, members } = await followStart(repos, series, members, ctx));
  }
  const { slots: wanted, next } = await wantedSlots(series, ctx);
  const slots = await placeOverrides(repos, wanted, members.filter((row) => row.override === 1), ctx);
  const generated = members.filter((row) => row.override === 0);
  const pairs = pair(slots, generated, true);
  const kept = new Set(pairs.values());
  const dropped = generated.filter((row) => !kept.has(row) && row.status !== 'trash');
  const fresh = slots.filter((slot) => !pairs.has(slot));

  const shared = sharedColumns(series);
  const now = nowStamp(ctx.siteZone);
  const links = await repos.events.linkIdsOf([series.id, ...generated.map((row) => row.id)]);
  const termsOf = (id: number) => links.terms.get(id) ?? [];
  const organizersOf = (id: number) => links.organizers.get(id) ?? [];
  const [terms, organizers] = [termsOf(series.id), organizersOf(series.id)];
  const counted = { before: [] as number[], after: [] as number[] };
  const countAfter = () => (series.status === 'publish' ? terms : []);
  const relinked: number[] = [];

  for (const [slot, row] of pairs) {
    const wanted: Partial<EventColumns> = Object.assign({}, shared, occurrenceDates(series, slot), { original_start: slot.start });
    const changes = Object.fromEntries(Object.entries(wanted).filter(([key, value]) => row[key as keyof EventRow] !== value)) as Partial<EventColumns>;
    const linksDiffer = termsOf(row.id).join() !== terms.join() || organizersOf(row.id).join() !== organizers.join();
    if (row.status === 'publish') counted.before.push(...termsOf(row.id));
    counted.after.push(...countAfter());
    if (linksDiffer) relinked.push(row.id);
    if (Object.keys(changes).length === 0 && !linksDiffer) continue;
    await repos.events.update(row.id, Object.assign({}, changes, { modified_local: now.local, modified_utc: now.utc }), true);
    repos.changes.note({ kind: 'event', id: row.id, action: statusChange(row.status, changes.status), userId: ctx.userId });
  }
  if (relinked.length > 0) await repos.events.replaceLinks(relinked, terms, organizers);

  for (const row of dropped) if (row.status === 'publish') counted.before.push(...termsOf(row.id));
  await repos.events.removeMany(dropped.map((row) => row.id));
  for (const row of dropped) repos.changes.note({ kind: 'event', id: row.id, action: 'delete', userId: ctx.userId });

  if (fresh.length > 0) {
    const slugs = await occurrenceSlugs(repos, series.slug, fresh);
    const ids = await repos.events.insertMany(fresh.map((slot, i) => Object.assign({}, shared, occurrenceDates(series, slot), {
      slug: slugs[i], parent_id: series.id, recurrence: null, original_start: slot.start,
      override: 0, recurrence_next: null, modified_local: now.local, modified_utc: now.utc,
    }) as EventColumns));
    await repos.events.addLinks(ids.map((eventId) => ({ eventId, termIds: terms, organizerIds: organizers })));
    for (const id of ids) {
      repos.changes.note({ kind: 'event', id, action: 'create', userId: ctx.userId });
      counted.after.push(...countAfter());
    }
  }
  await moveTermCounts(repos, counted.before, counted.after);
  if (series.original_start !== series.start_local || series.recurrence_next !== next) {
    await repos.events.update(series.id, { original_start: series.start_local, recurrence_next: next });
  }
}

/**
 * The series' start moved (from its `original_start`, where it last was) and its rules were not sent with
 * it: its exceptions, extra dates and each occurrence's original start move by as much, so an occurrence
 * deleted at 18:00 stays deleted when the series moves to 18:30 (RFC 5545 keys them by exact time).
 */
async function followStart(repos: Repositories, series: EventRow, members: EventRow[], ctx: SeriesContext) {
  const ms = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);
  const delta = ms(series.start_local) - ms(series.original_start as string);
  const moved = (text: string) => new Date(ms(text) + delta).toISOString().slice(0, 19).replace('T', ' ');
  // A date alone moves with the day of the series' old start.
  const movedListed = (text: string) => (text.trim().length <= 10 ? moved(`${text.trim()} ${(series.original_start as string).slice(11)}`).slice(0, 10) : moved(`${text.trim().replace('T', ' ')}${text.trim().length === 16 ? ':00' : ''}`));
  const recurrence = JSON.parse(series.recurrence as string) as Recurrence;
  if (recurrence.rdates) recurrence.rdates = recurrence.rdates.map(movedListed);
  if (recurrence.exdates) recurrence.exdates = recurrence.exdates.map(movedListed).sort();
  const text = JSON.stringify(recurrence);
  if (text !== series.recurrence) await repos.events.update(series.id, { recurrence: text });
  for (const row of members) {
    if (row.original_start === null) continue;
    await repos.events.update(row.id, { original_start: moved(row.original_start) });
    // An override shows its original start (series.original_start) and is not written again below: its change
    // is noted here, so that kept copies of it are forgotten. The others are noted when their dates move below.
    if (row.override === 1) repos.changes.note({ kind: 'event', id: row.id, action: 'update', userId: ctx.userId });
  }
  return {
    series: { ...series, recurrence: text },
    members: members.map((row) => (row.original_start === null ? row : { ...row, original_start: moved(row.original_start) })),
  };
}

/**
 * A series whose recurrence was removed is a single event again: the occurrences its rules made go, those
 * edited on their own stay as events of their own.
 */
async function dissolve(repos: Repositories, series: EventRow, members: EventRow[], ctx: SeriesContext) {
  if (members.length === 0 && series.original_start === null && series.recurrence_next === null) return;
  const generated = members.filter((row) => row.override === 0);
  const links = await repos.events.linkIdsOf(generated.map((row) => row.id));
  await repos.events.removeMany(generated.map((row) => row.id));
  await moveTermCounts(repos, generated.filter((row) => row.status === 'publish').flatMap((row) => links.terms.get(row.id) ?? []), []);
  for (const row of generated) repos.changes.note({ kind: 'event', id: row.id, action: 'delete', userId: ctx.userId });
  const overrides = members.filter((row) => row.override === 1).map((row) => row.id);
  await repos.events.updateMany(overrides, { parent_id: 0, original_start: null, override: 0 }, true);
  for (const id of overrides) repos.changes.note({ kind: 'event', id, action: 'update', userId: ctx.userId });
  await repos.events.update(series.id, { original_start: null, recurrence_next: null });
}

/** Deleting a series deletes its occurrences; trashing it trashes them (restoring it brings its rules' ones back). */
export async function deleteOccurrences(repos: Repositories, series: EventRow, force: boolean, ctx: SeriesContext) {
  const members = await repos.events.seriesMembers(series.id);
  const affected = force ? members : members.filter((row) => row.status !== 'trash');
  if (affected.length === 0) return;
  const links = await repos.events.linkIdsOf(affected.map((row) => row.id));
  await moveTermCounts(repos, affected.filter((row) => row.status === 'publish').flatMap((row) => links.terms.get(row.id) ?? []), []);
  const ids = affected.map((row) => row.id);
  const now = nowStamp(ctx.siteZone);
  if (force) await repos.events.removeMany(ids);
  else await repos.events.updateMany(ids, { status: 'trash', modified_local: now.local, modified_utc: now.utc }, true);
  for (const id of ids) repos.changes.note({ kind: 'event', id, action: force ? 'delete' : 'trash', userId: ctx.userId });
}

/**
 * An occurrence deleted (or trashed) on its own becomes an exception of its series, so its rules do not
 * bring it back; restored, it is one no more (`add` false).
 */
export async function setException(repos: Repositories, occurrence: EventRow, add: boolean, ctx: SeriesContext) {
  if (!isOccurrence(occurrence)) return;
  await repos.events.lockStatus(occurrence.parent_id);
  // Read again under the series' lock: a series edit may have moved its original start since.
  const current = await repos.events.findById(occurrence.id);
  const series = await repos.events.findById(occurrence.parent_id);
  if (!series?.recurrence || !current || !isOccurrence(current)) return;
  const recurrence = JSON.parse(series.recurrence) as Recurrence;
  const at = current.original_start as string;
  const exdates = new Set(recurrence.exdates ?? []);
  if (exdates.has(at) === add) return;
  if (add) exdates.add(at);
  else exdates.delete(at);
  if (exdates.size > 0) recurrence.exdates = [...exdates].sort();
  else delete recurrence.exdates;
  const now = nowStamp(ctx.siteZone);
  await repos.events.update(series.id, { recurrence: JSON.stringify(recurrence), modified_local: now.local, modified_utc: now.utc }, true);
  repos.changes.note({ kind: 'event', id: series.id, action: 'update', userId: ctx.userId });
}
