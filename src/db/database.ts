import type { Generated, Kysely } from 'kysely';

/**
 * Table types, one interface per table. Timestamps are `YYYY-MM-DD HH:MM:SS` text (UTC or site-local as
 * the column says), which sorts correctly and reads the same on SQLite and PostgreSQL; flags are 0/1.
 */
export interface UserTable {
  id: Generated<number>;
  login: string;
  email: string;
  display_name: string;
  role: string;
  created_utc: string;
}

export interface AppPasswordTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** SHA-256 of the generated secret: it has 144 bits of entropy, so a fast hash is safe and allows lookup. */
  token_hash: string;
  created_utc: string;
}

/** One id sequence shared by every post-like record, so ids (and global ids) never collide across kinds. */
export interface PostTable {
  id: Generated<number>;
  type: string;
}

export interface ImageTable {
  id: number;
  url: string;
  extension: string;
  created_utc: string;
}

/** Columns every post-like record (venue, organizer, event) has. */
export interface PostColumns {
  id: number;
  author_id: number;
  status: string;
  slug: string;
  title: string;
  description: string;
  excerpt: string;
  image_id: number | null;
  date_local: string;
  date_utc: string;
  modified_local: string;
  modified_utc: string;
}

export interface VenueTable extends PostColumns {
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  stateprovince: string;
  show_map: number;
  show_map_link: number;
  /** Degrees (WGS 84), both or neither (migration 0013). */
  geo_lat: number | null;
  geo_lng: number | null;
}

export interface OrganizerTable extends PostColumns {
  phone: string;
  website: string;
  email: string;
}

export interface TermTable {
  id: Generated<number>;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent_id: number;
  /** Published events using the term, kept by every event write (WordPress's term count). */
  count: Generated<number>;
}

export interface DataVersionTable {
  id: number;
  version: number;
  /** When the last write committed, `YYYY-MM-DD HH:MM:SS.mmm` UTC by the database's clock. */
  changed_utc: Generated<string>;
  /** The version of the last write that noted no change in the change log (migration 0011). */
  unlogged_version: Generated<number>;
  /** Moved by the database on every change of a user or an application password (migration 0021). */
  credentials_version: Generated<number>;
}

export interface Database {
  data_version: DataVersionTable;
  user: UserTable;
  app_password: AppPasswordTable;
  post: PostTable;
  image: ImageTable;
  venue: VenueTable;
  organizer: OrganizerTable;
  term: TermTable;
  event: EventTable;
  event_term: EventTermTable;
  event_organizer: EventOrganizerTable;
  event_text: EventTextTable;
  import_lineage: ImportLineageTable;
  change_log: ChangeLogTable;
  /** Changes committed on PostgreSQL, not yet given their place in the log (migration 0016). */
  change_pending: Omit<ChangeLogTable, 'seq'> & { id: Generated<number> };
  change_log_horizon: { id: number; pruned_through: number };
  webhook: WebhookTable;
  webhook_delivery: WebhookDeliveryTable;
  webhook_attempt: WebhookAttemptTable;
}

/** A webhook subscription (migration 0010); `kinds`/`actions` are comma-separated, '' for all. */
export interface WebhookTable {
  id: Generated<number>;
  url: string;
  kinds: string;
  actions: string;
  category_id: number | null;
  secret: string;
  enabled: number;
  disabled_reason: string;
  cursor: number;
  created_utc: string;
}

/** One change to send to one subscription: `pending` until `delivered` or `failed`. */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  webhook_id: number;
  change_seq: number;
  kind: string;
  record_id: number;
  action: string;
  changed_utc: string;
  user_id: number | null;
  status: string;
  attempts: Generated<number>;
  next_attempt_utc: string;
  locked_until: Generated<string>;
  delivered_utc: Generated<string>;
}

export interface WebhookAttemptTable {
  id: Generated<number>;
  delivery_id: number;
  attempted_utc: string;
  status: number | null;
  error: string;
  duration_ms: number;
}

/** One change to a record (migration 0009); `seq` is assigned by the database, in commit order. */
export interface ChangeLogTable {
  seq: Generated<number>;
  kind: string;
  record_id: number;
  action: string;
  changed_utc: string;
  user_id: number | null;
}

/** A record brought in by `cal-events import`, by the source's key (migration 0008). */
export interface ImportLineageTable {
  kind: string;
  source_key: string;
  local_id: number;
  source_modified: string;
}

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface EventTable extends PostColumns {
  password: string;
  parent_id: number;
  timezone: string;
  timezone_abbr: string;
  all_day: number;
  /** Wall-clock time in the event's time zone, and the same instants in UTC. */
  start_local: string;
  end_local: string;
  start_utc: string;
  end_utc: string;
  /** The cost values as sent, a JSON array of strings; '[]' when there is none. */
  cost: string;
  /** NULL until a website is set: the output then shows the permalink, as the reference does. */
  website: string | null;
  show_map: number;
  show_map_link: number;
  hide_from_listings: number;
  sticky: number;
  featured: number;
  venue_id: number | null;
  /** The plain text of description and excerpt, which a search reads (event-search.ts; migration 0007). */
  search_text: string;
  /** A series' rules, rdates and exdates (JSON, recurrence/expand.ts); NULL for any other event (migration 0015). */
  recurrence: string | null;
  /** The wall-clock start the rules gave this occurrence (or the series' own start); NULL outside a series. */
  original_start: string | null;
  /** 1 for an occurrence edited on its own, which edits of its series leave alone. */
  override: number;
  /** The first wall-clock start a series' rules give beyond its occurrences; NULL when none (or outside a series). */
  recurrence_next: string | null;
  /** RFC 5545 SEQUENCE: 0 when created, one more with each update that changes the event (the repository keeps it). */
  sequence: Generated<number>;
  /** Moves with every change that can change the event's record, kept by the database (migration 0017). */
  revision: Generated<number>;
}

/** An event's own part of its record, stored ready to serve while `revision` is the event's (migration 0017). */
export interface EventTextTable {
  event_id: number;
  revision: number;
  fingerprint: string;
  links: string;
  body: string;
  /** The body's digest (migration 0018); none for a text stored before it. */
  digest: string | null;
  /** The event's checked columns as they were at `revision` (migration 0019): a text is deleted when that moves. */
  slug: string;
  status: string;
  author_id: number;
  password: string;
  venue_id: number | null;
}

export interface EventTermTable {
  event_id: number;
  term_id: number;
}

export interface EventOrganizerTable {
  event_id: number;
  organizer_id: number;
  position: number;
}
