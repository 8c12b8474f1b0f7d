import type { EventRow } from '../events/event.repository.ts';
import type { Repositories } from '../store.ts';
import { nowStamp } from '../time/clock.ts';
import { expand, type Recurrence, wallUntil } from './expand.ts';
import { materialize, type SeriesContext } from './series.ts';

// "This and the following" (recurrence_scope=following): a series cut in two at one of its occurrences,
// which becomes a series of its own, its rules what the old ones give from there on (issue 12).

/**
 * "This and the following": the series ends before this occurrence, which becomes a series of its own with
 * the rest of the rules and the occurrences after it (their ids kept). Returns nothing: the caller then
 * applies its edit to the new series like any other.
 */
export async function split(repos: Repositories, occurrence: EventRow, ctx: SeriesContext): Promise<void> {
  await repos.events.lockStatus(occurrence.parent_id);
  const series = await repos.events.findById(occurrence.parent_id);
  const cut = occurrence.original_start;
  if (!series?.recurrence || cut === null) return;
  const { before, after } = await divide(JSON.parse(series.recurrence) as Recurrence, series, cut);
  const now = nowStamp(ctx.siteZone);
  const modified = { modified_local: now.local, modified_utc: now.utc };
  await repos.events.update(series.id, { recurrence: JSON.stringify(before), ...modified }, true);
  repos.changes.note({ kind: 'event', id: series.id, action: 'update', userId: ctx.userId });
  await repos.events.update(occurrence.id, { parent_id: 0, override: 0, recurrence: after && JSON.stringify(after), ...modified }, true);
  repos.changes.note({ kind: 'event', id: occurrence.id, action: 'update', userId: ctx.userId });
  // The following occurrences name another series from now on (series.id): their changes are noted, even
  // those the new series' rules then leave as they are, so that no kept copy names the old series.
  const following = (await repos.events.seriesMembers(series.id)).filter((row) => row.original_start !== null && row.original_start >= cut && row.id !== occurrence.id);
  await repos.events.reparent(series.id, occurrence.id, cut);
  for (const row of following) repos.changes.note({ kind: 'event', id: row.id, action: 'update', userId: ctx.userId });
  await materialize(repos, series.id, ctx);
  await materialize(repos, occurrence.id, ctx);
}

/** A recurrence cut at an original start: the rules ending before it, and what they give from it on (null: nothing). */
async function divide(recurrence: Recurrence, series: EventRow, cut: string): Promise<{ before: Recurrence; after: Recurrence | null }> {
  const lastBefore = DateTimeText.minusSecond(cut);
  const beforeRules: string[] = [];
  const afterRules: string[] = [];
  for (const rule of recurrence.rules) {
    const parts = new Map(rule.split(';').filter(Boolean).map((part) => part.split('=') as [string, string]));
    const until = parts.get('UNTIL');
    const count = parts.get('COUNT');
    const ending = new Map(parts);
    ending.delete('COUNT');
    // UNTIL as floating local time (RFC 5545 form 1): the last second before the cut, or the rule's own if earlier.
    const ends = until === undefined ? undefined : wallUntil(until, series.timezone, rule);
    const untilBefore = until && ends && ends < lastBefore ? until : DateTimeText.compact(lastBefore);
    ending.set('UNTIL', untilBefore);
    beforeRules.push(joinRule(ending));
    if (ends !== undefined && ends < cut) continue;
    if (count !== undefined) {
      // COUNT counts from the series' start: what this rule gave before the cut is spent.
      const spent = (await expand({ start: series.start_local, end: series.end_local, zone: series.timezone, recurrence: { rules: [rule] }, through: lastBefore, max: Number(count) })).occurrences.length;
      if (Number(count) - spent <= 0) continue;
      parts.set('COUNT', String(Number(count) - spent));
    }
    afterRules.push(joinRule(parts));
  }
  const [rdatesBefore, rdatesAfter] = partition(recurrence.rdates, cut);
  const [exdatesBefore, exdatesAfter] = partition(recurrence.exdates, cut);
  const withLists = (rules: string[], rdates: string[], exdates: string[]): Recurrence => ({
    rules, ...(rdates.length > 0 ? { rdates } : {}), ...(exdates.length > 0 ? { exdates } : {}),
  });
  return {
    before: withLists(beforeRules, rdatesBefore, exdatesBefore),
    after: afterRules.length > 0 ? withLists(afterRules, rdatesAfter, exdatesAfter) : null,
  };
}

const joinRule = (parts: Map<string, string>) => [...parts].map(([key, value]) => `${key}=${value}`).join(';');

/** Dates listed before the cut, and from it on (a date alone goes with its day). */
function partition(dates: string[] | undefined, cut: string): [string[], string[]] {
  const all = dates ?? [];
  const before = all.filter((date) => (date.length <= 10 ? date < cut.slice(0, 10) : date.replace('T', ' ') < cut));
  return [before, all.filter((date) => !before.includes(date))];
}

const DateTimeText = {
  minusSecond: (text: string) => new Date(Date.parse(`${text.replace(' ', 'T')}Z`) - 1000).toISOString().slice(0, 19).replace('T', ' '),
  compact: (text: string) => text.replace(/[-:]/g, '').replace(' ', 'T'),
};
