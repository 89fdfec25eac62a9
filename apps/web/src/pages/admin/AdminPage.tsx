import type { Me } from '@trackline/client';
import { Link, match } from '../../lib/router';
import { FieldsAdmin } from './FieldsAdmin';
import { GroupsAdmin, RolesAdmin } from './GroupsRolesAdmin';
import { LinkTypesAdmin } from './LinkTypesAdmin';
import { ProjectAdmin, ProjectsAdmin } from './ProjectsAdmin';
import { UserAdmin, UsersAdmin } from './UsersAdmin';
import { VcsAdmin } from './VcsAdmin';

const SECTIONS = [
  { path: '/admin', title: 'Projects' },
  { path: '/admin/fields', title: 'Fields' },
  { path: '/admin/users', title: 'Users' },
  { path: '/admin/groups', title: 'Groups' },
  { path: '/admin/roles', title: 'Roles' },
  { path: '/admin/link-types', title: 'Link types' },
  { path: '/admin/vcs', title: 'VCS integrations' },
];

/** The administration screens; each asks the server, which refuses what the caller may not do. */
export function AdminPage({ me, path }: { me: Me; path: string }) {
  const project = match('/admin/projects/:project', path);
  const user = match('/admin/users/:login', path);
  const section =
    SECTIONS.find((s) => s.path === path.replace(/\/$/, '')) ??
    (project ? SECTIONS[0] : user ? SECTIONS[2] : SECTIONS[0]);
  let body = <ProjectsAdmin me={me} />;
  if (project) body = <ProjectAdmin project={project.project as string} />;
  else if (user) body = <UserAdmin login={user.login as string} />;
  else if (section?.path === '/admin/fields') body = <FieldsAdmin />;
  else if (section?.path === '/admin/users') body = <UsersAdmin />;
  else if (section?.path === '/admin/groups') body = <GroupsAdmin />;
  else if (section?.path === '/admin/roles') body = <RolesAdmin />;
  else if (section?.path === '/admin/link-types') body = <LinkTypesAdmin />;
  else if (section?.path === '/admin/vcs') body = <VcsAdmin />;
  return (
    <div className="admin-page">
      <nav className="admin-nav" aria-label="Administration">
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.path}>
              <Link href={s.path} aria-current={s === section ? 'page' : undefined}>
                {s.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="admin-body">{body}</div>
    </div>
  );
}
