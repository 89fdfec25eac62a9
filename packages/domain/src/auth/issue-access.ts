import type { PermissionKey } from '@trackline/contracts';
import { placeholders } from '../orm/sql-fragments.js';
import { type Actor, can, inGroup, projectsWith } from './actor.js';

/**
 * Who reads an issue: the one place the rule lives, in two forms that must agree (a predicate
 * for an issue in hand, and an SQL condition for statements that list, count or search).
 *
 * 1. The project: READ_ISSUE there (no permission holds in a trashed project).
 * 2. The issue's own visibility (`permittedGroup`, the original's "Visible to"): an issue
 *    restricted to a group is read only by the group's members, its reporter and holders of
 *    READ_HIDDEN_STUFF in its project (project admins). It narrows (1), never widens it.
 */
export type IssueAccessFacts = {
  projectId: number;
  reporterId: number;
  permittedGroupId: number | null;
};

/** Whether the issue's own restriction lets the actor through (the project's permission aside). */
export function passesIssueVisibility(actor: Actor, issue: IssueAccessFacts): boolean {
  if (issue.permittedGroupId === null || issue.reporterId === actor.userId) return true;
  return inGroup(actor, issue.permittedGroupId) || can(actor, 'READ_HIDDEN_STUFF', issue.projectId);
}

/**
 * Whether the actor reads the issue and, when `permission` is another one (UPDATE_ISSUE,
 * LINK_ISSUE...), holds it in the issue's project: nobody acts on an issue they cannot read.
 */
export function canReadIssue(
  actor: Actor,
  issue: IssueAccessFacts,
  permission: PermissionKey = 'READ_ISSUE',
) {
  if (!can(actor, 'READ_ISSUE', issue.projectId)) return false;
  if (permission !== 'READ_ISSUE' && !can(actor, permission, issue.projectId)) return false;
  return passesIssueVisibility(actor, issue);
}

export type SqlCondition = { sql: string; params: (string | number)[] };

/**
 * The SQL condition on an issues row (`alias`: its table alias) for the issues the actor reads
 * (and, with `permission`, may act on), or 'none' when the actor reads no issue at all. The
 * statements that list, count, search or suggest issues filter with it, so pages stay full and
 * counts never include what the caller cannot read.
 */
export function readableIssuesSql(
  actor: Actor,
  alias = 'i',
  permission: PermissionKey = 'READ_ISSUE',
  options: {
    /**
     * Writes the project check as `+alias.project_id in (…)`: SQLite then does not pick the
     * project index for it (search drives its statements from the query's own index range).
     */
    projectCheckOnly?: boolean;
  } = {},
): SqlCondition | 'none' {
  const projects = intersect(
    projectsWith(actor, 'READ_ISSUE'),
    permission === 'READ_ISSUE' ? 'all' : projectsWith(actor, permission),
  );
  if (projects !== 'all' && projects.length === 0) return 'none';
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (projects !== 'all') {
    parts.push(`${options.projectCheckOnly ? '+' : ''}${alias}.project_id in (${placeholders(projects)})`);
    params.push(...projects);
  }
  const visibility = visibilitySql(actor, alias);
  if (visibility) {
    parts.push(visibility.sql);
    params.push(...visibility.params);
  }
  return { sql: parts.length ? `(${parts.join(' and ')})` : '1 = 1', params };
}

/** The visibility part of `readableIssuesSql`, or null when the actor passes every restriction. */
function visibilitySql(actor: Actor, alias: string): SqlCondition | null {
  const hidden = projectsWith(actor, 'READ_HIDDEN_STUFF');
  if (hidden === 'all') return null;
  const groups = [...(actor.groups ?? [])];
  const or = [`${alias}.permitted_group_id is null`, `${alias}.reporter_id = ?`];
  const params: number[] = [actor.userId];
  if (groups.length) {
    or.push(`${alias}.permitted_group_id in (${placeholders(groups)})`);
    params.push(...groups);
  }
  if (hidden.length) {
    or.push(`${alias}.project_id in (${placeholders(hidden)})`);
    params.push(...hidden);
  }
  return { sql: `(${or.join(' or ')})`, params };
}

const intersect = (a: 'all' | number[], b: 'all' | number[]): 'all' | number[] => {
  if (a === 'all') return b;
  if (b === 'all') return a;
  const inB = new Set(b);
  return a.filter((id) => inB.has(id));
};
