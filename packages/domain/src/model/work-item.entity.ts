import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Issue } from './issue.entity.js';
import { Project } from './project.entity.js';
import { User } from './user.entity.js';

/** A kind of work (Development, Testing...); names are unique regardless of case. */
export const WorkType = defineEntity({
  name: 'WorkType',
  tableName: 'work_types',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(100),
    nameKey: p.string().length(100).unique(),
  },
});
export type IWorkType = InferEntity<typeof WorkType>;

/** Time spent on an issue: `duration` minutes of work on `date`, by `author`. */
export const WorkItem = defineEntity({
  name: 'WorkItem',
  tableName: 'work_items',
  properties: {
    id: p.integer().primary().autoincrement(),
    issue: () => p.manyToOne(Issue).deleteRule('cascade').index(),
    author: () => p.manyToOne(User).deleteRule('cascade').index(),
    date: p.datetime(),
    duration: p.integer(),
    description: p.text().default(''),
    workType: () => p.manyToOne(WorkType).nullable().deleteRule('set null').index(),
    createdAt: p.datetime(),
  },
});
export type IWorkItem = InferEntity<typeof WorkItem>;

/** Whether a project tracks time; a project without a row does not. */
export const ProjectTimeTracking = defineEntity({
  name: 'ProjectTimeTracking',
  tableName: 'project_time_tracking',
  properties: {
    id: p.integer().primary().autoincrement(),
    project: () => p.manyToOne(Project).deleteRule('cascade').unique(),
    enabled: p.boolean().default(false),
    /** Field names the original linked (Estimation, Spent time); kept as given. */
    estimateField: p.string().length(100).nullable(),
    timeSpentField: p.string().length(100).nullable(),
  },
});
export type IProjectTimeTracking = InferEntity<typeof ProjectTimeTracking>;

/** The installation's working time (one row, id 1): what a day and a week of work mean. */
export const TimeTrackingSettings = defineEntity({
  name: 'TimeTrackingSettings',
  tableName: 'time_tracking_settings',
  properties: {
    id: p.integer().primary(),
    hoursPerDay: p.integer().default(8),
    daysPerWeek: p.integer().default(5),
  },
});
export type ITimeTrackingSettings = InferEntity<typeof TimeTrackingSettings>;
