import type { Migration } from 'kysely';
import * as initial from './0001-initial.ts';
import * as listSpeed from './0002-list-speed.ts';
import * as termCounts from './0003-term-counts.ts';
import * as slugPrefixes from './0004-slug-prefixes.ts';
import * as feedRevisions from './0005-feed-revisions.ts';
import * as tzdbAbbreviations from './0006-tzdb-abbreviations.ts';
import * as searchText from './0007-search-text.ts';
import * as importLineage from './0008-import-lineage.ts';
import * as changeLog from './0009-change-log.ts';
import * as webhooks from './0010-webhooks.ts';
import * as unloggedWrites from './0011-unlogged-writes.ts';
import * as termNameIndex from './0012-term-name-index.ts';
import * as venueCoordinates from './0013-venue-coordinates.ts';
import * as eventVenueWindow from './0014-event-venue-window.ts';
import * as recurringSeries from './0015-recurring-series.ts';
import * as pendingChanges from './0016-pending-changes.ts';
import * as storedTexts from './0017-stored-texts.ts';
import * as storedTextDigests from './0018-stored-text-digests.ts';
import * as storedTextChecks from './0019-stored-text-checks.ts';
import * as storedTextFingerprints from './0020-stored-text-fingerprints.ts';
import * as credentialsVersion from './0021-credentials-version.ts';

/** Ordered by name; a shipped migration is never edited, a change is a new entry. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-list-speed': listSpeed,
  '0003-term-counts': termCounts,
  '0004-slug-prefixes': slugPrefixes,
  '0005-feed-revisions': feedRevisions,
  '0006-tzdb-abbreviations': tzdbAbbreviations,
  '0007-search-text': searchText,
  '0008-import-lineage': importLineage,
  '0009-change-log': changeLog,
  '0010-webhooks': webhooks,
  '0011-unlogged-writes': unloggedWrites,
  '0012-term-name-index': termNameIndex,
  '0013-venue-coordinates': venueCoordinates,
  '0014-event-venue-window': eventVenueWindow,
  '0015-recurring-series': recurringSeries,
  '0016-pending-changes': pendingChanges,
  '0017-stored-texts': storedTexts,
  '0018-stored-text-digests': storedTextDigests,
  '0019-stored-text-checks': storedTextChecks,
  '0020-stored-text-fingerprints': storedTextFingerprints,
  '0021-credentials-version': credentialsVersion,
};
