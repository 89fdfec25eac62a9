import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { authedProcedure, router } from '../../trpc/procedures.js';

/** The import API (`/rest/import/...`): one use case per route; results per item. */
export const importRouter = router({
  users: authedProcedure
    .meta(c.importUsersMeta)
    .input(c.ZImportUsersInput)
    .output(c.ZImportResults)
    .mutation(({ ctx, input }) => d.importUsers(ctx.em, ctx.actor, input.users, { test: input.test })),

  issues: authedProcedure
    .meta(c.importIssuesMeta)
    .input(c.ZImportIssuesInput)
    .output(c.ZImportResults)
    .mutation(({ ctx, input }) => d.importIssues(ctx.em, ctx.actor, input)),

  links: authedProcedure
    .meta(c.importLinksMeta)
    .input(c.ZImportLinksInput)
    .output(c.ZImportResults)
    .mutation(({ ctx, input }) => d.importLinks(ctx.em, ctx.actor, input.links, { test: input.test })),
});
