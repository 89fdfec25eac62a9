import type { Capability } from './requirements.js';
/**
 * Everything the command language may refer to, for one set of context issues and one
 * actor. Built from the database by `issues/build-vocabulary.ts`; the scanner, parser
 * and suggester are pure functions of (text, vocabulary) and never touch the database.
 * Only what the actor could apply to the context appears here.
 */
export type VocabularyField = {
  /** Canonical name, e.g. 'State', 'Fix versions'. Matched case-insensitively. */
  name: string;
  /** Bundle kinds list their `values`; simple kinds (string...period) take any value of their type. */
  kind:
    | 'enum'
    | 'state'
    | 'user'
    | 'version'
    | 'build'
    | 'ownedField'
    | 'string'
    | 'text'
    | 'integer'
    | 'float'
    | 'date'
    | 'period';
  /** Other names of the field, its prototype's aliases (`affects` for Affected versions). */
  aliases?: string[];
  /** Multi-value fields take `add`/`remove`; a bare value adds. */
  multi: boolean;
  values: VocabularyValue[];
  /** Whether the field can be emptied (e.g. `Assignee Unassigned`). */
  canBeEmpty: boolean;
  /** The word that empties it ('Unassigned', 'No subsystem'...). */
  emptyText?: string;
};

export type VocabularyValue = { name: string; description?: string; resolved?: boolean };

export type CommandVocabulary = {
  /** The actor's login: `for me`, `star me`. */
  me: string;
  fields: VocabularyField[];
  /** Users that may appear after `for`, `star`, or as user-field values (login + full name). */
  users: { login: string; fullName: string }[];
  /** Tags the actor can apply (existing ones; `tag X` with a new name creates it). */
  tags: { name: string }[];
  linkTypes: { name: string; outwardName: string; inwardName: string; directed: boolean }[];
  /** Work types (`work 2h Development`). */
  workTypes: { name: string }[];
  /** Whether every context project tracks time (`work` applies only there). */
  timeTracking: boolean;
  /** Groups an issue may be made visible to (`visible to <group>`). */
  groups: { name: string }[];
  /** Readable ids of issues the actor may link to, for suggestions (a bounded sample). */
  issueIds: string[];
  /** Permission facts for the context: which kinds of command the actor may apply. */
  can: Record<Capability, boolean>;
};
