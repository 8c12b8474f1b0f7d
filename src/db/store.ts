import { createEventRepository } from '../events/event.repository.ts';
import { createImageRepository } from '../images/image.repository.ts';
import { createPostRepository } from '../posts/post.repository.ts';
import { createTermRepository } from '../terms/term.repository.ts';
import { createUserRepository } from '../users/user.repository.ts';
import type { Db, Dialect } from './database.ts';
import { precompiled } from './precompiled.ts';

/** Every repository, bound to one connection or one transaction. */
export function createRepositories(db: Db, dialect: Dialect) {
  return {
    users: createUserRepository(db),
    images: createImageRepository(db),
    venues: createPostRepository(db, dialect, 'venue'),
    organizers: createPostRepository(db, dialect, 'organizer'),
    terms: createTermRepository(db, dialect),
    events: createEventRepository(db, dialect),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

export interface Store {
  dialect: Dialect;
  repos: Repositories;
  /**
   * Runs `work` in one transaction: everything it writes lands together or not at all. Every write goes
   * through here, and each one moves the data version on, which is what cached totals are checked against.
   */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  /** The data version: it changes with every committed write, in any process sharing the database. */
  dataVersion(): Promise<number>;
}

export function createStore(db: Db, dialect: Dialect): Store {
  const version = precompiled(db, () => db.selectFrom('data_version').select('version').where('id', '=', 1));
  return {
    dialect,
    repos: createRepositories(db, dialect),
    transaction: (work) =>
      db.transaction().execute(async (trx) => {
        const result = await work(createRepositories(trx, dialect));
        await trx.updateTable('data_version').set((eb) => ({ version: eb('version', '+', 1) })).where('id', '=', 1).execute();
        return result;
      }),
    dataVersion: async () => (await version(1))[0].version,
  };
}
