import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Group } from './group.entity.js';
import { User } from './user.entity.js';

export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    id: p.integer().primary().autoincrement(),
    shortName: p.string().length(50),
    /** Upper-cased short name: `prj` and `PRJ` are the same project (issue ids are case-insensitive). */
    shortNameKey: p.string().length(50).unique(),
    name: p.string().length(200),
    nameKey: p.string().length(200).unique(),
    description: p.string().length(4000).default(''),
    lead: () => p.manyToOne(User),
    startingNumber: p.integer().default(1),
    /** The number the next issue gets; advanced atomically with an UPDATE ... RETURNING. */
    nextNumber: p.integer().default(1),
    createdAt: p.datetime().onCreate(() => new Date()),
    /**
     * Set while the project is in the trash: it and its issues are invisible everywhere, its
     * names stay reserved, and an administrator may restore it until it is purged.
     */
    deletedAt: p.datetime().nullable(),
    /** Its members are told of every change of the project's issues (docs/notifications.md). */
    notificationGroup: () => p.manyToOne(Group).nullable().deleteRule('set null').index(),
  },
});
export type IProject = InferEntity<typeof Project>;
