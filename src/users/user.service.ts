import { FifoMap } from '../db/fifo-map.ts';
import { nowStamp } from '../time/clock.ts';
import { generatePassword, hashPassword } from './password.ts';
import { type Caller, isRole, type Role } from './roles.ts';
import type { UserRepository } from './user.repository.ts';

export class UserError extends Error {}

// Credentials a process keeps the callers of: a service has a few signed-in clients, not thousands.
const MOST_CREDENTIALS = 1000;

/**
 * Operator use cases (the CLI) and credential checks (the HTTP auth hook). With `credentialsVersion` (the
 * store's, moved by the database on any change of a user or password: migration 0021), who a credential
 * names is kept while that version stands still; a failed check is never kept.
 */
export function createUserService(users: UserRepository, credentialsVersion?: () => Promise<number>) {
  // By the password's hash and the login sent with it, never the password itself.
  const callers = new FifoMap<string, { caller: Caller; version: number }>();
  async function issuePassword(userId: number, fixed?: string): Promise<string> {
    const password = fixed ?? generatePassword();
    await users.addPassword({ user_id: userId, name: 'cal-events', token_hash: hashPassword(password), created_utc: nowStamp('UTC').utc });
    return password;
  }

  return {
    async add(login: string, role: string, email = '', fixedPassword?: string) {
      if (!/^[A-Za-z0-9._@-]{1,60}$/.test(login)) throw new UserError(`invalid login "${login}": use letters, digits, . _ @ -`);
      if (!isRole(role)) throw new UserError(`invalid role "${role}": one of administrator, editor, author, contributor, subscriber`);
      if (await users.findByLogin(login)) throw new UserError(`a user "${login}" exists already`);
      const id = await users.insert({ login, email, display_name: login, role, created_utc: nowStamp('UTC').utc });
      const password = await issuePassword(id, fixedPassword);
      return { id, login, role: role as Role, password };
    },

    list: async () => (await users.list()).map(({ id, login, email, role, created_utc }) => ({ id, login, email, role, created_utc })),

    async remove(login: string) {
      const user = await users.findByLogin(login);
      if (!user) throw new UserError(`no user "${login}"`);
      await users.remove(user.id);
      return { id: user.id, login: user.login, removed: true };
    },

    async resetPassword(login: string) {
      const user = await users.findByLogin(login);
      if (!user) throw new UserError(`no user "${login}"`);
      await users.removePasswords(user.id);
      return { id: user.id, login: user.login, role: user.role, password: await issuePassword(user.id) };
    },

    /** The first start of an empty installation gets an administrator; returns its password once. */
    async ensureAdmin(fixedPassword?: string) {
      if ((await users.count()) > 0) return null;
      return this.add('admin', 'administrator', '', fixedPassword);
    },

    /** The caller a credential names, or null when it names nobody. */
    async authenticate(password: string, login?: string): Promise<Caller | null> {
      const hash = hashPassword(password);
      // Read before the look-up, so that a change committed after it moves the version past the one kept.
      const version = await credentialsVersion?.();
      const key = `${login ?? ''}\0${hash}`;
      const kept = callers.get(key);
      if (kept && kept.version === version) return kept.caller;
      const user = await users.findByPasswordHash(hash, login);
      const caller = user && isRole(user.role) ? { id: user.id, login: user.login, role: user.role } : null;
      if (caller && version !== undefined) {
        callers.delete(key);
        if (callers.size >= MOST_CREDENTIALS) callers.delete(callers.oldest() as string);
        callers.set(key, { caller, version });
      } else callers.delete(key);
      return caller;
    },

    exists: async (id: number) => (await users.findById(id)) !== undefined,
  };
}

export type UserService = ReturnType<typeof createUserService>;
