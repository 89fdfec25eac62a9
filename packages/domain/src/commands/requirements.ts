import type { PermissionKey } from '@trackline/contracts';
import type { CommandOpKind } from './ops.js';

/**
 * THE table of what each command operation needs. Everything else is derived from it:
 * the vocabulary's `can` flags (issues/build-vocabulary.ts), the parser's refusal of a part the
 * actor may not apply (commands/parser.ts `commit()`), the keywords the suggester offers
 * (commands/candidates.ts) and execution's 403 (issues/command-ops.ts `applyOp`).
 *
 * A capability is a kind of command as the vocabulary reports it (`can.update`, `can.tag`...).
 * It needs `permission` in the project of every issue the command applies to; a `humansOnly`
 * one is also refused to the guest account (tags, stars and votes are personal).
 */
export type Capability =
  | 'update'
  | 'link'
  | 'comment'
  | 'tag'
  | 'vote'
  | 'star'
  | 'delete'
  | 'visibility'
  | 'work';

export type CapabilityRequirement = {
  permission: PermissionKey;
  humansOnly: boolean;
  /** What it allows, for "you have no rights to …" messages. */
  what: string;
};

export const CAPABILITY_REQUIREMENTS: Record<Capability, CapabilityRequirement> = {
  update: { permission: 'UPDATE_ISSUE', humansOnly: false, what: 'update issues' },
  link: { permission: 'LINK_ISSUE', humansOnly: false, what: 'link issues' },
  comment: { permission: 'CREATE_COMMENT', humansOnly: false, what: 'comment on issues' },
  tag: { permission: 'READ_ISSUE', humansOnly: true, what: 'tag issues' },
  vote: { permission: 'READ_ISSUE', humansOnly: true, what: 'vote for issues' },
  star: { permission: 'READ_ISSUE', humansOnly: true, what: 'star issues' },
  delete: { permission: 'DELETE_ISSUE', humansOnly: false, what: 'delete issues' },
  /** Who reads the issue (`permittedGroup`), as `PUT /rest/issue?permittedGroup=` sets it at creation. */
  visibility: { permission: 'UPDATE_ISSUE', humansOnly: false, what: 'change who may read issues' },
  /** Also only where the project tracks time (`CommandOpRequirement.timeTracking`). */
  work: { permission: 'CREATE_WORK_ITEM', humansOnly: false, what: 'add work items' },
};

export const CAPABILITIES = Object.keys(CAPABILITY_REQUIREMENTS) as Capability[];

export type CommandOpRequirement = CapabilityRequirement & {
  capability: Capability;
  /** Also needed when the operation names another user than the actor (`star john`). */
  forAnotherUser?: PermissionKey;
  /** Applies only in projects that track time (the vocabulary's `timeTracking`). */
  timeTracking?: boolean;
};

const requirement = (
  capability: Capability,
  extra: { forAnotherUser?: PermissionKey; timeTracking?: boolean } = {},
): CommandOpRequirement => ({ capability, ...CAPABILITY_REQUIREMENTS[capability], ...extra });

/** What each command operation needs: the per-operation view of the table above. */
export const COMMAND_OP_REQUIREMENTS: Record<CommandOpKind, CommandOpRequirement> = {
  set: requirement('update'),
  add: requirement('update'),
  remove: requirement('update'),
  link: requirement('link'),
  unlink: requirement('link'),
  comment: requirement('comment'),
  tag: requirement('tag'),
  untag: requirement('tag'),
  star: requirement('star', { forAnotherUser: 'UPDATE_WATCHERS' }),
  unstar: requirement('star', { forAnotherUser: 'UPDATE_WATCHERS' }),
  vote: requirement('vote'),
  unvote: requirement('vote'),
  delete: requirement('delete'),
  visibleTo: requirement('visibility'),
  removeVisibleTo: requirement('visibility'),
  work: requirement('work', { timeTracking: true }),
};

/** What a command says when its project does not track time. */
export const NO_TIME_TRACKING = 'time tracking is not enabled in this project';

/** The vocabulary's `can` flags, given whether the actor holds a permission where it matters. */
export function capabilitiesOf(
  isGuest: boolean,
  holds: (permission: PermissionKey) => boolean,
): Record<Capability, boolean> {
  const flags = {} as Record<Capability, boolean>;
  for (const capability of CAPABILITIES) {
    const { permission, humansOnly } = CAPABILITY_REQUIREMENTS[capability];
    flags[capability] = !(humansOnly && isGuest) && holds(permission);
  }
  return flags;
}
