import type { QueryClient } from '@tanstack/react-query';
import type { IssueView, RouterOutputs } from '@trackline/client';

export type IssuePage = RouterOutputs['issues']['list'];

/** Query keys, one place: what a change must refresh is found by prefix. */
export const keys = {
  me: ['me'] as const,
  issueList: (filter: string, after: number, max: number) => ['issues.list', filter, after, max] as const,
  issue: (id: string) => ['issue', id.toUpperCase()] as const,
  issueExtras: (id: string) => ['issue-extras', id.toUpperCase()] as const,
  fieldOptions: (project: string) => ['fieldOptions', project.toUpperCase()] as const,
  folders: ['folders'] as const,
  counts: ['counts'] as const,
};

/**
 * Shows changed issues at once: each replaces its old self in every cached list page and in its
 * own page; then lists, counts and the issues' details are fetched again in the background (a
 * change may move an issue out of a query).
 */
export function showChangedIssues(
  client: QueryClient,
  issues: readonly IssueView[],
  deleted: readonly string[] = [],
): void {
  const byId = new Map(issues.map((i) => [i.id, i]));
  const gone = new Set(deleted);
  for (const id of deleted) client.removeQueries({ queryKey: keys.issue(id) });
  for (const issue of issues) client.setQueryData(keys.issue(issue.id), issue);
  client.setQueriesData<IssuePage>({ queryKey: ['issues.list'] }, (page) =>
    page
      ? { ...page, issues: page.issues.filter((i) => !gone.has(i.id)).map((i) => byId.get(i.id) ?? i) }
      : page,
  );
  void client.invalidateQueries({ queryKey: ['issues.list'] });
  void client.invalidateQueries({ queryKey: keys.counts });
  // A command may create a tag (`tag hiddensel`): the sidebar lists it at once.
  void client.invalidateQueries({ queryKey: keys.folders });
  for (const issue of issues) void client.invalidateQueries({ queryKey: keys.issueExtras(issue.id) });
}
