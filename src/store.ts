import { createEventRepository } from './events/event.repository.ts';
import { createEventTextRepository } from './events/event-text.repository.ts';
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
    eventTexts: createEventTextRepository(db, dialect),
    lineage: createLineageRepository(db),
    changes: createChangeRepository(db, dialect),
    webhooks: createWebhookRepository(db, dialect),
    /** Serializes writers that create a record by name when missing (see db/named-lock.ts). */
    lockName: createNamedLock(db, dialect),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
export type Store = DbStore<Repositories>;

/** The application's store: its repositories over the database's versioned writes (db/store.ts). */
export function createStore(db: Db, dialect: Dialect): Store {
  // PostgreSQL writers leave their changes pending (see changes/change.repository.ts). A write is answered only
  // once what it committed has its place in the log and the data version has moved for it, so that every
  // process sees it from then on. One move at a time in this process: the writes that commit while one is under
  // way share the next, and one move takes every pending change, so moves stay few under many writers.
  let moving: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const settled = (): Promise<void> => {
    if (next) return next;
    const start = () => (moving = store.repos.changes.settle(true).finally(() => (moving = undefined)));
    if (!moving) return start();
    next = moving.catch(() => undefined).then(() => {
      next = undefined;
      return start();
    });
    return next;
  };
  const store: Store = createDbStore(db, dialect, createRepositories, {
    beforeCommit: (repos) => repos.changes.flush(nowStamp('UTC').utc),
    afterCommit: dialect === 'postgres' ? settled : undefined,
  });
  return store;
}
