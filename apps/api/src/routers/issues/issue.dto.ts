import { type IssueDto, issueEntityId } from '@trackline/contracts';
import type { IssueView } from '@trackline/domain';

/**
 * The legacy issue representation: built-in attributes and custom fields as one `field`
 * list of `{name, value}` (multi-value fields carry arrays; empty fields are left out).
 */
export function toIssueDto(issue: IssueView): IssueDto {
  const builtIn: [string, string | undefined][] = [
    ['projectShortName', issue.project.shortName],
    ['numberInProject', String(issue.numberInProject)],
    ['summary', issue.summary],
    ['description', issue.description || undefined],
    ['created', String(issue.created)],
    ['updated', String(issue.updated)],
    ['resolved', issue.resolved === null ? undefined : String(issue.resolved)],
    ['reporterName', issue.reporter.login],
    ['reporterFullName', issue.reporter.fullName],
    ['commentsCount', String(issue.comments.length)],
    ['votes', String(issue.votes)],
  ];
  const field: IssueDto['field'] = builtIn.flatMap(([name, value]) =>
    value === undefined ? [] : [{ name, value }],
  );
  for (const f of issue.fields) {
    if (f.values.length === 0) continue;
    const names = f.values.map((v) => v.name);
    field.push({ name: f.name, value: f.multi ? names : (names[0] as string) });
  }
  return {
    id: issue.id,
    entityId: issueEntityId(issue.dbId),
    field,
    comment: issue.comments.map((c) => ({
      id: String(c.id),
      author: c.author.login,
      authorFullName: c.author.fullName,
      text: c.text,
      created: c.created,
    })),
    tag: issue.tags.map((t) => ({ value: t.name })),
    link: issue.links.map((l) => ({
      typeName: l.typeName,
      role: l.role,
      source: l.direction === 'inward' ? l.issue.id : issue.id,
      target: l.direction === 'inward' ? issue.id : l.issue.id,
    })),
  };
}
