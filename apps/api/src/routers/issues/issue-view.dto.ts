import type { IssueViewDto } from '@trackline/contracts';
import { BUNDLE_KINDS, type IssueView } from '@trackline/domain';
import { colorOf } from './value-colors.js';

const isBundleKind = (kind: string) => (BUNDLE_KINDS as readonly string[]).includes(kind);

/** A value's colours when it has a colour index (enum and state values); null otherwise. */
export const colorOrNull = (colorIndex: number | undefined) =>
  colorIndex === undefined || colorIndex === 0 ? null : colorOf(colorIndex);

/**
 * The typed view of an issue (tRPC's `issues.view`, `issues.list`, `commands.apply`): the read
 * model as it is, times as milliseconds, each value with its colour. The legacy `field` list is
 * `toIssueDto`'s business.
 */
export function toIssueViewDto(issue: IssueView): IssueViewDto {
  const attachmentUrl = (id: number) => `/rest/issue/${encodeURIComponent(issue.id)}/attachment/${id}`;
  return {
    id: issue.id,
    project: issue.project,
    numberInProject: issue.numberInProject,
    summary: issue.summary,
    description: issue.description,
    reporter: issue.reporter,
    updater: issue.updater ?? issue.reporter,
    created: issue.created,
    updated: issue.updated,
    resolved: issue.resolved,
    permittedGroup: issue.permittedGroup,
    fields: issue.fields.map((f) => ({
      name: f.name,
      kind: f.kind,
      multi: f.multi,
      emptyText: f.emptyText,
      values: f.values.map((v) => ({
        name: v.name,
        ...(v.fullName !== undefined && f.kind === 'user' ? { fullName: v.fullName } : {}),
        ...(f.kind === 'state' ? { resolved: v.resolved ?? false } : {}),
        color: isBundleKind(f.kind) ? colorOrNull(v.colorIndex) : null,
      })),
    })),
    tags: issue.tags,
    comments: issue.comments.map((c) => ({
      id: String(c.id),
      author: c.author,
      text: c.text,
      created: c.created,
      updated: c.updated === c.created ? null : c.updated,
    })),
    links: issue.links,
    attachments: (issue.attachments ?? []).map((a) => ({
      id: String(a.id),
      name: a.name,
      url: attachmentUrl(a.id),
    })),
    votes: issue.votes,
    votedByMe: issue.votedByMe,
    ...(issue.stars === undefined ? {} : { stars: issue.stars }),
    starredByMe: issue.starredByMe,
  };
}
