import { z } from 'zod';
import { MAX_COMMAND_LENGTH, MAX_COMMENT_LENGTH } from '../common/limits.js';
import { ZPageOffset, ZPageSize, ZQueryText } from '../common/paging.js';
import { optionalText } from '../common/text-fields.js';
import { ZProjectShortName } from '../projects/project.contract.js';
import { ZIssueId, ZValueColor } from './issue.contract.js';

/**
 * The typed issue view of the tRPC interface (the console and TypeScript clients): the same
 * issue as the legacy `{field: [{name, value}]}` representation, with every attribute typed
 * and every field carrying its kind, cardinality and each value's colour. tRPC only: the
 * `/rest` routes keep the legacy shapes.
 */

/** The kinds of project fields (`enum[*]` is `enum` and `multi`). */
export const FIELD_KINDS = [
  'enum',
  'state',
  'user',
  'version',
  'build',
  'ownedField',
  'string',
  'text',
  'integer',
  'float',
  'date',
  'period',
] as const;
export const ZFieldKind = z.enum(FIELD_KINDS);

export const ZUserRef = z.object({ login: z.string(), fullName: z.string() });

/** A value of an issue's field: a bundle value (colour: null when it has none), a user, or a typed value shown as text. */
export const ZIssueFieldValue = z.object({
  name: z.string(),
  /** User fields: the full name. */
  fullName: z.string().optional(),
  /** State fields: whether this state resolves the issue. */
  resolved: z.boolean().optional(),
  color: ZValueColor.nullable(),
});
export const ZIssueFieldView = z.object({
  name: z.string(),
  kind: ZFieldKind,
  multi: z.boolean(),
  /** The text shown for no value ('Unassigned'), null for fields that cannot be empty. */
  emptyText: z.string().nullable(),
  values: z.array(ZIssueFieldValue),
});
export const ZIssueView = z.object({
  id: z.string(),
  project: z.object({ shortName: z.string(), name: z.string() }),
  numberInProject: z.number().int(),
  summary: z.string(),
  description: z.string(),
  reporter: ZUserRef,
  /** Who changed the issue last (the reporter while no change is recorded). */
  updater: ZUserRef,
  /** Milliseconds since the epoch. */
  created: z.number(),
  updated: z.number(),
  resolved: z.number().nullable(),
  /** The group the issue is visible to (the original's `permittedGroup`); null: every reader of the project. */
  permittedGroup: z.string().nullable(),
  /** Every field of the project the caller may read, empty ones included (their `values` is empty). */
  fields: z.array(ZIssueFieldView),
  tags: z.array(z.object({ name: z.string(), owner: z.string(), shared: z.boolean() })),
  comments: z.array(
    z.object({
      id: z.string(),
      author: ZUserRef,
      text: z.string(),
      created: z.number(),
      /** Null until edited. */
      updated: z.number().nullable(),
    }),
  ),
  links: z.array(
    z.object({
      typeName: z.string(),
      role: z.string(),
      direction: z.enum(['outward', 'inward', 'both']),
      issue: z.object({ id: z.string(), summary: z.string(), resolved: z.boolean() }),
    }),
  ),
  attachments: z.array(z.object({ id: z.string(), name: z.string(), url: z.string() })),
  votes: z.number().int(),
  votedByMe: z.boolean(),
  /** How many watch it (starred it): with VIEW_WATCHERS in the project only, as the watchers' logins. */
  stars: z.number().int().optional(),
  starredByMe: z.boolean(),
});
export type IssueViewDto = z.infer<typeof ZIssueView>;

export const ZViewIssueInput = z.object({ issue: ZIssueId });

/** A page of issues matching a query, and how many match in all. */
export const ZListIssuesInput = z.object({
  filter: ZQueryText.optional(),
  after: ZPageOffset.optional(),
  max: ZPageSize.optional(),
});
export const ZListIssuesOutput = z.object({ issues: z.array(ZIssueView), total: z.number().int() });

/** A command (and comment) applied to a selection of issues or to what a query matches. */
export const ZApplyCommandInput = z.object({
  /** Readable ids; wins over `query`. */
  issues: z.array(ZIssueId).max(500, 'must name at most 500 issues').optional(),
  query: ZQueryText.optional(),
  command: z.string().max(MAX_COMMAND_LENGTH, `must be at most ${MAX_COMMAND_LENGTH} characters`).optional(),
  comment: optionalText(MAX_COMMENT_LENGTH),
  /** The comment is visible to this group's members only. */
  group: z.string().max(200, 'must be at most 200 characters').optional(),
  /** Apply as another user (LOW_LEVEL_ADMIN). */
  runAs: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  /** Apply without notifications (accepted; Trackline sends none). */
  disableNotifications: z.boolean().optional(),
});
/** The changed issues as they are now, and the ids of those the command deleted. */
export const ZApplyCommandOutput = z.object({ issues: z.array(ZIssueView), deleted: z.array(z.string()) });

/** Every value each field of a project may take: what the console's value pickers offer. */
export const ZFieldOptionsInput = z.object({ project: ZProjectShortName });
export const ZFieldOptionsOutput = z.array(
  z.object({
    name: z.string(),
    kind: ZFieldKind,
    multi: z.boolean(),
    canBeEmpty: z.boolean(),
    emptyText: z.string().nullable(),
    values: z.array(
      z.object({
        name: z.string(),
        fullName: z.string().optional(),
        description: z.string(),
        color: ZValueColor.nullable(),
        resolved: z.boolean(),
        archived: z.boolean(),
      }),
    ),
  }),
);
