/**
 * What a parsed command means, independent of how it was typed. The parser produces
 * these (packages/domain/src/commands/parser.ts); execution applies them to issues
 * (packages/domain/src/issues/apply-command.ts). Names are canonical (as in the
 * vocabulary), never the aliases the user typed.
 */
export type TextRange = { start: number; end: number };

export type CommandOp = (
  | { kind: 'set'; field: string; value: string | null } // single-value field; null clears it
  | { kind: 'add'; field: string; value: string } // multi-value field (Fix versions...)
  | { kind: 'remove'; field: string; value: string }
  | { kind: 'tag'; tag: string }
  | { kind: 'untag'; tag: string }
  | { kind: 'star'; login: string }
  | { kind: 'unstar'; login: string }
  | { kind: 'vote' }
  | { kind: 'unvote' }
  /** `linkType` is the type's name; `outward` says which of its names was typed. */
  | { kind: 'link'; linkType: string; outward: boolean; issueId: string }
  | { kind: 'unlink'; linkType: string; outward: boolean; issueId: string }
  | { kind: 'comment' }
  /** Deletes the issue, as `DELETE /rest/issue/{id}` does. */
  | { kind: 'delete' }
  /** `visible to <group>`: only the group's members (and the reporter...) read the issue. */
  | { kind: 'visibleTo'; group: string }
  /** `remove visible to <group>`: lifts that group's restriction. */
  | { kind: 'removeVisibleTo'; group: string }
  /**
   * `work 2h [type] [date] [description]`: a work item of `minutes` by the actor; `date` in ms
   * (null: now), `workType` a known work type's name.
   */
  | { kind: 'work'; minutes: number; workType: string | null; date: number | null; text: string }
) & { range: TextRange; description: string };

export type CommandOpKind = CommandOp['kind'];
