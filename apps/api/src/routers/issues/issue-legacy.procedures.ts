import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { authedProcedure } from '../../trpc/procedures.js';
import { toSuggestItem } from '../commands/assist.js';
import { created } from '../respond.js';
import { toIssueDto } from './issue.dto.js';

/** The domain names the search text `query`; on the issue routes the parameter is `filter`. */
export function renameQueryToFilter(error: unknown): never {
  const issue = error instanceof d.DomainError ? error.issues?.[0] : undefined;
  if (issue?.field === 'query') throw d.DomainError.invalid('filter', issue.message);
  throw error;
}

/**
 * Procedures whose paths have a literal segment where `{issue}` could stand (`/issue/count`,
 * `/issue/byproject/{project}`, `/issue/execute/{issue}`). trpc-to-openapi serves the first
 * procedure whose path matches, so the issues router lists these before `/issue/{issue}`.
 */
export const issueLiteralProcedures = {
  count: authedProcedure
    .meta(c.countIssuesMeta)
    .input(c.ZCountIssuesInput)
    .output(c.ZCountIssuesOutput)
    .query(async ({ ctx, input }) => ({
      value: await d.countIssues(ctx.reads, ctx.actor, input.filter ?? '').catch(renameQueryToFilter),
    })),

  countBulk: authedProcedure
    .meta(c.countIssuesBulkMeta)
    .input(c.ZCountIssuesBulkInput)
    .output(c.ZCountIssuesBulkOutput)
    .mutation(async ({ ctx, input }) => {
      const queries =
        input.query === undefined ? [] : Array.isArray(input.query) ? input.query : [input.query];
      const count: number[] = [];
      // One after another: each count is a search of its own, within the same time budget.
      for (const query of queries)
        count.push(await d.countIssues(ctx.reads, ctx.actor, query).catch(renameQueryToFilter));
      return { count };
    }),

  searchIntellisense: authedProcedure
    .meta(c.searchIntellisenseMeta)
    .input(c.ZSearchIntellisenseInput)
    .output(c.ZUnderlineAndSuggestOutput)
    .query(async ({ ctx, input }) => {
      const assist = await d.assistSearchQuery(ctx.em, ctx.actor, {
        query: input.filter ?? '',
        caret: input.caret,
        optionsLimit: input.optionsLimit,
      });
      return {
        underline: { ranges: assist.ranges.map((r) => ({ ...r, length: r.end - r.start })) },
        suggest: { items: assist.items.map((s) => ({ ...toSuggestItem(s), styleClass: s.styleClass })) },
      };
    }),

  byProject: authedProcedure
    .meta(c.listProjectIssuesMeta)
    .input(c.ZListProjectIssuesInput)
    .output(c.ZListProjectIssuesOutput, { trusted: true })
    .query(async ({ ctx, input }) => {
      const found = await d
        .listProjectIssues(ctx.reads, ctx.actor, input.project, input.filter ?? '', {
          skip: input.after,
          max: input.max,
          updatedAfter: input.updatedAfter,
        })
        .catch(renameQueryToFilter);
      return found.map(toIssueDto);
    }),

  executeAlias: authedProcedure
    .meta(c.executeCommandAliasMeta)
    .input(c.ZExecuteCommandInput)
    .output(c.ZExecuteCommandOutput)
    .mutation(async ({ ctx, input }) => {
      await d.executeIssueCommand(ctx.em, ctx.actor, input, ctx.resourceLimits);
      return {};
    }),
};

/** The rest of the legacy issue surface: exists, the POST spellings of create and update, delete. */
export const issueLegacyProcedures = {
  exists: authedProcedure
    .meta(c.issueExistsMeta)
    .input(c.ZIssueExistsInput)
    .output(c.ZIssueEmptyOutput)
    .query(async ({ ctx, input }) => {
      await d.assertIssueExists(ctx.em, ctx.actor, input.issue);
      return {};
    }),

  createByPost: authedProcedure
    .meta(c.createIssueByPostMeta)
    .input(c.ZCreateIssueByPostInput)
    .output(c.ZIssue)
    .mutation(async ({ ctx, input }) => {
      const issue = await d.createIssue(ctx.em, ctx.actor, input);
      return created(ctx, `/issue/${issue.id}`, toIssueDto(issue));
    }),

  update: authedProcedure
    .meta(c.updateIssueMeta)
    .input(c.ZUpdateIssueInput)
    .output(c.ZIssueEmptyOutput)
    .mutation(async ({ ctx, input }) => {
      await d.updateIssueText(ctx.em, ctx.actor, input.issue, input);
      return {};
    }),

  delete: authedProcedure
    .meta(c.deleteIssueMeta)
    .input(c.ZDeleteIssueInput)
    .output(c.ZIssueEmptyOutput)
    .mutation(async ({ ctx, input }) => {
      await d.deleteIssue(ctx.em, ctx.actor, input.issue);
      return {};
    }),
};
