import type { PermissionKey } from '@trackline/contracts';
import { describe, expect, it } from 'vitest';
import { type Actor, covers, firstNotHeld, holdsInScope } from './actor.js';

const actor = (global: PermissionKey[], byProject: Record<number, PermissionKey[]> = {}): Actor => ({
  userId: 1,
  login: 'someone',
  type: 'user',
  global: new Set(global),
  byProject: new Map(Object.entries(byProject).map(([id, keys]) => [Number(id), new Set(keys)])),
});

describe('holdsInScope', () => {
  it('globally only through global grants; in a project through either', () => {
    const a = actor(['READ_ISSUE'], { 7: ['UPDATE_ISSUE', 'READ_ROLE'] });
    expect(holdsInScope(a, 'READ_ISSUE')).toBe(true);
    expect(holdsInScope(a, 'UPDATE_ISSUE')).toBe(false);
    expect(holdsInScope(a, 'UPDATE_ISSUE', 7)).toBe(true);
    expect(holdsInScope(a, 'READ_ROLE', 7)).toBe(true);
    expect(holdsInScope(a, 'READ_ROLE')).toBe(false);
    expect(holdsInScope(a, 'UPDATE_ISSUE', 8)).toBe(false);
    expect(firstNotHeld(a, ['READ_ISSUE', 'UPDATE_ISSUE', 'LINK_ISSUE'], 7)).toBe('LINK_ISSUE');
  });
});

describe('covers', () => {
  it('holds when every permission of the other is held in the same scope', () => {
    const admin = actor(['LOW_LEVEL_ADMIN', 'READ_ISSUE', 'UPDATE_ISSUE']);
    expect(covers(admin, actor(['READ_ISSUE'], { 3: ['UPDATE_ISSUE'] }))).toBe(true);
    expect(covers(admin, actor([], { 3: ['DELETE_ISSUE'] }))).toBe(false);
    expect(covers(admin, actor(['CREATE_PROJECT']))).toBe(false);
    // A project grant does not cover a global one.
    expect(covers(actor([], { 3: ['READ_ISSUE'] }), actor(['READ_ISSUE']))).toBe(false);
  });
});
