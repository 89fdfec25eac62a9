import { type IssueDto, issueEntityId } from '@trackline/contracts';
import { BUNDLE_KINDS, type IssueFieldView, type IssueView } from '@trackline/domain';
import { persistentUrl } from '../../attachments/attachments.route.js';
import { colorOf, cssClassOf } from './value-colors.js';

type Field = IssueDto['field'][number];

/** Values of a custom field: always an array; users as `{value, fullName}`; bundle values with ids and colour. */
function customField(f: IssueFieldView): Field {
  if (f.kind === 'user')
    return { name: f.name, value: f.values.map((v) => ({ value: v.name, fullName: v.fullName ?? v.name })) };
  const names = f.values.map((v) => v.name);
  // Simple fields (string, text, integer, float, date, period) hold a value of their own.
  if (!BUNDLE_KINDS.includes(f.kind as (typeof BUNDLE_KINDS)[number])) return { name: f.name, value: names };
  // Bundle values are named uniquely within their bundle: the name is the value's id (one array for both:
  // the wire objects are only read).
  return { name: f.name, value: names, valueId: names, color: colorOf(f.values[0]?.colorIndex) };
}

/**
 * The legacy issue representation: built-in attributes (strings) and custom fields (arrays) as
 * one `field` list, then `links` (and `attachments` when there are some) as fields of their own.
 * Empty fields are left out. Built straight into the wire objects (no intermediate list): a page
 * of 50 issues is written without being checked against the schema in production, see
 * rest/run-operation.ts.
 */
export function toIssueDto(issue: IssueView): IssueDto {
  const updater = issue.updater ?? issue.reporter;
  const field: Field[] = [];
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined) field.push({ name, value });
  };
  add('projectShortName', issue.project.shortName);
  add('numberInProject', String(issue.numberInProject));
  add('summary', issue.summary);
  add('description', issue.description || undefined);
  add('created', String(issue.created));
  add('updated', String(issue.updated));
  add('updaterName', updater.login);
  add('updaterFullName', updater.fullName);
  if (issue.resolved !== null) add('resolved', String(issue.resolved));
  add('reporterName', issue.reporter.login);
  add('reporterFullName', issue.reporter.fullName);
  add('commentsCount', String(issue.comments.length));
  add('votes', String(issue.votes));
  add('permittedGroup', issue.permittedGroup ?? undefined);
  // The original's `voterName` / `watcherName` (user[*] built-ins the import takes back): one value per
  // user, a single one written as a plain field, several as a list, as its serializer did.
  addUsers(field, 'voterName', issue.voters);
  addUsers(field, 'watcherName', issue.watchers);
  for (const f of issue.fields) if (f.values.length > 0) field.push(customField(f));
  if (issue.links.length > 0) {
    field.push({
      name: 'links',
      value: issue.links.map((l) => ({ value: l.issue.id, type: l.typeName, role: l.role })),
    });
  }
  const attachments = issue.attachments ?? [];
  if (attachments.length > 0) {
    // Root-relative, as the original's: `/_persistent/{name}?file=…` (served as the download route).
    field.push({
      name: 'attachments',
      value: attachments.map((a) => ({
        value: a.name,
        url: persistentUrl({ issueId: issue.id, id: a.id, name: a.name }),
      })),
    });
  }
  return {
    id: issue.id,
    entityId: issueEntityId(issue.dbId),
    field,
    comment: issue.comments.map((c) => ({
      id: String(c.id),
      author: c.author.login,
      authorFullName: c.author.fullName,
      issueId: issue.id,
      deleted: false,
      text: c.text,
      shownForIssueAuthor: false,
      created: c.created,
      updated: c.updated === c.created ? null : c.updated,
    })),
    tag: issue.tags.map((t) => ({ value: t.name, cssClass: cssClassOf(undefined) })),
    link: issue.links.map((l) => ({
      typeName: l.typeName,
      role: l.role,
      source: l.direction === 'inward' ? l.issue.id : issue.id,
      target: l.direction === 'inward' ? issue.id : l.issue.id,
    })),
  };
}

function addUsers(field: Field[], name: string, logins: readonly string[] | undefined) {
  if (!logins || logins.length === 0) return;
  field.push({ name, value: logins.length === 1 ? (logins[0] as string) : [...logins] });
}
