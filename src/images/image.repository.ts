import type { Db } from '../db/database.ts';
import { precompiledList } from '../db/precompiled.ts';

export function createImageRepository(db: Db) {
  const byIds = precompiledList(db, (ids) => db.selectFrom('image').selectAll().where('id', 'in', ids));
  return {
    findById: (id: number) => db.selectFrom('image').selectAll().where('id', '=', id).executeTakeFirst(),
    findByUrl: (url: string) => db.selectFrom('image').selectAll().where('url', '=', url).executeTakeFirst(),
    findByIds: (ids: number[]) => byIds(ids),
    async insert(url: string, extension: string, createdUtc: string): Promise<number> {
      const { id } = await db.insertInto('post').values({ type: 'image' }).returning('id').executeTakeFirstOrThrow();
      await db.insertInto('image').values({ id, url, extension, created_utc: createdUtc }).execute();
      return id;
    },
  };
}

export type ImageRepository = ReturnType<typeof createImageRepository>;
