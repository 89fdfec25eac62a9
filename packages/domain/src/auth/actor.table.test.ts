import { PERMISSION_KEYS, type PermissionKey } from '@trackline/contracts';
import { describe, expect, it } from 'vitest';
import { type Actor, can, canAnywhere, projectsWith } from './actor.js';

/**
 * `can`, `canAnywhere` and `projectsWith` as tables: a handful of actors, three permissions
 * (two project-scoped, one global-scoped) and the projects 1, 2 and 3 (3 in the trash where
 * an actor says so). Every expected answer is written out by hand.
 */

const actor = (
  global: readonly PermissionKey[],
  byProject: Record<number, PermissionKey[]> = {},
  trash?: { ids: number[]; live: number[] },
): Actor => ({
  userId: 1,
  login: 'someone',
  type: 'user',
  global: new Set(global),
  byProject: new Map(Object.entries(byProject).map(([id, keys]) => [Number(id), new Set(keys)])),
  ...(trash ? { trash: { ids: new Set(trash.ids), live: trash.live } } : {}),
});

const ACTORS = {
  /** Every permission, globally (what the seeded root and a global Admin get). */
  root: actor(PERMISSION_KEYS),
  /** Root while project 3 is in the trash (1 and 2 live). */
  rootWithTrash: actor(PERMISSION_KEYS, {}, { ids: [3], live: [1, 2] }),
  /** READ_ISSUE and CREATE_PROJECT granted globally. */
  globalReader: actor(['READ_ISSUE', 'CREATE_PROJECT']),
  /** A developer in 1 (read and update) and an observer in 2 (read). */
  projectDeveloper: actor([], { 1: ['READ_ISSUE', 'UPDATE_ISSUE'], 2: ['READ_ISSUE'] }),
  /** CREATE_PROJECT is global-scoped: a grant of it in a project gives it nowhere for `can`. */
  globalScopedInProject: actor([], { 1: ['CREATE_PROJECT', 'READ_ISSUE'] }),
  /** Grants in 1 and 3; 3 is in the trash, so nothing holds there. */
  withTrashedProject: actor(
    ['CREATE_PROJECT'],
    { 1: ['READ_ISSUE'], 3: ['READ_ISSUE', 'UPDATE_ISSUE'] },
    {
      ids: [3],
      live: [1, 2],
    },
  ),
  /** Global READ_ISSUE while 3 is in the trash. */
  globalReaderWithTrash: actor(['READ_ISSUE'], {}, { ids: [3], live: [1, 2] }),
  nobody: actor([]),
} satisfies Record<string, Actor>;
type ActorName = keyof typeof ACTORS;

type Permission = 'READ_ISSUE' | 'UPDATE_ISSUE' | 'CREATE_PROJECT';
/** Answers of `can` without a project, then in projects 1, 2, 3. */
type Answers = [global: boolean, p1: boolean, p2: boolean, p3: boolean];

const T = true;
const F = false;

// biome-ignore format: one row per actor and permission, aligned for reading
const CAN: Record<ActorName, Record<Permission, Answers>> = {
  root:                  { READ_ISSUE: [T, T, T, T], UPDATE_ISSUE: [T, T, T, T], CREATE_PROJECT: [T, T, T, T] },
  rootWithTrash:         { READ_ISSUE: [T, T, T, F], UPDATE_ISSUE: [T, T, T, F], CREATE_PROJECT: [T, T, T, F] },
  globalReader:          { READ_ISSUE: [T, T, T, T], UPDATE_ISSUE: [F, F, F, F], CREATE_PROJECT: [T, T, T, T] },
  projectDeveloper:      { READ_ISSUE: [F, T, T, F], UPDATE_ISSUE: [F, T, F, F], CREATE_PROJECT: [F, F, F, F] },
  globalScopedInProject: { READ_ISSUE: [F, T, F, F], UPDATE_ISSUE: [F, F, F, F], CREATE_PROJECT: [F, F, F, F] },
  withTrashedProject:    { READ_ISSUE: [F, T, F, F], UPDATE_ISSUE: [F, F, F, F], CREATE_PROJECT: [T, T, T, F] },
  globalReaderWithTrash: { READ_ISSUE: [T, T, T, F], UPDATE_ISSUE: [F, F, F, F], CREATE_PROJECT: [F, F, F, F] },
  nobody:                { READ_ISSUE: [F, F, F, F], UPDATE_ISSUE: [F, F, F, F], CREATE_PROJECT: [F, F, F, F] },
};

// biome-ignore format: one row per actor, aligned for reading
const CAN_ANYWHERE: Record<ActorName, Record<Permission, boolean>> = {
  root:                  { READ_ISSUE: T, UPDATE_ISSUE: T, CREATE_PROJECT: T },
  rootWithTrash:         { READ_ISSUE: T, UPDATE_ISSUE: T, CREATE_PROJECT: T },
  globalReader:          { READ_ISSUE: T, UPDATE_ISSUE: F, CREATE_PROJECT: T },
  projectDeveloper:      { READ_ISSUE: T, UPDATE_ISSUE: T, CREATE_PROJECT: F },
  // canAnywhere reads the project grants as they are, whatever the permission's scope.
  globalScopedInProject: { READ_ISSUE: T, UPDATE_ISSUE: F, CREATE_PROJECT: T },
  withTrashedProject:    { READ_ISSUE: T, UPDATE_ISSUE: F, CREATE_PROJECT: T },
  globalReaderWithTrash: { READ_ISSUE: T, UPDATE_ISSUE: F, CREATE_PROJECT: F },
  nobody:                { READ_ISSUE: F, UPDATE_ISSUE: F, CREATE_PROJECT: F },
};

// biome-ignore format: one row per actor, aligned for reading
const PROJECTS_WITH: Record<ActorName, Record<Permission, 'all' | number[]>> = {
  root:                  { READ_ISSUE: 'all',  UPDATE_ISSUE: 'all',  CREATE_PROJECT: 'all' },
  rootWithTrash:         { READ_ISSUE: [1, 2], UPDATE_ISSUE: [1, 2], CREATE_PROJECT: [1, 2] },
  globalReader:          { READ_ISSUE: 'all',  UPDATE_ISSUE: [],     CREATE_PROJECT: 'all' },
  projectDeveloper:      { READ_ISSUE: [1, 2], UPDATE_ISSUE: [1],    CREATE_PROJECT: [] },
  // Like canAnywhere, projectsWith lists the project grants whatever the permission's scope.
  globalScopedInProject: { READ_ISSUE: [1],    UPDATE_ISSUE: [],     CREATE_PROJECT: [1] },
  withTrashedProject:    { READ_ISSUE: [1],    UPDATE_ISSUE: [],     CREATE_PROJECT: [1, 2] },
  globalReaderWithTrash: { READ_ISSUE: [1, 2], UPDATE_ISSUE: [],     CREATE_PROJECT: [] },
  nobody:                { READ_ISSUE: [],     UPDATE_ISSUE: [],     CREATE_PROJECT: [] },
};

const SCOPES = [undefined, 1, 2, 3] as const;

describe('can, as a table', () => {
  for (const [name, rows] of Object.entries(CAN) as [ActorName, Record<Permission, Answers>][]) {
    for (const [permission, answers] of Object.entries(rows) as [Permission, Answers][]) {
      it(`${name} / ${permission}: ${answers.map((a) => (a ? 'T' : 'F')).join(' ')}`, () => {
        const got = SCOPES.map((project) => can(ACTORS[name], permission, project));
        expect(got).toEqual(answers);
      });
    }
  }
});

describe('canAnywhere, as a table', () => {
  for (const [name, rows] of Object.entries(CAN_ANYWHERE) as [ActorName, Record<Permission, boolean>][]) {
    for (const [permission, expected] of Object.entries(rows) as [Permission, boolean][]) {
      it(`${name} / ${permission}: ${expected}`, () => {
        expect(canAnywhere(ACTORS[name], permission)).toBe(expected);
      });
    }
  }
});

describe('projectsWith, as a table', () => {
  for (const [name, rows] of Object.entries(PROJECTS_WITH) as [
    ActorName,
    Record<Permission, 'all' | number[]>,
  ][]) {
    for (const [permission, expected] of Object.entries(rows) as [Permission, 'all' | number[]][]) {
      it(`${name} / ${permission}: ${JSON.stringify(expected)}`, () => {
        const got = projectsWith(ACTORS[name], permission);
        expect(got === 'all' ? got : [...got].sort((a, b) => a - b)).toEqual(expected);
      });
    }
  }
});
