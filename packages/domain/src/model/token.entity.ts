import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/** A permanent token; only the SHA-256 of its secret is stored. */
export const PermanentToken = defineEntity({
  name: 'PermanentToken',
  tableName: 'permanent_tokens',
  uniques: [{ properties: ['user', 'name'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    name: p.string().length(100),
    secretHash: p.string().length(64),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
  },
});
export type IPermanentToken = InferEntity<typeof PermanentToken>;

/** A login session; the primary key is the SHA-256 of the cookie value. */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    idHash: p.string().length(64).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime().index(),
  },
});
export type ISession = InferEntity<typeof Session>;
