import type { Me } from '@trackline/client';

type Permission = Me['permissions'][number];

/** Whether the caller holds `permission` in `project` (global grants included, as the server counts them). */
export const mayIn = (me: Me, project: string, permission: Permission): boolean =>
  me.projects.some((p) => p.shortName === project && p.permissions.includes(permission)) ||
  me.permissions.includes(permission);

/** Whether the caller holds `permission` globally. */
export const mayGlobally = (me: Me, permission: Permission): boolean => me.permissions.includes(permission);
