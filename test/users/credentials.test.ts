import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createUserRepository } from '../../src/users/user.repository.ts';
import { createUserService } from '../../src/users/user.service.ts';
import type { UserRepository } from '../../src/users/user.repository.ts';
import { hashPassword } from '../../src/users/password.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

// Who a credential names is kept by the service while no user or password changes; the database moves the
// credentials' version on every such change (migration 0021), whoever makes it: here another "process" (the
// CLI's service on the same database) and a statement written by hand.
describeEachDialect('credentials are looked up once, and every change of a user or password is seen', (t) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  // What the CLI does to users, beside the service: its own repository on the same database.
  const cli = () => createUserService(createUserRepository(t().database.db));
  beforeEach(async () => {
    app = await buildApp({ config: t().config, database: t().database, logger: false });
  });
  afterEach(() => app.close());

  const write = (authorization: string, name: string) =>
    app.inject({ method: 'POST', url: `${API}/venues`, headers: { authorization }, payload: { venue: name } });

  it('a password replaced or a user removed elsewhere is refused at the next request', async () => {
    const { login, password } = await cli().add('ann', 'editor');
    expect((await write(basic(login, password), 'Before')).statusCode).toBe(201);
    const renewed = await cli().resetPassword(login);
    const refused = await write(basic(login, password), 'After');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'incorrect_password', data: { status: 401 } });
    expect((await write(basic(login, renewed.password), 'With the new one')).statusCode).toBe(201);
    await cli().remove(login);
    expect((await write(basic(login, renewed.password), 'Gone')).statusCode).toBe(401);
    const names = (await t().database.db.selectFrom('venue').select('title').orderBy('id').execute()).map((row) => row.title);
    expect(names).toEqual(['Before', 'With the new one']);
  });

  it('a role changed by a statement written by hand takes effect at the next request', async () => {
    const { login, password } = await cli().add('ann', 'editor');
    expect((await write(basic(login, password), 'As an editor')).statusCode).toBe(201);
    await sql`update ${sql.table('user')} set role = 'subscriber' where login = ${login}`.execute(t().database.db);
    const refused = await write(basic(login, password), 'As a subscriber');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data.status).toBe(403);
  });

  it('a failed check is not kept: the same credential works once its user exists', async () => {
    const header = basic('late', 'latelatelatelatelatelate');
    expect((await write(header, 'Too early')).statusCode).toBe(401);
    await cli().add('late', 'author', '', 'latelatelatelatelatelate');
    expect((await write(header, 'In time')).statusCode).toBe(201);
  });
});

describe('the user service keeps who a credential names while the credentials version stands still', () => {
  // A repository of one user and one password, counting the look-ups (what the database would be asked).
  const setup = () => {
    const state = { version: 0, lookups: 0, role: 'editor' };
    const repo = {
      findByPasswordHash: async (hash: string, login?: string) => {
        state.lookups++;
        return hash === hashPassword('secret') && (login === undefined || login === 'ann') ? { id: 7, login: 'ann', role: state.role } : undefined;
      },
    } as unknown as UserRepository;
    return { state, users: createUserService(repo, async () => state.version) };
  };

  it('looks a credential up once, again when the version moves, and never keeps a failure', async () => {
    const { state, users } = setup();
    for (let i = 0; i < 3; i++) expect(await users.authenticate('secret', 'ann')).toEqual({ id: 7, login: 'ann', role: 'editor' });
    expect(state.lookups).toBe(1);
    // The same password as a Bearer token, and spaced as WordPress shows it: keys of their own, kept too.
    expect(await users.authenticate('se cr et')).toEqual({ id: 7, login: 'ann', role: 'editor' });
    expect(await users.authenticate('secret')).toEqual({ id: 7, login: 'ann', role: 'editor' });
    expect(state.lookups).toBe(2);
    state.version++;
    state.role = 'author';
    expect((await users.authenticate('secret', 'ann'))?.role).toBe('author');
    expect(state.lookups).toBe(3);
    for (let i = 0; i < 2; i++) expect(await users.authenticate('wrong', 'ann')).toBeNull();
    expect(state.lookups).toBe(5);
  });

  it('without a version (the CLI) looks up every time', async () => {
    let lookups = 0;
    const repo = { findByPasswordHash: async () => (lookups++, { id: 1, login: 'a', role: 'editor' }) } as unknown as UserRepository;
    const users = createUserService(repo);
    await users.authenticate('x');
    await users.authenticate('x');
    expect(lookups).toBe(2);
  });
});
