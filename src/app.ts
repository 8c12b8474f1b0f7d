import { existsSync, readFileSync } from 'node:fs';
import type { DateTime } from 'luxon';
import pino from 'pino';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import pretty from 'pino-pretty';
import type { Config } from './config.ts';
import type { DbHandle } from './db/create-db.ts';
import { requestArrived } from './db/read-generation.ts';
import { createStore } from './store.ts';
import { registerAccessLog } from './http/access-log.ts';
import { registerAnswerBytes } from './http/answer-bytes.ts';
import { chunkedLines } from './http/log-lines.ts';
import { registerAuth } from './users/auth.ts';
import { registerEventRoutes } from './events/event.routes.ts';
import { createChangeWatch } from './changes/change-watch.ts';
import { createEventService } from './events/event.service.ts';
import { registerDocsRoutes } from './docs/docs.routes.ts';
import { collectRoutes } from './docs/route-registry.ts';
import { registerAllowHeader } from './http/allow.ts';
import { registerCors } from './http/cors.ts';
import { answerClientError } from './http/client-errors.ts';
import { registerHealth } from './http/health.ts';
import { registerMetrics } from './http/metrics.ts';
import { createRateLimits } from './http/rate-limit.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { type ErrorAnswer, registerErrorHandling } from './http/error-handler.ts';
import { parseQueryString, registerRequestParsing } from './http/request-parsing.ts';
import { createUrls } from './http/urls.ts';
import { rememberZoneOffsets } from './time/zone-offsets.ts';
import { defineGeoFunctions } from './geo/geo.ts';
import { registerWpJsonLinks, WP_ROOT, wpJsonRewriter } from './http/wp-json.ts';
import { serializerCompiler } from './http/serialization.ts';
import { validatorCompiler } from './http/validation.ts';
import { createLinkedPostService } from './linked-posts/linked-post.service.ts';
import { organizerKind } from './organizers/organizer.kind.ts';
import { registerOrganizerRoutes } from './organizers/organizer.routes.ts';
import { registerTermRoutes } from './terms/term.routes.ts';
import { categoryKind, tagKind } from './terms/term.kind.ts';
import { createTermService } from './terms/term.service.ts';
import { registerChangeRoutes } from './changes/change.routes.ts';
import { registerRecurrenceRoutes } from './recurrence/recurrence.routes.ts';
import { createRecurrenceService } from './recurrence/recurrence.service.ts';
import { createChangeService } from './changes/change.service.ts';
import { createFeedService } from './feeds/feed.service.ts';
import { createWebhookDispatcher } from './webhooks/dispatcher.ts';
import { registerWebhookRoutes } from './webhooks/webhook.routes.ts';
import { createWebhookService } from './webhooks/webhook.service.ts';
import { registerSiteRoutes } from './site/site.routes.ts';
import { SITE_ROOTS, sitePresenter } from './site/site-render.tsx';
import { languageRewriter, registerLanguage } from './i18n/http.ts';
import { createUserService } from './users/user.service.ts';
import { venueKind } from './venues/venue.kind.ts';
import { registerVenueRoutes } from './venues/venue.routes.ts';

// src/app.ts runs from the sources (tsx) or compiled into dist/src/app.js: the package file is one or two up.
const packageFile = [new URL('../package.json', import.meta.url), new URL('../../package.json', import.meta.url)].find(existsSync);
const VERSION: string = packageFile ? JSON.parse(readFileSync(packageFile, 'utf8')).version : '0.0.0';

declare module 'fastify' {
  interface FastifyInstance {
    /** Moves the horizon of open-ended recurring series on now (as of `now`); the app also does it hourly. */
    extendSeries(now?: DateTime): Promise<void>;
    /**
     * Stores the text of every event without a valid one (events/stored-texts.ts) until `stopped`, looking at
     * a range of `ids` ids a statement; how many.
     */
    storeEventTexts(stopped: () => boolean, ids?: number): Promise<number>;
  }
}

export interface BuildAppOptions {
  config: Config;
  database: DbHandle;
  logger?: FastifyServerOptions['logger'];
}


/** Where log lines go: stdout in pino's JSON, or pino-pretty's readable lines when stdout is a terminal. */
function logDestination() {
  return process.stdout.isTTY
    ? pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' })
    : chunkedLines(pino.destination({ dest: 1, sync: false, minLength: 4096 }));
}

/** Wires repositories -> services -> plugins -> routes, by hand. */
export async function buildApp({ config, database, logger }: BuildAppOptions): Promise<FastifyInstance> {
  rememberZoneOffsets();
  defineGeoFunctions(database);
  const language = languageRewriter(config.locales, config.wpJsonPath ? [...SITE_ROOTS, WP_ROOT] : SITE_ROOTS);
  const wordpress = config.wpJsonPath ? wpJsonRewriter() : undefined;
  // Log lines are buffered (4 kB, or one second at most) and written asynchronously: a write to stdout per
  // request would cost a system call in the hot path. Flushed on close. On a terminal they are made readable.
  const logStream = logger === undefined ? logDestination() : undefined;
  // Bound once the error path exists; the router only calls it for requests, which come after that.
  let answerError: ErrorAnswer = () => {
    throw new Error('error path not ready');
  };
  // Bound likewise, once the hooks it stands in for exist.
  let beforeRouting: (request: FastifyRequest, reply: FastifyReply) => void = () => undefined;
  const app = Fastify({
    logger: logger ?? { level: config.logLevel, stream: logStream },
    // No child logger per request (it cost more than a primary-key read): the few lines logged while
    // handling a request name its id themselves.
    childLoggerFactory: (parent) => parent,
    // One line per request, written when it is answered (Fastify's default is two).
    logController: new LogController({ disableRequestLogging: true }),
    // A slow client cannot hold a connection: its headers, then its whole request, within these times
    // (Node checks them at the interval given here, by default every 30 seconds).
    requestTimeout: config.timeouts.requestMs,
    http: {
      headersTimeout: Math.min(config.timeouts.headersMs, config.timeouts.requestMs),
      connectionsCheckingInterval: Math.min(1000, config.timeouts.headersMs),
    },
    // What Node's parser refuses (431, 408, malformed) answers in the contract's shape too.
    clientErrorHandler: answerClientError,
    bodyLimit: config.bodyLimit,
    // WordPress allows 200-character slugs, and a URL-encoded one of other letters is up to nine times longer.
    routerOptions: { querystringParser: parseQueryString, ignoreTrailingSlash: true, maxParamLength: 2000 },
    // What the router rejects before any route (a longer parameter, a malformed URL) takes the one error path.
    // No hook has run for those: what the hooks give every answer (headers, the language) is given here.
    frameworkErrors: (error, request, reply) => {
      beforeRouting(request, reply);
      return answerError(error, request, reply);
    },
    // The language segment comes off first (`/fr/wp-json/...`), then the WordPress path becomes the canonical one.
    rewriteUrl: wordpress ? (request) => wordpress(request, language(request)) : language,
  });
  // First of all the server's listeners: a batch of requests starts a new read generation before anything
  // reads for them (db/read-generation.ts).
  app.server.prependListener('request', requestArrived);
  const routes = collectRoutes(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (logStream && 'flushSync' in logStream) {
    const flushing = setInterval(() => logStream.flush(), 1000).unref();
    app.addHook('onClose', (_instance, done) => {
      clearInterval(flushing);
      logStream.flushSync();
      done();
    });
  }

  const store = createStore(database.db, database.dialect);
  const urls = createUrls(config);
  const users = createUserService(store.repos.users, store.credentialsVersion);
  // One watch of what changed for every cache of this process: one read of the change log after a write.
  const deps = { store, urls, config, watch: createChangeWatch(store) };

  // Before any route is added: metrics count each route from a hook of its own (http/metrics.ts).
  const metrics = config.metrics ? registerMetrics(app, { pool: database.pool }) : undefined;
  registerAnswerBytes(app);
  const corsHeaders = registerCors(app, config.corsOrigins);
  if (logStream && config.accessLog) registerAccessLog(app, config.logLevel, (line) => logStream.write(line));
  const securityHeaders = registerSecurityHeaders(app, config.publicUrl);
  const background = registerHealth(app, database.db);
  const pickLanguage = registerLanguage(app, config.locales);
  beforeRouting = (request, reply) => {
    corsHeaders(request, reply);
    securityHeaders(reply);
    pickLanguage(request, reply);
  };
  answerError = registerErrorHandling(app, [sitePresenter(config)]);
  registerRequestParsing(app);
  registerAllowHeader(app, routes);
  if (config.wpJsonPath) registerWpJsonLinks(app, urls);
  const limits = config.rateLimit ? await createRateLimits(app, config.rateLimit, (budget) => metrics?.rejected(budget)) : undefined;
  registerAuth(app, users, limits?.guard);
  limits?.enforce(); // after authentication: a signed-in user is one client wherever it comes from

  registerDocsRoutes(app, { routes, urls, config, version: VERSION });
  const venues = createLinkedPostService(venueKind, deps);
  const organizers = createLinkedPostService(organizerKind, deps);
  const categories = createTermService(categoryKind, deps);
  const tags = createTermService(tagKind, deps);
  const events = createEventService({
    ...deps, venues, organizers, failed: (error) => app.log.warn({ err: error }, 'stored event texts could not be written'),
  });
  app.decorate('storeEventTexts', (stopped: () => boolean, ids?: number) => background('event_texts', () => events.storeTexts(stopped, ids)));
  app.addHook('onClose', async () => events.flushTexts());
  const feeds = createFeedService({ events, urls, config, store });
  registerEventRoutes(app, events, feeds, store.lastWrite);
  registerVenueRoutes(app, venues, store.lastWrite);
  registerOrganizerRoutes(app, organizers, store.lastWrite);
  registerTermRoutes(app, [categories, tags], store.lastWrite);
  registerSiteRoutes(app, { events, venues, organizers, categories, tags, feeds, urls, config, dataVersion: store.dataVersion });
  const changes = createChangeService({ store, config, sources: { event: events, venue: venues, organizer: organizers, category: categories, tag: tags } });
  registerChangeRoutes(app, changes);
  registerRecurrenceRoutes(app, createRecurrenceService({ config }));
  registerWebhookRoutes(app, createWebhookService({ store, config }));
  // Every process sends deliveries; they share the work through the database (see dispatcher.ts).
  const dispatcher = createWebhookDispatcher({ database, store, config, changes, log: app.log });
  app.addHook('onReady', async () => dispatcher.start());
  app.addHook('onClose', async () => dispatcher.stop());
  // Every process moves the horizon of open-ended series on, at start and hourly (row locks: one does each).
  let extending: Promise<unknown> = Promise.resolve();
  const extend = (now?: DateTime) => {
    extending = events.extendSeries(now, (id, error) => app.log.error({ err: error, seriesId: id }, 'a recurring series could not be extended'))
      .catch((error: unknown) => app.log.error({ err: error }, 'recurring series could not be extended'));
    return extending;
  };
  app.decorate('extendSeries', async (now?: DateTime) => {
    await extend(now);
  });
  const extender = setInterval(() => void extend(), 60 * 60 * 1000).unref();
  app.addHook('onReady', async () => void extend());
  app.addHook('onClose', async () => {
    clearInterval(extender);
    await extending;
  });
  return app;
}
