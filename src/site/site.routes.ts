import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { EventListQuery } from '../events/event.schemas.ts';
import { notFound } from '../errors.ts';
import { Flag, optional } from '../http/schema-types.ts';
import type { TermService } from '../terms/term.service.ts';
import { type Archive, type ListingQuery, listingPages } from './listing-pages.tsx';
import { isRealDay, isRealMonth } from './month-grid.ts';
import { createPageCache } from './page-cache.ts';
import { PASSWORD_COOKIE, recordPages } from './record-pages.tsx';
import type { SiteServices } from './site-services.ts';
import { WORDS, type Words } from './site-words.ts';
import { STYLESHEET } from './views/layout.tsx';

const {
  page, categories, tags, venue, organizer, featured, search, start_date, end_date, geoloc, geoloc_lat, geoloc_lng, geoloc_radius, geoloc_bbox,
  post_parent, hide_subsequent_recurrences,
} = EventListQuery.properties;
const ical = Flag('The same selection as iCalendar');
// The REST list's own parameter schemas: a page takes what the API takes, and rejects what it rejects.
const ListingQuerySchema = Type.Object({
  page, categories, tags, venue, organizer, featured, search, start_date, end_date, geoloc, geoloc_lat, geoloc_lng, geoloc_radius, geoloc_bbox,
  post_parent, hide_subsequent_recurrences,
  ...optional({ ical }),
});
const RecordQuerySchema = Type.Object({ page, ...optional({ ical }) });
const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 200 }) });

// Served from the sources (tsx) or from dist/src/site/ after a build: the stylesheet stays in the sources.
const stylesheetFile = [new URL('./assets/cal-events.css', import.meta.url), new URL('../../../src/site/assets/cal-events.css', import.meta.url)].find(existsSync);
if (!stylesheetFile) throw new Error('src/site/assets/cal-events.css is missing: the pages cannot be served without it');
const stylesheet = readFileSync(stylesheetFile);

const slugOf = (request: FastifyRequest) => (request.params as { slug: string }).slug.toLowerCase();
const wordsOf = (request: FastifyRequest): Words => WORDS[request.language];

/** The calendar's pages: one behind every `url` the API returns, in every language it serves. */
export function registerSiteRoutes(app: FastifyInstance, services: SiteServices) {
  const listings = listingPages(services);
  const records = recordPages(services);
  const cache = createPageCache({ dataVersion: services.dataVersion, timezone: services.config.timezone, cookie: PASSWORD_COOKIE });
  const page = { config: { site: true }, preHandler: cache.lookup, onSend: cache.keep };
  const listing = { ...page, schema: { querystring: ListingQuerySchema } };

  /** A category's or tag's archive: 404 when no term has the slug. */
  const termArchive = (terms: TermService, base: string, heading: (words: Words, name: string) => string) =>
    async (request: FastifyRequest): Promise<Archive> => {
      const slug = slugOf(request);
      const term = (await terms.list({ slug, hide_empty: false, per_page: 1 })).items[0];
      if (!term) throw notFound('rest_term_invalid', 'Term does not exist.');
      const filter = terms.kind.plural === 'categories' ? { categories: [term.id] } : { tags: [term.id] };
      return { base: `${base}/${encodeURIComponent(term.slug)}`, heading: heading(wordsOf(request), term.name), fixed: filter };
    };
  const archives: Array<[string, (request: FastifyRequest) => Promise<Archive>]> = [
    ['/events', async (request) => ({ base: '/events', heading: wordsOf(request).events, fixed: {} })],
    ['/events/category/:slug', termArchive(services.categories, '/events/category', (w, name) => w.eventsIn(name))],
    ['/events/tag/:slug', termArchive(services.tags, '/events/tag', (w, name) => w.eventsTagged(name))],
    // WordPress's own tag archive, the `url` the API gives a tag.
    ['/tag/:slug', termArchive(services.tags, '/tag', (w, name) => w.eventsTagged(name))],
  ];

  for (const [prefix, archiveOf] of archives) {
    const query = (request: FastifyRequest) => request.query as ListingQuery;
    for (const path of [`${prefix}/`, `${prefix}/list/`]) {
      app.get(path, listing, async (request, reply) => listings.list(request, reply, await archiveOf(request), query(request)));
    }
    app.get(`${prefix}/month/`, listing, async (request, reply) => listings.month(request, reply, await archiveOf(request), query(request)));
    app.get(`${prefix}/month/:month/`, listing, async (request, reply) => {
      const { month } = request.params as { month: string };
      if (!isRealMonth(month)) throw notFound('rest_no_route', 'No route was found matching the URL and request method.');
      return listings.month(request, reply, await archiveOf(request), query(request), month);
    });
    app.get(`${prefix}/today/`, listing, async (request, reply) => listings.day(request, reply, await archiveOf(request), query(request)));
    app.get(`${prefix}/:day(^\\d{4}-\\d{2}-\\d{2}$)/`, listing, async (request, reply) => {
      const { day } = request.params as { day: string };
      if (!isRealDay(day)) throw notFound('rest_no_route', 'No route was found matching the URL and request method.');
      return listings.day(request, reply, await archiveOf(request), query(request), day);
    });
  }

  const recordRoute = { ...page, schema: { params: SlugParams, querystring: RecordQuerySchema } };
  app.get('/event/:slug/', recordRoute, (request, reply) => records.event(request, reply, slugOf(request), request.query as { ical?: boolean }));
  app.post('/event/:slug/', {
    config: { site: true, anonymousForm: true },
    schema: { params: SlugParams, body: Type.Object(optional({ post_password: Type.String({ maxLength: 1000 }) })) },
  }, (request, reply) => records.unlock(request, reply, slugOf(request), request.body as { post_password?: string }));
  app.get('/venue/:slug/', recordRoute, (request, reply) => records.venue(request, reply, slugOf(request), request.query as { page?: number }));
  app.get('/organizer/:slug/', recordRoute, (request, reply) => records.organizer(request, reply, slugOf(request), request.query as { page?: number }));

  const etag = `"${createHash('sha256').update(stylesheet).digest('base64url').slice(0, 16)}"`;
  app.get(STYLESHEET, (request, reply) => {
    void reply.header('ETag', etag).header('Cache-Control', 'public, max-age=86400');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('text/css; charset=utf-8').send(stylesheet);
  });
}
