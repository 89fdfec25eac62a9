import type { Me } from '@trackline/client';
import { NoAccess, NotFound } from '../../components/NotFound';
import { mayIn } from '../../lib/permissions';
import { Link, match } from '../../lib/router';
import { useTitle } from '../../lib/title';
import { FieldsAdmin } from './FieldsAdmin';
import { GroupsAdmin, RolesAdmin } from './GroupsRolesAdmin';
import { LinkTypesAdmin } from './LinkTypesAdmin';
import { ProjectAdmin } from './ProjectAdmin';
import { ProjectsAdmin } from './ProjectsAdmin';
import { ADMIN_SECTIONS, type AdminSection, mayUse } from './sections';
import { UserAdmin } from './UserAdmin';
import { UsersAdmin } from './UsersAdmin';
import { VcsAdmin } from './VcsAdmin';

const byPath = (path: string) => ADMIN_SECTIONS.find((s) => s.path === path) as AdminSection;

/**
 * The administration screens; each asks the server, which refuses what the caller may not do.
 * The navigation lists the screens the caller may use; another says "No access", an unknown
 * address "Page not found".
 */
export function AdminPage({ me, path }: { me: Me; path: string }) {
  const clean = path.replace(/\/$/, '') || '/admin';
  const project = match('/admin/projects/:project', clean);
  const user = match('/admin/users/:login', clean);
  const section = project
    ? byPath('/admin')
    : user
      ? byPath('/admin/users')
      : ADMIN_SECTIONS.find((s) => s.path === clean);
  useTitle(
    section
      ? `${project ? `Project ${project.project}` : user ? user.login : section.title} — Administration`
      : '',
  );
  if (!section) return <NotFound />;
  const allowed = ADMIN_SECTIONS.filter((s) => mayUse(me, s));
  const mayProject = project ? mayIn(me, project.project as string, 'UPDATE_PROJECT') : true;
  let body = <ProjectsAdmin me={me} />;
  if (!mayUse(me, section) || !mayProject)
    body = (
      <NoAccess
        what={project ? `Administering project ${project.project}` : `Administration › ${section.title}`}
        needs={project ? 'Update project in that project' : section.needsText}
      />
    );
  else if (project) body = <ProjectAdmin project={project.project as string} />;
  else if (user) body = <UserAdmin login={user.login as string} />;
  else if (section.path === '/admin/fields') body = <FieldsAdmin />;
  else if (section.path === '/admin/users') body = <UsersAdmin />;
  else if (section.path === '/admin/groups') body = <GroupsAdmin />;
  else if (section.path === '/admin/roles') body = <RolesAdmin />;
  else if (section.path === '/admin/link-types') body = <LinkTypesAdmin />;
  else if (section.path === '/admin/vcs') body = <VcsAdmin />;
  return (
    <div className="admin-page">
      {allowed.length > 0 && (
        <nav className="admin-nav" aria-label="Administration">
          <ul>
            {allowed.map((s) => (
              <li key={s.path}>
                <Link href={s.path} aria-current={s === section ? 'page' : undefined}>
                  {s.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <div className="admin-body">{body}</div>
    </div>
  );
}
