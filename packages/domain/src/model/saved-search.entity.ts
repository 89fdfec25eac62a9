import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { MAX_QUERY_LENGTH } from '@trackline/contracts';
import { User } from './user.entity.js';

/** A named query; a shared one is visible to everyone. Names are unique per owner regardless of case. */
export const SavedSearch = defineEntity({
  name: 'SavedSearch',
  tableName: 'saved_searches',
  uniques: [{ properties: ['owner', 'nameKey'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    name: p.string().length(100),
    nameKey: p.string().length(100).index(),
    query: p.string().length(MAX_QUERY_LENGTH),
    shared: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ISavedSearch = InferEntity<typeof SavedSearch>;
