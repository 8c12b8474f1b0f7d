import type { Db } from '../db/database.ts';

export function createImageRepository(db: Db) {
  return {
    findById: (id: number) => db.selectFrom('image').selectAll().where('id', '=', id).executeTakeFirst(),
    findByUrl: (url: string) => db.selectFrom('image').selectAll().where('url', '=', url).executeTakeFirst(),
    findByIds: (ids: number[]) =>
      ids.length === 0 ? Promise.resolve([]) : db.selectFrom('image').selectAll().where('id', 'in', ids).execute(),
    async insert(url: string, extension: string, createdUtc: string): Promise<number> {
      const { id } = await db.insertInto('post').values({ type: 'image' }).returning('id').executeTakeFirstOrThrow();
      await db.insertInto('image').values({ id, url, extension, created_utc: createdUtc }).execute();
      return id;
    },
  };
}

export type ImageRepository = ReturnType<typeof createImageRepository>;
