import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const IssueLinkType = defineEntity({
  name: 'IssueLinkType',
  tableName: 'issue_link_types',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(100),
    nameKey: p.string().length(100).unique(),
    outwardName: p.string().length(100),
    inwardName: p.string().length(100),
    directed: p.boolean().default(false),
    aggregation: p.boolean().default(false),
  },
});
export type IIssueLinkType = InferEntity<typeof IssueLinkType>;
