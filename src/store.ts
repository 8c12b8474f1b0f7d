import { createEventRepository } from './events/event.repository.ts';
import { createChangeRepository } from './changes/change.repository.ts';
import { createImageRepository } from './images/image.repository.ts';
import { createLineageRepository } from './import/lineage.repository.ts';
import type { Db, Dialect } from './db/database.ts';
import { createNamedLock } from './db/named-lock.ts';
import { createStore as createDbStore, type Store as DbStore } from './db/store.ts';
import { createPostRepository } from './posts/post.repository.ts';
import { createTermRepository } from './terms/term.repository.ts';
import { nowStamp } from './time/clock.ts';
import { createUserRepository } from './users/user.repository.ts';
import { createWebhookRepository } from './webhooks/webhook.repository.ts';

/** Every repository, bound to one connection or one transaction. */
export function createRepositories(db: Db, dialect: Dialect) {
  return {
    users: createUserRepository(db),
    images: createImageRepository(db),
    venues: createPostRepository(db, dialect, 'venue'),
    organizers: createPostRepository(db, dialect, 'organizer'),
    terms: createTermRepository(db, dialect),
    events: createEventRepository(db, dialect),
    lineage: createLineageRepository(db),
    changes: createChangeRepository(db),
    webhooks: createWebhookRepository(db, dialect),
    /** Serializes writers that create a record by name when missing (see db/named-lock.ts). */
    lockName: createNamedLock(db, dialect),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
export type Store = DbStore<Repositories>;

/** The application's store: its repositories over the database's versioned writes (db/store.ts). */
export const createStore = (db: Db, dialect: Dialect): Store =>
  createDbStore(db, dialect, createRepositories, (repos) => repos.changes.flush(nowStamp('UTC').utc));
