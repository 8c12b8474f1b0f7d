import type { FastifyInstance } from 'fastify';
import type { LinkedPostService } from '../linked-posts/linked-post.service.ts';
import { registerLinkedPostRoutes } from '../linked-posts/linked-post.routes.ts';
import { OrganizerCreateBody, OrganizerListQuery, OrganizerSchema, OrganizerUpdateBody } from './organizer.schemas.ts';

export function registerOrganizerRoutes(app: FastifyInstance, organizers: LinkedPostService, lastWrite: () => Promise<Date>) {
  registerLinkedPostRoutes(app, 'organizers', organizers, {
    create: OrganizerCreateBody,
    update: OrganizerUpdateBody,
    list: OrganizerListQuery,
    record: OrganizerSchema,
  }, lastWrite);
}
