import type { Db } from '../db/database.ts';
import { precompiled } from '../db/precompiled.ts';

export function createUserRepository(db: Db) {
  // Every signed-in request asks this: compiled once (see precompiled.ts).
  const owner = () => db.selectFrom('app_password').innerJoin('user', 'user.id', 'app_password.user_id')
    .select(['user.id', 'user.login', 'user.role']).where('app_password.token_hash', '=', '');
  const byHash = precompiled(db, owner);
  const byHashAndLogin = precompiled(db, () => owner().where('user.login', '=', ''));
  return {
    findById: (id: number) => db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst(),

    findByLogin: (login: string) => db.selectFrom('user').selectAll().where('login', '=', login).executeTakeFirst(),

    /** The user owning an application password, optionally only if it also has this login. */
    findByPasswordHash: async (tokenHash: string, login?: string) =>
      (await (login === undefined ? byHash(tokenHash) : byHashAndLogin(tokenHash, login)))[0],

    list: () => db.selectFrom('user').selectAll().orderBy('id').execute(),

    count: async () => Number((await db.selectFrom('user').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),

    insert: async (row: { login: string; email: string; display_name: string; role: string; created_utc: string }) =>
      (await db.insertInto('user').values(row).returning('id').executeTakeFirstOrThrow()).id,

    remove: async (id: number) => {
      await db.deleteFrom('app_password').where('user_id', '=', id).execute();
      return Number((await db.deleteFrom('user').where('id', '=', id).executeTakeFirst()).numDeletedRows);
    },

    addPassword: (row: { user_id: number; name: string; token_hash: string; created_utc: string }) =>
      db.insertInto('app_password').values(row).execute(),

    removePasswords: (userId: number) => db.deleteFrom('app_password').where('user_id', '=', userId).execute(),
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
