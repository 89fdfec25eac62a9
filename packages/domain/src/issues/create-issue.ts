import { MAX_ISSUE_NUMBER } from '@trackline/contracts';
import { type Actor, requirePermission } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import { IssueFieldValue } from '../model/field.entity.js';
import { Issue } from '../model/issue.entity.js';
import type { Em } from '../orm/em.js';
import { toBool } from '../orm/row-values.js';
import { inTransaction } from '../orm/transaction.js';
import { getReadableProject } from '../projects/projects.js';
import { oneLine, storableText } from '../text/user-text.js';
import { findVisibilityGroup } from './comments/comments.js';
import { recordIssueEvent } from './history/issue-events.js';
import { type IssueView, loadIssueViews } from './issue-view.js';

export type NewIssue = {
  project: string;
  summary: string;
  description?: string | undefined;
  /** The group the issue is visible to (`permittedGroup`); absent: every reader of the project. */
  permittedGroup?: string | undefined;
};

const MAX_SUMMARY = 1000;

/**
 * Takes the project's next number atomically: concurrent creators each get their own
 * number (one UPDATE ... RETURNING; SQLite ≥ 3.35 and PostgreSQL).
 */
async function allocateNumber(em: Em, projectId: number, shortName: string): Promise<number> {
  // The column is a 32-bit integer: numbers stop below MAX_ISSUE_NUMBER with a refusal, not an overflow.
  const rows = await em.execute<{ n: unknown }[]>(
    'update projects set next_number = next_number + 1 where id = ? and next_number <= ? returning next_number - 1 as n',
    [projectId, MAX_ISSUE_NUMBER - 1],
  );
  const n = rows[0]?.n;
  if (n === undefined)
    throw new DomainError('CONFLICT', `Project [ ${shortName} ] has no issue numbers left.`);
  return Number(n);
}

/**
 * Creates an issue (CREATE_ISSUE in the project) with the project's default field values
 * (State Submitted, Priority Normal, Type Bug) in one transaction, and returns its view.
 */
export async function createIssue(em: Em, actor: Actor, input: NewIssue): Promise<IssueView> {
  const summary = oneLine(input.summary).trim();
  if (!summary) throw DomainError.invalid('summary', 'must not be empty');
  if (summary.length > MAX_SUMMARY)
    throw DomainError.invalid('summary', `must be at most ${MAX_SUMMARY} characters`);
  const project = await getReadableProject(em, actor, oneLine(input.project).trim());
  requirePermission(actor, 'CREATE_ISSUE', project.id, `create issues in project [ ${project.shortName} ]`);
  const permittedGroup = await findVisibilityGroup(em, actor, input.permittedGroup, [project.id]);

  const id = await inTransaction(em, async (tx) => {
    const number = await allocateNumber(tx, project.id, project.shortName);
    const defaults = await tx.execute<
      {
        field_id: number;
        multi: unknown;
        default_value: string;
        value_id: number;
        name_key: string;
        resolved: unknown;
      }[]
    >(
      'select pf.id as field_id, pf.multi, pf.default_value, fv.id as value_id, fv.name_key, fv.resolved ' +
        'from project_fields pf join field_values fv on fv.bundle_id = pf.bundle_id ' +
        'where pf.project_id = ? and pf.default_value is not null',
      [project.id],
    );
    const chosen = defaults.filter((d) => d.name_key === d.default_value.toLowerCase());
    const now = new Date();
    const issueId = (await tx.insert(Issue, {
      project: project.id,
      numberInProject: number,
      summary,
      description: storableText(input.description ?? ''),
      reporter: actor.userId,
      createdAt: now,
      updatedAt: now,
      resolvedAt: chosen.some((d) => toBool(d.resolved)) ? now : null,
      permittedGroup,
    })) as number;
    if (chosen.length > 0) {
      await tx.insertMany(
        IssueFieldValue,
        chosen.map((d) => ({
          issue: issueId,
          field: Number(d.field_id),
          slot: toBool(d.multi) ? Number(d.value_id) : 0,
          value: Number(d.value_id),
          user: null,
        })),
      );
    }
    await recordIssueEvent(tx as Em, {
      issueId,
      projectId: project.id,
      authorId: actor.userId,
      parts: [{ kind: 'issue.created' }],
      at: now,
    });
    return issueId;
  });
  const [view] = await loadIssueViews(em, actor, [id]);
  if (!view) throw new DomainError('INTERNAL', 'The created issue could not be read back.');
  return view;
}
