import type { Config } from '../config.ts';
import type { EventService } from '../events/event.service.ts';
import type { FeedService } from '../feeds/feed.service.ts';
import type { Urls } from '../http/urls.ts';
import type { LinkedPostService } from '../linked-posts/linked-post.service.ts';
import type { TermService } from '../terms/term.service.ts';

/** What the pages are made from: the API's own services (so pages and API cannot disagree) and the feeds. */
export interface SiteServices {
  events: EventService;
  venues: LinkedPostService<'venue'>;
  organizers: LinkedPostService<'organizer'>;
  categories: TermService;
  tags: TermService;
  feeds: FeedService;
  urls: Urls;
  config: Config;
  /** The data version (see db/store.ts): rendered pages are reused until the next write. */
  dataVersion(): Promise<number>;
}
