import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { assistCommand } from '../commands/assist.js';
import { created } from '../respond.js';
import { toIssueDto } from './issue.dto.js';
import {
  issueLegacyProcedures,
  issueLiteralProcedures,
  renameQueryToFilter,
} from './issue-legacy.procedures.js';
import { issueThreadProcedures } from './issue-threads.procedures.js';
import { toIssueViewDto } from './issue-view.dto.js';

export const issuesRouter = router({
  // First: literal path segments win over `{issue}` (the first matching procedure serves).
  ...issueLiteralProcedures,

  create: authedProcedure
    .meta(c.createIssueMeta)
    .input(c.ZCreateIssueInput)
    .output(c.ZIssue)
    .mutation(async ({ ctx, input }) => {
      const issue = await d.createIssue(ctx.em, ctx.actor, input);
      return created(ctx, `/issue/${issue.id}`, toIssueDto(issue));
    }),

  get: authedProcedure
    .meta(c.getIssueMeta)
    .input(c.ZGetIssueInput)
    .output(c.ZIssue, { trusted: true })
    .query(async ({ ctx, input }) => toIssueDto(await d.getIssue(ctx.reads, ctx.actor, input.issue))),

  search: authedProcedure
    .meta(c.searchIssuesMeta)
    .input(c.ZSearchIssuesInput)
    .output(c.ZSearchIssuesOutput, { trusted: true })
    .query(async ({ ctx, input }) => {
      const found = await d
        .searchIssues(ctx.reads, ctx.actor, input.filter ?? '', { skip: input.after, max: input.max })
        .catch(renameQueryToFilter);
      return { issue: found.map(toIssueDto) };
    }),

  execute: authedProcedure
    .meta(c.executeCommandMeta)
    .input(c.ZExecuteCommandInput)
    .output(c.ZExecuteCommandOutput)
    .mutation(async ({ ctx, input }) => {
      await d.executeIssueCommand(ctx.em, ctx.actor, input, ctx.resourceLimits);
      return {};
    }),

  intellisense: authedProcedure
    .meta(c.intellisenseMeta)
    .input(c.ZIntellisenseInput)
    .output(c.ZFullAssistOutput)
    .query(async ({ ctx, input }) => {
      const actor = await d.resolveRunAs(ctx.em, ctx.actor, input.runAs);
      return assistCommand(ctx.em, actor, {
        issueIds: input.issue,
        command: input.command,
        caret: input.caret,
        optionsLimit: input.optionsLimit,
        parts: { underline: true, suggest: true, commands: true } as const,
      });
    }),

  /** tRPC only: the typed view of one issue (the legacy shape stays at `get`). */
  view: authedProcedure
    .input(c.ZViewIssueInput)
    .output(c.ZIssueView)
    .query(async ({ ctx, input }) => toIssueViewDto(await d.getIssue(ctx.reads, ctx.actor, input.issue))),

  /** tRPC only: a page of typed issue views matching a query, newest first, and how many match. */
  list: authedProcedure
    .input(c.ZListIssuesInput)
    .output(c.ZListIssuesOutput)
    .query(async ({ ctx, input }) => {
      const filter = input.filter ?? '';
      const [issues, total] = await Promise.all([
        d.searchIssues(ctx.em, ctx.actor, filter, { skip: input.after, max: input.max ?? 50 }),
        d.countIssues(ctx.em, ctx.actor, filter),
      ]).catch(renameQueryToFilter);
      return { issues: issues.map(toIssueViewDto), total };
    }),

  ...issueLegacyProcedures,
  ...issueThreadProcedures,
});
