import type { Me } from '@trackline/client';
import { mayGlobally } from '../../lib/permissions';

type Permission = Me['permissions'][number];

/**
 * The administration screens and what each needs: the console shows a screen (and its link) only
 * to those who hold one of its permissions; the others get "No access" naming them. The server
 * decides every call regardless.
 */
export const ADMIN_SECTIONS: { path: string; title: string; needs: Permission[]; needsText: string }[] = [
  {
    path: '/admin',
    title: 'Projects',
    needs: ['CREATE_PROJECT', 'UPDATE_PROJECT', 'DELETE_PROJECT'],
    needsText: 'Create project or Update project',
  },
  {
    path: '/admin/fields',
    title: 'Fields',
    needs: ['UPDATE_PROJECT'],
    needsText: 'Update project (everywhere)',
  },
  {
    path: '/admin/users',
    title: 'Users',
    needs: ['CREATE_USER', 'UPDATE_USER', 'DELETE_USER'],
    needsText: 'Create user, Update user or Delete user',
  },
  {
    path: '/admin/groups',
    title: 'Groups',
    needs: ['CREATE_USERGROUP', 'UPDATE_USERGROUP', 'DELETE_USERGROUP'],
    needsText: 'Create group, Update group or Delete group',
  },
  {
    path: '/admin/roles',
    title: 'Roles',
    needs: ['CREATE_ROLE', 'UPDATE_ROLE', 'DELETE_ROLE'],
    needsText: 'Create role or Update role',
  },
  {
    path: '/admin/link-types',
    title: 'Link types',
    needs: ['UPDATE_ISSUE_LINK_TYPE'],
    needsText: 'Update issue link type',
  },
  {
    path: '/admin/vcs',
    title: 'VCS integrations',
    needs: ['ADMIN_VCS_INTEGRATION'],
    needsText: 'Administer VCS integrations',
  },
];

export type AdminSection = (typeof ADMIN_SECTIONS)[number];

/** Whether the caller may use a section (a project's own screen: Update project there). */
export function mayUse(me: Me, section: AdminSection): boolean {
  if (section.path === '/admin')
    return (
      section.needs.some((p) => mayGlobally(me, p)) ||
      me.projects.some((p) => p.permissions.includes('UPDATE_PROJECT'))
    );
  return section.needs.some((p) => mayGlobally(me, p));
}

/** Whether the caller may see any administration screen (the top bar's link). */
export const isAdmin = (me: Me) => ADMIN_SECTIONS.some((s) => mayUse(me, s));
