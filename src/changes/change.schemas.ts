import { Type } from 'typebox';

export const ChangeFeedQuery = Type.Object({
  after: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'The cursor of the last change already applied (0, or absent, for the start of the log)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'The most changes to return' })),
});

const ChangeEntry = Type.Object({
  cursor: Type.String(),
  kind: Type.Union(['event', 'venue', 'organizer', 'category', 'tag'].map((kind) => Type.Literal(kind))),
  id: Type.Integer(),
  action: Type.Union(['create', 'update', 'trash', 'restore', 'delete'].map((action) => Type.Literal(action))),
  changed_utc: Type.String(),
  user: Type.Union([Type.Integer(), Type.Null()]),
  record: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
    description: 'The record now, as the API returns it to this caller; null (a tombstone) when it was deleted or this caller may not see it',
  }),
}, { title: 'Change' });

export const ChangeFeed = Type.Object({
  changes: Type.Array(ChangeEntry),
  next_cursor: Type.String(),
  more: Type.Boolean(),
}, { title: 'ChangeFeed' });

export interface ChangeFeedQueryInput {
  after?: string;
  limit?: number;
}
