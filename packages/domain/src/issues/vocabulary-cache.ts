import type { CommandVocabulary } from '../commands/vocabulary.js';
import type { Em } from '../orm/em.js';
import { epochCacheFor, remembered } from '../orm/epoch-cache.js';

/**
 * Command vocabularies, remembered under the epochs they were built in.
 *
 * A vocabulary (fields and values of the context projects, users, tags, link types, what the
 * actor may apply) costs several queries, and its lexicon an index over every name in it;
 * suggestions, underlining and every command execution need one. Database triggers bump the
 * vocabulary epoch (migration 0013) on every change to what a vocabulary is built from, and
 * the authorisation epoch (0012) on every change to what an actor may do; a vocabulary is
 * reused only while both are the ones read before it was built. So a new value, user, tag or
 * grant, made by any process, is in the next vocabulary, and no request ever parses against
 * a stale one. Nothing built inside a transaction is kept (see `remembered`). The sample of
 * issue ids a vocabulary carries (suggestions only) follows the issues' high-water mark when the
 * caller asks (`issueMark`): a new issue is in the next suggestion; an issue deleted or hidden
 * below the newest stays in the sample at most `maxAgeMs`.
 */

function vocabularyBytes(v: CommandVocabulary): number {
  let values = 0;
  for (const field of v.fields) values += field.values.length + 1;
  return 1024 + 96 * v.users.length + 64 * (values + v.tags.length + v.linkTypes.length + v.issueIds.length);
}

const vocabularies = epochCacheFor(vocabularyBytes);

/**
 * The vocabulary remembered under `key` (what it was built for: the actor and the context
 * projects) when the epochs are unchanged and it is at most `maxAgeMs` old; else `build()`,
 * remembered.
 */
export function rememberedVocabulary(
  em: Em,
  key: string,
  maxAgeMs: number,
  build: () => Promise<CommandVocabulary>,
  /** For suggestions: rebuilt as soon as an issue is created, so the link sample offers it. */
  options: { issueMark?: boolean } = {},
): Promise<CommandVocabulary> {
  return remembered(vocabularies(em), em, key, maxAgeMs, build, options);
}
