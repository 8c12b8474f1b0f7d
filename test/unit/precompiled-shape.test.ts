import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompiledByShape, precompiledValues } from '../../src/db/precompiled.ts';

interface Tables {
  item: { id: number; n: number; kind: string };
}

describe('queries compiled once per shape', () => {
  let db: Kysely<Tables>;
  beforeAll(async () => {
    db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
    await db.schema.createTable('item').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('n', 'real').addColumn('kind', 'text').execute();
    await db.insertInto('item').values(Array.from({ length: 40 }, (_, i) => ({ id: i + 1, n: i - 20, kind: i % 2 ? 'odd' : 'even' }))).execute();
  });
  afterAll(() => db.destroy());

  interface Args {
    kind: string;
    from: number;
    ids?: number[];
    limit: number;
  }
  const direct = (a: Args) => {
    let query = db.selectFrom('item').select('id').where('kind', '=', a.kind).where('n', '>=', a.from);
    if (a.ids) query = query.where('id', 'in', a.ids);
    return query.orderBy('id').limit(a.limit);
  };
  const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id);
  /** The builder, counting its calls: a learnt shape is run without building. */
  const counting = (build: (a: Args) => ReturnType<typeof direct>) => {
    const calls = { n: 0 };
    return { calls, run: precompiledByShape(db, (a: Args) => (calls.n++, build(a))) };
  };
  const answers = async (run: (a: Args) => Promise<Array<{ id: number }>>, args: Args) =>
    expect(ids(await run(args))).toEqual(ids(await direct(args).execute()));

  it('builds a shape on its first two calls (the second learns it), then runs it with each call\'s numbers', async () => {
    const { calls, run } = counting(direct);
    await answers(run, { kind: 'odd', from: -5, limit: 3 });
    expect(calls.n).toBe(1); // asked once: built once, as without the memo
    await answers(run, { kind: 'odd', from: 2.5, limit: 4 });
    expect(calls.n).toBe(3); // learnt: built with stand-ins of both signs
    await answers(run, { kind: 'odd', from: -19, limit: 10 });
    await answers(run, { kind: 'odd', from: 11, limit: 1 });
    expect(calls.n).toBe(3);
    // Strings are the shape: another kind is another shape, and a list of another length too.
    await answers(run, { kind: 'even', from: 0, limit: 5 });
    await answers(run, { kind: 'odd', from: -20, ids: [3, 5, 7], limit: 5 });
    expect(calls.n).toBe(5);
    await answers(run, { kind: 'odd', from: -20, ids: [3, 5, 7], limit: 5 });
    await answers(run, { kind: 'odd', from: 0, ids: [21, 23, 39], limit: 2 });
    expect(calls.n).toBe(7);
  });

  it('never learns a shape whose numbers do not all come out as parameters', async () => {
    const base = (a: Args) => db.selectFrom('item').select('id').where('kind', '=', a.kind).orderBy('id').limit(a.limit);
    const builders: Record<string, (a: Args) => ReturnType<typeof direct>> = {
      // A branch on a number's sign: the two stand-ins build two different texts.
      'branches on a sign': (a) => base(a).where('n', a.from >= 0 ? '>=' : '<=', a.from),
      // A number in the text itself.
      'inlines a number': (a) => base(a).where('n', '>=', sql.lit(a.from)),
      // A number computed with: its stand-in is not among the parameters.
      'computes with a number': (a) => base(a).where('n', '>=', a.from - 1),
    };
    for (const [name, build] of Object.entries(builders)) {
      const { calls, run } = counting(build);
      for (const from of [-7, 4, -2, 9]) {
        const expected = ids(await build({ kind: 'odd', from, limit: 20 }).execute());
        expect(ids(await run({ kind: 'odd', from, limit: 20 })), name).toEqual(expected);
      }
      expect(calls.n, name).toBeGreaterThanOrEqual(6); // every call built with its numbers (plus the two tries)
    }
  });

  it('never learns a shape holding anything but plain objects (a Date), and answers each call from its own values', async () => {
    let builds = 0;
    const run = precompiledByShape(db, (a: { after: Date; limit: number }) => {
      builds++;
      // A builder that reads a Date (SQLite takes no Date parameter, so it sends its seconds).
      return db.selectFrom('item').select('id').where('n', '>=', a.after.getTime() / 1000).orderBy('id').limit(a.limit);
    });
    for (const seconds of [5, 5, 5, -3]) {
      expect(ids(await run({ after: new Date(seconds * 1000), limit: 40 }))).toEqual(
        ids(await db.selectFrom('item').select('id').where('n', '>=', seconds).orderBy('id').limit(40).execute()),
      );
    }
    expect(builds).toBe(4); // the second call tried to learn it and refused: every call built with its values
  });

  it('compiles a statement of given values once per shape, runs it with each call\'s values, and shows a reused write to the plugins', async () => {
    const seen: string[] = [];
    const watched = db.withPlugin({
      transformQuery: ({ node }) => (seen.push(node.kind), node),
      transformResult: async ({ result }) => result,
    });
    const withValues = precompiledValues(watched, 'items');
    let builds = 0;
    const insert = (rows: Array<{ id: number; n: number; kind: string }>) => withValues(`item:${rows.length}`, rows.flatMap((row) => [row.id, row.n, row.kind]), () => {
      builds++;
      return watched.insertInto('item').values(rows);
    });
    await insert([{ id: 101, n: 1, kind: 'new' }]);
    await insert([{ id: 102, n: 2, kind: 'new' }]);
    await insert([{ id: 103, n: 3, kind: 'new' }, { id: 104, n: 4, kind: 'new' }]);
    await insert([{ id: 105, n: 5, kind: 'new' }]);
    expect(builds).toBe(2); // one shape of one row, one of two
    expect(await db.selectFrom('item').selectAll().where('kind', '=', 'new').orderBy('id').execute()).toEqual(
      [1, 2, 3, 4, 5].map((i) => ({ id: 100 + i, n: i, kind: 'new' })),
    );
    // Every insert, the reused ones too, went past the plugins as an insert (the store's write watch).
    expect(seen.filter((kind) => kind === 'InsertQueryNode')).toHaveLength(4);

    // Values that are not the compiled parameters in order (the columns listed the other way round) are never
    // reused: each call is built, and answers from its own values.
    let misordered = 0;
    const select = (kind: string, id: number) => withValues('misordered', [id, kind], () => {
      misordered++;
      return watched.selectFrom('item').select('id').where('kind', '=', kind).where('id', '=', id);
    });
    expect(await select('new', 101)).toMatchObject({ rows: [{ id: 101 }] });
    expect(await select('new', 102)).toMatchObject({ rows: [{ id: 102 }] });
    expect(await select('odd', 2)).toMatchObject({ rows: [{ id: 2 }] });
    expect(misordered).toBe(3);
    await db.deleteFrom('item').where('kind', '=', 'new').execute();
  });

  it('keeps what it compiled for the database, not the caller: every transaction\'s repositories share it, other names and databases do not', async () => {
    let builds = 0;
    const insert = (on: Kysely<Tables>, name: string, id: number) => precompiledValues(on, name)('item:1', [id, id, 'shared'], () => {
      builds++;
      return on.insertInto('item').values({ id, n: id, kind: 'shared' });
    });
    await insert(db, 'shared', 201);
    // A new set of repositories for each transaction (as db/store.ts binds them), one with a plugin too.
    await db.transaction().execute((trx) => insert(trx, 'shared', 202));
    const seen: string[] = [];
    await db.transaction().execute((trx) =>
      insert(trx.withPlugin({ transformQuery: ({ node }) => (seen.push(node.kind), node), transformResult: async ({ result }) => result }), 'shared', 203));
    expect(builds).toBe(1);
    // The write compiled elsewhere still went past this transaction's plugins (the store's write watch).
    expect(seen).toContain('InsertQueryNode');
    // The same shape under another name (another repository's table) is its own statement.
    await insert(db, 'other', 204);
    expect(builds).toBe(2);
    // Another database compiles its own, in its own dialect's text.
    const second = new Kysely<Tables>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
    await second.schema.createTable('item').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('n', 'real').addColumn('kind', 'text').execute();
    await insert(second, 'shared', 205);
    expect(builds).toBe(3);
    expect(ids(await db.selectFrom('item').select('id').where('kind', '=', 'shared').orderBy('id').execute())).toEqual([201, 202, 203, 204]);
    expect(ids(await second.selectFrom('item').select('id').execute())).toEqual([205]);
    await second.destroy();
    await db.deleteFrom('item').where('kind', '=', 'shared').execute();
  });
});
