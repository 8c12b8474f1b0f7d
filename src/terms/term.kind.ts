export type Taxonomy = 'tribe_events_cat' | 'post_tag';

/**
 * What makes categories and tags differ; everything else (validation, permissions, lists) is one
 * implementation for both, as WordPress's terms controller is one class for every taxonomy.
 */
export interface TermKind {
  taxonomy: Taxonomy;
  /** The list envelope key and the path segment. */
  plural: 'categories' | 'tags';
  label: 'category' | 'tag';
  /** Only hierarchical taxonomies have `parent` (input, output and list filter). */
  hierarchical: boolean;
  /** Where the site's HTML archive of a term lives: `<origin>/<prefix>/<slug>/`. */
  permalinkPrefix: string;
}

export const categoryKind: TermKind = {
  taxonomy: 'tribe_events_cat',
  plural: 'categories',
  label: 'category',
  hierarchical: true,
  permalinkPrefix: 'events/category',
};

export const tagKind: TermKind = {
  taxonomy: 'post_tag',
  plural: 'tags',
  label: 'tag',
  hierarchical: false,
  permalinkPrefix: 'tag',
};

export const termKindOf = (taxonomy: Taxonomy): TermKind => (taxonomy === tagKind.taxonomy ? tagKind : categoryKind);
