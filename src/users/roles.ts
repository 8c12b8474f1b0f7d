/**
 * WordPress's standard roles and the capability rules of the reference (its §7), for the post-like
 * records (events, venues, organizers) and for terms.
 */
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

export interface Caller {
  id: number;
  login: string;
  role: Role;
}

/** The parts of a stored record the rules look at. */
export interface Owned {
  author_id: number;
  status: string;
}

const rank: Record<Role, number> = { administrator: 4, editor: 3, author: 2, contributor: 1, subscriber: 0 };
const atLeast = (caller: Caller | null, role: Role) => caller !== null && rank[caller.role] >= rank[role];

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** `edit_posts`: may create, and sees every status in lists. */
export const canCreate = (caller: Caller | null) => atLeast(caller, 'contributor');
/** `publish_posts`: without it, `publish`/`future` are scaled back to `pending`. */
export const canPublish = (caller: Caller | null) => atLeast(caller, 'author');
/** `edit_others_posts`: may act on everyone's records and name another author. */
export const canEditOthers = (caller: Caller | null) => atLeast(caller, 'editor');
/** `manage_terms` plus `edit_posts`: categories and tags need an editor (our contract). */
export const canManageTerms = (caller: Caller | null) => atLeast(caller, 'editor');
/** Webhooks send data to other systems: administrators only (WordPress's manage_options). */
export const canManageWebhooks = (caller: Caller | null) => atLeast(caller, 'administrator');

/** `edit_post` / `delete_post` on one record: contributors only their own unpublished drafts. */
export function canEdit(caller: Caller | null, record: Owned): boolean {
  if (caller === null) return false;
  if (canEditOthers(caller)) return true;
  if (record.author_id !== caller.id) return false;
  if (caller.role === 'author') return true;
  return caller.role === 'contributor' && (record.status === 'draft' || record.status === 'pending');
}

/**
 * `delete_post` on one record. Like `edit_post`, except that WordPress lets a contributor delete their own
 * trashed record too (`delete_posts` covers every unpublished status), so a second delete of it is the
 * reference's 410 "already trashed", not 403.
 */
export function canDelete(caller: Caller | null, record: Owned): boolean {
  if (caller?.role === 'contributor' && record.author_id === caller.id && record.status === 'trash') return true;
  return canEdit(caller, record);
}

/** `read_post`: public when published; otherwise whoever may edit it (private: editors and the author). */
export function canRead(caller: Caller | null, record: Owned): boolean {
  if (record.status === 'publish') return true;
  if (caller === null) return false;
  if (record.status === 'private') return canEditOthers(caller) || record.author_id === caller.id;
  return canEdit(caller, record);
}

/** The reference's `scale_back_post_status`: what a caller asks for versus what it may have. */
export function scaleBackStatus(caller: Caller, requested: string | undefined): string {
  if (canPublish(caller)) return requested ?? 'publish';
  if (requested === undefined) return 'draft';
  return requested === 'publish' || requested === 'future' ? 'pending' : requested;
}
