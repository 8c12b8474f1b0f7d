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
  const logged = new WeakSet<Repositories>();
  const store = createDbStore(db, dialect, createRepositories, {
    beforeCommit: async (repos) => {
      const wrote = await repos.changes.flush(nowStamp('UTC').utc);
      if (wrote) logged.add(repos);
      return wrote;
    },
    version: (repos) => repos.changes.version(),
  });
  if (dialect !== 'postgres') return store;
  // PostgreSQL writers leave their changes pending (see changes/change.repository.ts): each write's changes are
  // given their place in the log right after it commits, in the background, so that readers find the log
  // current. One move at a time in this process; the writes committed meanwhile are the next move's.
  let moving: Promise<void> | undefined;
  let wanted = false;
  const settleSoon = () => {
    if (!wanted || moving) return;
    wanted = false;
    // Best effort: a move that fails (the database going away at shutdown) is made by the next reader.
    moving = store.repos.changes.settle(true).catch(() => undefined).finally(() => {
      moving = undefined;
      settleSoon();
    });
  };
  return {
    ...store,
    transaction: async (work) => {
      let last: Repositories | undefined;
      const result = await store.transaction((repos) => work((last = repos)));
      if (last && logged.has(last)) {
        wanted = true;
        settleSoon();
      }
      return result;
    },
  };
}
