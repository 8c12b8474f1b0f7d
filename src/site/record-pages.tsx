import type { FastifyReply, FastifyRequest } from 'fastify';
import { passwordProof } from '../events/event.service.ts';
import { ApiError } from '../errors.ts';
import { clientGone, sendCalendar } from '../feeds/feed.http.ts';
import type { RecordRef } from '../linked-posts/linked-post.service.ts';
import { type OrganizerRecord, toEventView, type VenueRecord } from './site-records.ts';
import { pageContext, renderDocument, sendHtml } from './site-render.tsx';
import type { SiteServices } from './site-services.ts';
import { EventPage, PasswordPage } from './views/event.tsx';
import { type PageLinks, withQuery } from './views/listing.tsx';
import { OrganizerPage, VenuePage } from './views/place.tsx';

// The browser keeps a proof of the last event password entered (as WordPress keeps one), never the password.
export const PASSWORD_COOKIE = 'cal_event_pass';
const PASSWORD_COOKIE_DAYS = 10;
const PER_PAGE = 12;

export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined; // not percent-encoded text (`%ED%A0%80`): not a cookie this service set, so none
    }
  }
  return undefined;
}

const isPasswordError = (error: unknown) => error instanceof ApiError && error.code === 'event-password-protected';

export function recordPages(services: SiteServices) {
  const { events, venues, organizers, feeds, urls, config } = services;
  const eventPath = (slug: string) => `/event/${encodeURIComponent(slug)}/`;

  function passwordForm(request: FastifyRequest, reply: FastifyReply, slug: string, wrong: boolean) {
    const ctx = pageContext(request, config);
    return sendHtml(reply, renderDocument(<PasswordPage ctx={ctx} action={ctx.href(eventPath(slug))} wrong={wrong} />), wrong ? 403 : 200);
  }

  /** A venue's or organizer's upcoming events, a page at a time, with the same filters as `?venue=`. */
  async function upcoming(request: FastifyRequest, filter: { venue?: number[]; organizer?: number[] }, page: number, recordUrl: string) {
    const list = await events.list({ ...filter, page, per_page: PER_PAGE }, request.caller);
    const ctx = pageContext(request, config);
    const path = request.url.split('?')[0];
    const link = (n: number) => ctx.href(withQuery(path, n > 1 ? `page=${n}` : ''));
    const links: PageLinks = {
      page, totalPages: list.totalPages,
      previous: page > 1 ? link(page - 1) : undefined, next: page < list.totalPages ? link(page + 1) : undefined,
    };
    return { events: list.items.map(toEventView), links, feedUrl: `${recordUrl}?ical=1` };
  }

  return {
    async event(request: FastifyRequest, reply: FastifyReply, slug: string, query: { ical?: boolean }) {
      const ref: RecordRef = { slug };
      if (query.ical) return sendCalendar(request, reply, await feeds.calendar({ query: {}, event: ref, caller: request.caller, gone: clientGone(reply) }));
      let json: string;
      try {
        json = (await events.get(ref, request.caller, { passwordProof: cookieOf(request, PASSWORD_COOKIE) })).json;
      } catch (error) {
        if (isPasswordError(error)) return passwordForm(request, reply, slug, false);
        throw error;
      }
      const event = toEventView(json);
      return sendHtml(reply, renderDocument(<EventPage ctx={pageContext(request, config)} event={event} feedUrl={`${event.url}?ical=1`} />));
    },

    /** The password form posts here: the right password sets the proof cookie and goes back to the page. */
    async unlock(request: FastifyRequest, reply: FastifyReply, slug: string, body: { post_password?: string }) {
      const password = body.post_password ?? '';
      let id: number;
      try {
        id = (JSON.parse((await events.get({ slug }, request.caller, { password })).json) as { id: number }).id;
      } catch (error) {
        if (isPasswordError(error)) return passwordForm(request, reply, slug, true);
        throw error;
      }
      const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';
      const cookie = `${PASSWORD_COOKIE}=${passwordProof(id, password)}; Path=/; Max-Age=${PASSWORD_COOKIE_DAYS * 86400}; HttpOnly; SameSite=Lax${secure}`;
      return reply.header('Set-Cookie', cookie).redirect(pageContext(request, config).href(eventPath(slug)), 303);
    },

    async venue(request: FastifyRequest, reply: FastifyReply, slug: string, query: { page?: number; ical?: boolean }) {
      const venue = (await venues.get({ slug }, request.caller)) as unknown as VenueRecord;
      if (query.ical) return sendCalendar(request, reply, await feeds.calendar({ query: { venue: [venue.id] }, caller: request.caller, title: venue.venue, gone: clientGone(reply) }));
      const list = await upcoming(request, { venue: [venue.id] }, query.page ?? 1, venue.url);
      const node = <VenuePage ctx={pageContext(request, config)} venue={venue} restUrl={`${urls.collection('venues')}/${venue.id}`} upcoming={list} />;
      return sendHtml(reply, renderDocument(node));
    },

    async organizer(request: FastifyRequest, reply: FastifyReply, slug: string, query: { page?: number; ical?: boolean }) {
      const organizer = (await organizers.get({ slug }, request.caller)) as unknown as OrganizerRecord;
      if (query.ical) {
        return sendCalendar(request, reply, await feeds.calendar({ query: { organizer: [organizer.id] }, caller: request.caller, title: organizer.organizer, gone: clientGone(reply) }));
      }
      const list = await upcoming(request, { organizer: [organizer.id] }, query.page ?? 1, organizer.url);
      const node = <OrganizerPage ctx={pageContext(request, config)} organizer={organizer} restUrl={`${urls.collection('organizers')}/${organizer.id}`} upcoming={list} />;
      return sendHtml(reply, renderDocument(node));
    },
  };
}
