import { invalidParam } from '../errors.ts';
import { type Caller, canCreate } from '../users/roles.ts';

/**
 * Which statuses a list shows (reference §7): callers who cannot edit see `publish` only and may ask for
 * nothing else (400); editing callers default to every status but trash.
 */
export function listStatuses(caller: Caller | null, requested: string[] | undefined): string[] | 'any' {
  if (!canCreate(caller)) {
    if (requested && requested.some((s) => s !== 'publish')) throw invalidParam('status', 'Only published records can be listed.');
    return ['publish'];
  }
  if (!requested || requested.length === 0 || requested.includes('any')) return 'any';
  return [...new Set(requested)];
}
