import * as c from '@trackline/contracts';
import * as d from '@trackline/domain';
import { authedProcedure } from '../../trpc/procedures.js';

const subValues = (values: string[]) => ({ sub: values.map((value) => ({ value })) });

const toSummary = (p: d.ProjectSummary): c.ProjectSummaryDto => ({
  name: p.name,
  shortName: p.shortName,
  description: p.description,
  // Trackline has no import mode: a project is never being imported.
  isImporting: false,
  ...(p.details
    ? {
        assigneesLogin: subValues(p.details.assignees.map((a) => a.login)),
        assigneesFullName: subValues(p.details.assignees.map((a) => a.fullName)),
        subsystems: subValues(p.details.subsystems),
      }
    : {}),
});

/** `GET /project/all[?verbose]`: the legacy project list the client libraries read first. */
export const projectAllProcedures = {
  all: authedProcedure
    .meta(c.listAllProjectsMeta)
    .input(c.ZListAllProjectsInput)
    .output(c.ZListAllProjectsOutput)
    .query(async ({ ctx, input }) =>
      (await d.listProjectSummaries(ctx.em, ctx.actor, input.verbose ?? false)).map(toSummary),
    ),
};
