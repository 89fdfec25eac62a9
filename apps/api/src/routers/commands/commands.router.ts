import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { toIssueViewDto } from '../issues/issue-view.dto.js';
import { assistCommand } from './assist.js';

const ALL = { underline: true, suggest: true, commands: true } as const;

export const commandsRouter = router({
  suggest: authedProcedure
    .meta(c.suggestMeta)
    .input(c.ZSuggestInput)
    .output(c.ZSuggestOutput)
    .query(({ ctx, input }) =>
      assistCommand(ctx.em, ctx.actor, {
        ...input,
        parts: { underline: false, suggest: true, commands: false } as const,
      }),
    ),

  underline: authedProcedure
    .meta(c.underlineMeta)
    .input(c.ZUnderlineInput)
    .output(c.ZUnderlineOutput)
    .query(({ ctx, input }) =>
      assistCommand(ctx.em, ctx.actor, {
        ...input,
        parts: { underline: true, suggest: false, commands: false } as const,
      }),
    ),

  underlineAndSuggest: authedProcedure
    .meta(c.underlineAndSuggestMeta)
    .input(c.ZSuggestInput)
    .output(c.ZUnderlineAndSuggestOutput)
    .query(({ ctx, input }) =>
      assistCommand(ctx.em, ctx.actor, {
        ...input,
        parts: { underline: true, suggest: true, commands: false } as const,
      }),
    ),

  underlineAndSuggestAndCommands: authedProcedure
    .meta(c.underlineAndSuggestAndCommandsMeta)
    .input(c.ZSuggestInput)
    .output(c.ZFullAssistOutput)
    .query(({ ctx, input }) => assistCommand(ctx.em, ctx.actor, { ...input, parts: ALL })),

  /**
   * tRPC only (the console's command box): a command and comment on a selection of issues or
   * on what a query matches, atomically; answers the changed issues as they are now.
   */
  execute: authedProcedure
    .input(c.ZApplyCommandInput)
    .output(c.ZApplyCommandOutput)
    .mutation(async ({ ctx, input }) => {
      const { issues, deleted } = await d.applyCommandToSelection(
        ctx.em,
        ctx.actor,
        input,
        ctx.resourceLimits,
      );
      return { issues: issues.map(toIssueViewDto), deleted };
    }),
});
