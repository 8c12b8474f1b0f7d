import { expect, it } from 'vitest';
import { API, describeEachDialect } from '../helpers/test-app.ts';

// Each test starts on a database as its migrations leave it, also where the helper reuses a PostgreSQL schema
// emptied after the test before (test-app.ts). The two tests run in order: the second sees what the first left.
describeEachDialect('a test database', (t) => {
  const first: { id?: number; version?: unknown } = {};
  const state = async () => ({
    posts: Number((await t().database.db.selectFrom('post').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    version: await t().database.db.selectFrom('data_version').select(['id', 'version', 'unlogged_version']).execute(),
  });

  it('is written to by one test', async () => {
    first.version = (await state()).version;
    const admin = await t().user('administrator');
    const created = await t().request({ method: 'POST', url: `${API}/venues`, headers: admin.headers, payload: { venue: 'Hall' } });
    expect(created.statusCode).toBe(201);
    first.id = created.json.id;
    expect((await state()).posts).toBe(1);
  });

  it('is as the migrations left it for the next: no rows of the last, the rows they wrote, ids from the start', async () => {
    expect(await state()).toEqual({ posts: 0, version: first.version });
    const admin = await t().user('administrator');
    const created = await t().request({ method: 'POST', url: `${API}/venues`, headers: admin.headers, payload: { venue: 'Hall' } });
    expect(created.json.id).toBe(first.id);
    expect(admin.id).toBe(1);
  });
});
