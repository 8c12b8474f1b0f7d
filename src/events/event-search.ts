import { plainText } from '../posts/html.ts';

/**
 * What an event search reads besides the title: the words of the description and excerpt without their
 * markup, so `search=p` does not find every event with a paragraph. Kept in `event.search_text`, written
 * with the HTML it comes from (event-input.ts, migration 0007, the bench seed).
 */
export function searchText(description: string, excerpt: string): string {
  return [plainText(description), plainText(excerpt)].filter((text) => text !== '').join('\n');
}
