import * as d from '@trackline/domain';

/**
 * Suggestions and underlining run on every keystroke. Their vocabulary is remembered per
 * (actor, context projects) under the authorisation and vocabulary epochs (the domain's
 * `rememberedVocabulary`: exact, whichever process changed what it is built from), and the issues'
 * high-water mark: a just-created issue is offered after `relates to ` in the very next request.
 * An older issue deleted or hidden since stays in the sample of linkable ids at most a minute.
 */
const SAMPLE_MAX_AGE_MS = 60_000;

export function cachedVocabulary(
  em: d.Em,
  actor: d.Actor,
  /** The context issues, already resolved (and so checked readable) by the caller. */
  context: readonly d.IssueRef[] | null,
): Promise<d.CommandVocabulary> {
  const projects =
    context === null ? 'none' : [...new Set(context.map((r) => r.projectId))].sort((a, b) => a - b).join(',');
  return d.rememberedVocabulary(
    em,
    `assist|${actor.userId}|${projects}|${context === null ? '' : d.contextGroupsKey(context)}`,
    SAMPLE_MAX_AGE_MS,
    () => d.buildVocabulary(em, actor, context === null ? null : context.map((r) => r.readableId)),
    { issueMark: true },
  );
}
