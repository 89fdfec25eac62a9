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
    .output(c.ZIssue)
    .query(async ({ ctx, input }) => toIssueDto(await d.getIssue(ctx.em, ctx.actor, input.issue))),

  search: authedProcedure
    .meta(c.searchIssuesMeta)
    .input(c.ZSearchIssuesInput)
    .output(c.ZSearchIssuesOutput)
    .query(async ({ ctx, input }) => {
      const found = await d
        .searchIssues(ctx.em, ctx.actor, input.filter ?? '', { skip: input.after, max: input.max })
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
    .output(c.ZCommandAssistOutput)
    .query(async ({ ctx, input }) => {
      const actor = await d.resolveRunAs(ctx.em, ctx.actor, input.runAs);
      return assistCommand(ctx.em, actor, {
        issueIds: input.issue,
        command: input.command,
        caret: input.caret,
        optionsLimit: input.optionsLimit,
        parts: { underline: true, suggest: true, commands: true },
      });
    }),

  ...issueLegacyProcedures,
  ...issueThreadProcedures,
});
