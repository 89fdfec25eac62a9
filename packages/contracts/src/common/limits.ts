/**
 * Every size limit of the wire, defined once: the contracts validate with them, the domain checks
 * the same values where input arrives by another road (commands, imports, hooks), and the docs
 * quote them. Change a limit here and nowhere else.
 */

/** An issue summary, in characters. */
export const MAX_SUMMARY_LENGTH = 1000;
/** Free text: an issue description, a comment, a work item description, in characters. */
export const MAX_TEXT_LENGTH = 64_000;
/** A comment (the same as any free text; named for the many places that speak of comments). */
export const MAX_COMMENT_LENGTH = MAX_TEXT_LENGTH;
/** A command line, in characters. */
export const MAX_COMMAND_LENGTH = 2000;
/** A search query (`filter`, saved searches, folders, a command's `query=` context), in characters. */
export const MAX_QUERY_LENGTH = 2000;
/** The largest `after` / `start` offset of a page. */
export const MAX_PAGE_OFFSET = 100_000;
/** The largest page: `max` of an issue list is capped to it. */
export const MAX_PAGE_SIZE = 500;
/** The largest row id (a signed 32-bit integer, the column type on both databases). */
export const MAX_ROW_ID = 2_147_483_647;
/** A VCS integration's branch filter, in characters. */
export const MAX_BRANCH_FILTER_LENGTH = 2000;
/** An outgoing webhook's URL, in characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2000;
