import type { Repositories } from '../store.ts';
import type { EventWrite } from './event-input.ts';

/** What a write says about an event's categories, tags and organizers (absent: unchanged). */
export type EventLinks = Omit<EventWrite, 'columns'>;

/** What an event contributes to term counts: its terms, when it is published (WordPress's term count). */
export async function countedTerms(repos: Repositories, eventId: number, status: string | undefined): Promise<number[]> {
  return status === 'publish' ? repos.events.termIdsOf(eventId) : [];
}

/** Counts move by the difference (+1 a term now counted, -1 a term no longer): no recount of all links. */
export async function moveTermCounts(repos: Repositories, before: number[], after: number[]) {
  const deltas = new Map<number, number>();
  for (const id of before) deltas.set(id, (deltas.get(id) ?? 0) - 1);
  for (const id of after) deltas.set(id, (deltas.get(id) ?? 0) + 1);
  await repos.terms.addToCounts(deltas);
}

export async function saveLinks(repos: Repositories, id: number, links: EventLinks) {
  if (links.categories) await repos.events.setTerms(id, 'tribe_events_cat', links.categories);
  if (links.tags) await repos.events.setTerms(id, 'post_tag', links.tags);
  if (links.organizers) await repos.events.setOrganizers(id, links.organizers);
}

/** Whether the sent terms (a set: records order them by name) or organizers (a sequence) differ from the stored ones. */
export async function linksChanged(repos: Repositories, id: number, links: EventLinks): Promise<boolean> {
  const [terms, organizerLinks] = await Promise.all([repos.events.termsOf([id]), repos.events.organizerLinksOf([id])]);
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b).join();
  const storedTerms = (taxonomy: string) => sorted(terms.filter((t) => t.taxonomy === taxonomy).map((t) => t.id));
  return (
    (links.categories !== undefined && sorted(links.categories) !== storedTerms('tribe_events_cat')) ||
    (links.tags !== undefined && sorted(links.tags) !== storedTerms('post_tag')) ||
    (links.organizers !== undefined && links.organizers.join() !== organizerLinks.map((l) => l.organizer_id).join())
  );
}
