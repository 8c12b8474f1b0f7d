import type { OrganizerTable } from '../db/database.ts';
import { globalIds, type LinkedPostKind, recordHead, textColumns } from '../linked-posts/linked-post.kind.ts';

export const organizerKind: LinkedPostKind<'organizer'> = {
  table: 'organizer',
  nameField: 'organizer',
  plural: 'organizers',
  permalinkPrefix: 'organizer',
  label: 'organizer',
  searchColumns: ['title', 'description', 'excerpt', 'phone', 'email', 'website'],

  ownColumns: (input, existing) => textColumns(input, ['phone', 'website', 'email'], !existing),

  // Object.assign, not a literal that starts by spreading the head: see venue.kind.ts.
  toRecord(row, { image, urls, importedFrom }, single) {
    return Object.assign(recordHead(row, urls.permalink('organizer', row.slug)), {
      organizer: row.title,
      description: row.description,
      excerpt: row.excerpt,
      slug: row.slug,
      image,
      phone: row.phone,
      website: row.website,
      email: row.email,
    }, single ? { json_ld: organizerJsonLd(row) } : undefined, globalIds(urls, row.id, importedFrom));
  },
};

export function organizerJsonLd(row: OrganizerTable) {
  return {
    '@type': 'Person',
    name: row.title,
    description: row.description.replace(/<[^>]*>/g, '').trim(),
    url: row.website,
    telephone: row.phone,
    email: row.email,
    sameAs: row.website,
  };
}
