import { describe, expect, it } from 'vitest';
import { isPermissionKey, PERMISSION_KEYS, PERMISSIONS } from './permissions.js';

describe('permission catalogue', () => {
  it('has the legacy keys with descriptions', () => {
    for (const key of [
      'READ_ISSUE',
      'UPDATE_ISSUE',
      'CREATE_ISSUE',
      'LINK_ISSUE',
      'CREATE_PROJECT',
      'DELETE_PROJECT',
    ]) {
      expect(isPermissionKey(key)).toBe(true);
    }
    for (const key of PERMISSION_KEYS) expect(PERMISSIONS[key].description.length).toBeGreaterThan(3);
  });

  it('keeps administration permissions global', () => {
    for (const key of [
      'CREATE_PROJECT',
      'CREATE_ROLE',
      'UPDATE_ROLE',
      'UPDATE_ISSUE_LINK_TYPE',
      'LOW_LEVEL_ADMIN',
    ] as const) {
      expect(PERMISSIONS[key].scope).toBe('global');
    }
    expect(PERMISSIONS.READ_ISSUE.scope).toBe('project');
  });

  it('does not treat prototype names as keys', () => {
    expect(isPermissionKey('toString')).toBe(false);
    expect(isPermissionKey('read_issue')).toBe(false);
  });
});
