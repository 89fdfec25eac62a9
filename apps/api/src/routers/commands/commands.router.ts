import * as c from '@trackline/contracts';
import { authedProcedure, router } from '../../trpc/procedures.js';
import { assistCommand } from './assist.js';

const ALL = { underline: true, suggest: true, commands: true };

export const commandsRouter = router({
  suggest: authedProcedure
    .meta(c.suggestMeta)
    .input(c.ZSuggestInput)
    .output(c.ZCommandAssistOutput)
    .query(({ ctx, input }) =>
      assistCommand(ctx.em, ctx.actor, {
        ...input,
        parts: { underline: false, suggest: true, commands: false },
      }),
    ),

  underline: authedProcedure
    .meta(c.underlineMeta)
    .input(c.ZUnderlineInput)
    .output(c.ZCommandAssistOutput)
    .query(({ ctx, input }) =>
      assistCommand(ctx.em, ctx.actor, {
        ...input,
        parts: { underline: true, suggest: false, commands: false },
      }),
    ),

  underlineAndSuggest: authedProcedure
    .meta(c.underlineAndSuggestMeta)
    .input(c.ZSuggestInput)
    .output(c.ZCommandAssistOutput)
    .query(({ ctx, input }) =>
      assistCommand(ctx.em, ctx.actor, {
        ...input,
        parts: { underline: true, suggest: true, commands: false },
      }),
    ),

  underlineAndSuggestAndCommands: authedProcedure
    .meta(c.underlineAndSuggestAndCommandsMeta)
    .input(c.ZSuggestInput)
    .output(c.ZCommandAssistOutput)
    .query(({ ctx, input }) => assistCommand(ctx.em, ctx.actor, { ...input, parts: ALL })),
});
