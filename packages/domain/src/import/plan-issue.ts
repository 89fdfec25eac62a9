import { MAX_COMMENT_LENGTH, MAX_ISSUE_NUMBER, MAX_TEXT_LENGTH } from '@trackline/contracts';
import { groupNameKey } from '../groups/group-names.js';
import { type ImportProblem, parseTimestamp } from '../issues/import-report.js';
import { oneLine, storableText } from '../text/user-text.js';
import { isReferenceLogin } from '../users/user-refs.js';
import {
  type FieldAssignment,
  type FieldCatalogue,
  type FieldResolutions,
  resolveField,
} from './field-values.js';

/**
 * Planning an issue import (`PUT /rest/import/{project}/issues`): each issue checked against the
 * project's fields into a plan, without touching the database (pure but for the field catalogue
 * it is given). `import-issues.ts` stores the plans.
 */
export type ImportedComment = {
  author: string;
  text: string;
  created: string;
  updated?: string | undefined;
  markdown?: string | undefined;
};
export type ImportedIssue = {
  fields: { name: string; values: string[] }[];
  comments?: ImportedComment[] | undefined;
};
export type ImportIssuesInput = {
  project: string;
  /** A group the users named in user fields join (the original's "group to add assignees to"). */
  assigneeGroup?: string | undefined;
  issues: ImportedIssue[];
  /** The original's dry run: every issue is checked, nothing is stored. */
  test?: boolean | undefined;
};

export const MAX_IMPORT_ISSUES = 100;
const MAX_SUMMARY = 1000;

/** Issue properties the import sets by name; everything else is a project field. */
const BUILT_IN = new Set([
  'numberinproject',
  'summary',
  'description',
  'created',
  'updated',
  'updatername',
  'resolved',
  'reportername',
  'votername',
  'watchername',
  'permittedgroup',
]);
/**
 * What exports of the original carry but an import cannot set (derived or read-only): skipped, as
 * the original skipped them (the python library's importIssues drops the same names itself:
 * id, projectShortName, votes, commentsCount, historyUpdated, updatedByFullName, updaterFullName,
 * reporterFullName, links, attachments, jiraId, entityId, tags, sprint, wikified).
 */
const READ_ONLY = new Set([
  'projectshortname',
  'reporterfullname',
  'updaterfullname',
  'updatedbyfullname',
  'historyupdated',
  'commentscount',
  'votes',
  'links',
  'attachments',
  'tags',
  'sprint',
  'jiraid',
  'wikified',
  'markdown',
  'id',
  'entityid',
]);
/** A namespace declaration copied from an export's attributes (`xmlns`, `xmlns:xsi`): not a field. */
const isNamespaceDeclaration = (key: string) => key === 'xmlns' || key.startsWith('xmlns:');
/** The group every user belongs to in the original: the only visibility an import may keep. */
export const EVERYONE = new Set(['all users', 'registered users']);

export type Plan = {
  index: number;
  number: number;
  summary: string;
  description: string;
  created: number;
  updated: number;
  resolved: number | null;
  reporter: string;
  /** `updaterName`: the issue's updater until a change is recorded; absent when not given. */
  updater: string;
  /** The group the issue is visible to (`permittedGroup`); null: every reader of the project. */
  permittedGroupId: number | null;
  voters: string[];
  watchers: string[];
  assignments: FieldAssignment[];
  named: Set<number>;
  comments: { author: string; text: string; created: number; updated: number }[];
};

export const first = (values: string[]) => values[0]?.trim() ?? '';

/**
 * `isReferenceLogin`, remembered for one request (bounded by its body): an import names the same
 * few hundred users in issue after issue, and the check runs several Unicode patterns.
 */
export function loginCheck(): (login: string) => boolean {
  const known = new Map<string, boolean>();
  return (login) => {
    let ok = known.get(login);
    if (ok === undefined) {
      ok = isReferenceLogin(login);
      known.set(login, ok);
    }
    return ok;
  };
}

/** Checks one issue against the project's fields without touching the database. */
export async function planIssue(
  issue: ImportedIssue,
  index: number,
  catalogue: FieldCatalogue,
  groupIds: Map<string, number>,
  resolutions: FieldResolutions,
  isLogin: (login: string) => boolean,
): Promise<Plan | ImportProblem[]> {
  const problems: ImportProblem[] = [];
  const builtIn = new Map<string, string[]>();
  const assignments: FieldAssignment[] = [];
  const named = new Set<number>();
  for (let f = 0; f < issue.fields.length; f++) {
    const field = issue.fields[f] as ImportedIssue['fields'][number];
    const key = field.name.trim().toLowerCase();
    if (BUILT_IN.has(key)) {
      // The input's own array when the property is given once (nobody changes it), joined when repeated.
      const values = builtIn.get(key);
      builtIn.set(key, values ? [...values, ...field.values] : field.values);
    } else if (!READ_ONLY.has(key) && !isNamespaceDeclaration(key)) {
      const answer = resolveField(catalogue, field.name, field.values, resolutions);
      const resolved = answer instanceof Promise ? await answer : answer;
      if ('message' in resolved) problems.push(resolved);
      else if (!named.has(resolved.fieldId)) {
        named.add(resolved.fieldId);
        assignments.push(resolved);
      }
    }
  }
  const text = (key: string) => first(builtIn.get(key) ?? []);
  const numberText = text('numberinproject');
  const number = /^\d{1,10}$/.test(numberText) ? Number(numberText) : Number.NaN;
  if (!(number >= 1 && number < MAX_ISSUE_NUMBER))
    problems.push({
      message: `numberInProject must be a whole number from 1 to ${MAX_ISSUE_NUMBER - 1}`,
      fieldName: 'numberInProject',
      value: numberText,
    });
  const summary = oneLine(text('summary')).trim();
  if (!summary) problems.push({ message: 'summary must not be empty', fieldName: 'summary' });
  else if (summary.length > MAX_SUMMARY)
    problems.push({ message: `summary must be at most ${MAX_SUMMARY} characters`, fieldName: 'summary' });
  const description = storableText((builtIn.get('description') ?? [])[0] ?? '');
  if (description.length > MAX_TEXT_LENGTH)
    problems.push({
      message: `description must be at most ${MAX_TEXT_LENGTH} characters`,
      fieldName: 'description',
    });
  const time = (key: string, name: string, required: boolean) => {
    const raw = builtIn.has(key) ? text(key) : undefined;
    if (raw === undefined || raw === '') {
      if (required) problems.push({ message: `${name} is required (ms since the epoch)`, fieldName: name });
      return null;
    }
    const ms = parseTimestamp(raw);
    if (ms === null)
      problems.push({ message: `${name} must be a time in ms since the epoch`, fieldName: name, value: raw });
    return ms;
  };
  const created = time('created', 'created', true);
  const updated = time('updated', 'updated', false);
  const resolved = time('resolved', 'resolved', false);
  const login = (key: string, name: string) => {
    const value = text(key);
    if (value && !isLogin(value))
      problems.push({ message: `${name} is not a login`, fieldName: name, value });
    return value;
  };
  const reporter = login('reportername', 'reporterName');
  if (!reporter) problems.push({ message: 'reporterName is required', fieldName: 'reporterName' });
  const updater = login('updatername', 'updaterName');
  const logins = (key: string, name: string) =>
    (builtIn.get(key) ?? [])
      .map((v) => v.trim())
      .filter((v) => {
        if (v && !isLogin(v)) problems.push({ message: `${name} is not a login`, fieldName: name, value: v });
        return v && isLogin(v);
      });
  const voters = logins('votername', 'voterName');
  const watchers = logins('watchername', 'watcherName');
  for (const a of assignments)
    for (const l of a.logins)
      if (!isLogin(l)) problems.push({ message: 'a user field value must be a login', value: l });
  // Visible to a group (the importer scripts create the groups of the users they import first);
  // an unknown group is refused: importing the issue would show it to every reader.
  const group = text('permittedgroup');
  const permittedGroupId =
    group && !EVERYONE.has(group.toLowerCase()) ? (groupIds.get(groupNameKey(group)) ?? null) : null;
  if (group && !EVERYONE.has(group.toLowerCase()) && permittedGroupId === null)
    problems.push({
      message: `permittedGroup [ ${group} ]: no such group (importing would show the issue to every reader)`,
      fieldName: 'permittedGroup',
      value: group,
    });
  const comments: Plan['comments'] = [];
  (issue.comments ?? []).forEach((c, i) => {
    const where = `comment ${i + 1}`;
    const author = c.author.trim();
    if (!isLogin(author))
      problems.push({ message: `${where}: author must be a login`, fieldName: 'comment', value: author });
    const body = storableText(c.text);
    if (!body.trim()) problems.push({ message: `${where}: text must not be empty`, fieldName: 'comment' });
    if (body.length > MAX_COMMENT_LENGTH)
      problems.push({
        message: `${where}: text must be at most ${MAX_COMMENT_LENGTH} characters`,
        fieldName: 'comment',
      });
    const at = parseTimestamp(c.created);
    if (at === null)
      problems.push({
        message: `${where}: created must be a time in ms since the epoch`,
        fieldName: 'comment',
        value: c.created,
      });
    const edited = c.updated === undefined || c.updated === '' ? at : parseTimestamp(c.updated);
    if (edited === null && at !== null)
      problems.push({
        message: `${where}: updated must be a time in ms since the epoch`,
        fieldName: 'comment',
        value: c.updated ?? '',
      });
    if (at !== null && edited !== null) comments.push({ author, text: body, created: at, updated: edited });
  });
  if (problems.length || created === null) return problems;
  return {
    index,
    number,
    summary,
    description,
    created,
    updated: updated ?? created,
    resolved,
    reporter,
    updater,
    permittedGroupId,
    voters,
    watchers,
    assignments,
    named,
    comments,
  };
}
