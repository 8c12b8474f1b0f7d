import type { FastifyInstance } from 'fastify';
import type { LinkedPostService } from '../linked-posts/linked-post.service.ts';
import { registerLinkedPostRoutes } from '../linked-posts/linked-post.routes.ts';
import { VenueCreateBody, VenueListQuery, VenueSchema, VenueUpdateBody } from './venue.schemas.ts';

export function registerVenueRoutes(app: FastifyInstance, venues: LinkedPostService, lastWrite: () => Promise<Date>) {
  registerLinkedPostRoutes(app, 'venues', venues, {
    create: VenueCreateBody,
    update: VenueUpdateBody,
    list: VenueListQuery,
    record: VenueSchema,
  }, lastWrite);
}
