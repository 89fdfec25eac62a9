import {
  LegacyClientError,
  LegacyConnection,
  type Link,
  type PyIssue,
  type PyObject,
} from './python-library.js';

/*
 * The flow of JetBrains' `youtrack2youtrack.py` (public `youtrack-python-scripts`, with
 * `youtrack/sync/users.py` and `youtrack/sync/links.py`), replayed over `python-library.ts`: the same
 * calls in the same order, the same decisions on their answers (a 404 project is created, a 409
 * bundle or value is "already there", an existing attachment or work item is skipped), the
 * `-T` option (tags by command) on. Read, not copied; the script itself needs Python 2.
 */

const PROHIBITED = '/';

/** `UserImporter` (users, their groups, the groups' roles and the roles' permissions). */
class UserImporter {
  private users = new Set<string>();
  private groups = new Set<string>();
  private roles = new Set<string>();
  private projects = new Set<string>();

  constructor(
    private source: LegacyConnection,
    private target: LegacyConnection,
  ) {}

  async init() {
    for (const u of await this.target.getUsers()) this.users.add(String(u.login));
    for (const g of await this.target.getGroups()) this.groups.add(String(g.name));
    for (const r of await this.target.getRoles()) this.roles.add(String(r.name));
    for (const p of await this.target.getProjectIds()) this.projects.add(p);
  }

  addCreatedProjects(ids: string[]) {
    for (const id of ids) this.projects.add(id);
  }

  private filter(user: PyObject): PyObject | null {
    const login = String(user.login);
    if (this.users.has(login) || login.includes(PROHIBITED)) return null;
    return { ...user, email: user.email === undefined ? '<no email>' : user.email };
  }

  async importUser(user: PyObject) {
    const filtered = this.filter(user);
    if (filtered) await this.target.importUsers([filtered]);
  }

  async importUsersRecursively(users: PyObject[]) {
    const unique = [...new Map(users.map((u) => [String(u.login), u])).values()];
    for (let start = 0; start < unique.length; start += 100) {
      const batch = unique
        .slice(start, start + 100)
        .map((u) => this.filter(u))
        .filter((u): u is PyObject => u !== null);
      if (!batch.length) continue;
      await this.target.importUsers(batch);
      for (const user of batch) {
        for (const group of await this.source.getUserGroups(String(user.login))) {
          if (!this.groups.has(String(group.name))) await this.createGroup(String(group.name));
          await this.target.setUserGroup(String(user.login), String(group.name));
        }
        this.users.add(String(user.login));
      }
    }
  }

  async importGroupsWithoutUsers(groups: string[]) {
    for (const g of groups) if (!this.groups.has(g)) await this.createGroup(g);
  }

  private async createGroup(name: string) {
    const groupRoles = await this.source.getGroupRoles(name);
    try {
      await this.target.createGroup(name);
    } catch (error) {
      // The script prints the error and goes on.
      if (!(error instanceof LegacyClientError)) throw error;
    }
    this.groups.add(name);
    for (const userRole of groupRoles) {
      const role = await this.source.getRole(userRole.name);
      if (!this.roles.has(String(role.name))) {
        const permissions = await this.source.getRolePermissions(String(role.name));
        await this.target.createRole(role);
        this.roles.add(String(role.name));
        for (const p of permissions) await this.target.addPermissionToRole(String(role.name), String(p.name));
      }
      await this.target.addUserRoleToGroup(name, {
        name: userRole.name,
        projects: userRole.projects.filter((p) => this.projects.has(p)),
      });
    }
  }
}

/** `LinkImporter`: links collected from each issue (outward only), imported once both ends exist. */
class LinkImporter {
  private links = new Map<string, Link>();
  private available = new Set<string>();
  private availableProjects = new Set<string>();
  constructor(private target: LegacyConnection) {}
  collect(links: Link[]) {
    for (const l of links) this.links.set(`${l.typeName}\n${l.source}\n${l.target}`, l);
  }
  addAvailableIssuesFrom(project: string) {
    this.availableProjects.add(project);
  }
  addAvailableIssues(ids: string[]) {
    for (const id of ids) this.available.add(id);
  }
  async importCollected() {
    const ready = [...this.links.values()].filter(
      (l) => this.available.has(l.source) && this.available.has(l.target),
    );
    for (let i = 0; i < ready.length; i += 100) await this.target.importLinks(ready.slice(i, i + 100));
  }
}

async function createBundleFromBundle(
  source: LegacyConnection,
  target: LegacyConnection,
  bundleName: string,
  fieldType: string,
  users: UserImporter,
) {
  const sourceBundle = await source.getBundle(fieldType, bundleName);
  const targetNames = (await target.getAllBundleNames(fieldType)).map((n) => n.trim());
  if (targetNames.includes(bundleName)) {
    const targetBundle = await target.getBundle(fieldType, bundleName);
    if (sourceBundle.type === 'user') {
      await users.importUsersRecursively(await Promise.all(sourceBundle.users.map((l) => source.getUser(l))));
      const groups = sourceBundle.groups.filter((g) => !targetBundle.groups.includes(g));
      await users.importGroupsWithoutUsers(groups);
      for (const g of groups) await target.addGroupToBundle(targetBundle, g);
      for (const u of sourceBundle.users.filter((l) => !targetBundle.users.includes(l)))
        await ignore409(() => target.addUserToBundle(targetBundle, u));
      return;
    }
    const have = new Set(targetBundle.values.map((v) => String(v.name).toLowerCase()));
    for (const v of sourceBundle.values.filter((v) => !have.has(String(v.name).trim().toLowerCase())))
      await ignore409(() => target.addValueToBundle(targetBundle, v));
    return;
  }
  const owners =
    sourceBundle.type === 'ownedField'
      ? sourceBundle.values.filter((v) => v.owner !== '<no user>').map((v) => String(v.owner))
      : sourceBundle.users;
  await users.importUsersRecursively(await Promise.all(owners.map((l) => source.getUser(l))));
  await users.importGroupsWithoutUsers(sourceBundle.groups);
  await target.createBundle(sourceBundle);
}

async function ignore409(call: () => Promise<unknown>) {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof LegacyClientError) || error.status !== 409) throw error;
  }
}

const workItemKey = (w: PyObject) =>
  `${w.date}\n${w.authorLogin}\n${w.duration}${w.description !== undefined ? `\n${w.description}` : ''}`;

/** `youtrack2youtrack(source, target, project_ids, params={'sync_tags': True})`. */
export async function youtrack2youtrack(
  sourceUrl: string,
  targetUrl: string,
  login: string,
  password: string,
  projectIds: string[],
): Promise<{ requests: number }> {
  let source = await LegacyConnection.open(sourceUrl, login, password);
  let target = await LegacyConnection.open(targetUrl, login, password);
  const connections = [source, target];

  for (const t of await source.getIssueLinkTypes()) {
    try {
      await target.createIssueLinkType(t);
    } catch (error) {
      if (!(error instanceof LegacyClientError)) throw error;
    }
  }
  const users = new UserImporter(source, target);
  await users.init();
  const links = new LinkImporter(target);

  const created: PyObject[] = [];
  for (const id of projectIds) {
    const project = await source.getProject(id);
    await users.importUser(await source.getUser(String(project.lead)));
    try {
      await target.getProject(id);
    } catch (error) {
      if (!(error instanceof LegacyClientError)) throw error;
      await target.createProject(project);
    }
    created.push(await target.getProject(id));
  }
  users.addCreatedProjects(created.map((p) => String(p.id)));
  await users.importUsersRecursively(await Promise.all(created.map((p) => target.getUser(String(p.lead)))));

  const fieldNames = new Set<string>();
  for (const id of projectIds)
    for (const f of await source.getProjectCustomFields(id)) fieldNames.add(String(f.name));
  const targetFieldNames = new Set((await target.getCustomFields()).map((f) => String(f.name).toLowerCase()));
  for (const name of fieldNames) {
    const cf = await source.getCustomField(name);
    if (targetFieldNames.has(name.toLowerCase())) {
      const t = await target.getCustomField(name);
      if (t.type !== cf.type) throw new Error(`field [ ${name} ] has types ${cf.type} and ${t.type}`);
    } else {
      if (cf.defaultBundle !== undefined)
        await createBundleFromBundle(source, target, String(cf.defaultBundle), String(cf.type), users);
      await target.createCustomField(cf);
    }
  }

  for (const projectId of projectIds) {
    // The script opens fresh connections per project ("to avoid disconnections").
    source = await LegacyConnection.open(sourceUrl, login, password);
    target = await LegacyConnection.open(targetUrl, login, password);
    connections.push(source, target);
    (users as unknown as { source: LegacyConnection; target: LegacyConnection }).source = source;
    (users as unknown as { source: LegacyConnection; target: LegacyConnection }).target = target;
    (links as unknown as { target: LegacyConnection }).target = target;
    const project = await source.getProject(projectId);
    links.addAvailableIssuesFrom(projectId);
    const projectFields = await source.getProjectCustomFields(projectId);
    for (const pcf of projectFields)
      if (pcf.bundle !== undefined)
        await ignore409(async () =>
          createBundleFromBundle(
            source,
            target,
            String(pcf.bundle),
            String((await source.getCustomField(String(pcf.name))).type),
            users,
          ),
        );
    const targetFields = new Map(
      (await target.getProjectCustomFields(projectId)).map((f) => [String(f.name).toLowerCase(), f]),
    );
    for (const field of projectFields) {
      const existing = targetFields.get(String(field.name).toLowerCase());
      const params: Record<string, string> =
        field.bundle !== undefined ? { bundle: String(field.bundle) } : {};
      if (existing) {
        if (field.bundle !== undefined && field.bundle !== existing.bundle) {
          await target.req(
            'DELETE',
            `/admin/project/${projectId}/customfield/${encodeURIComponent(String(field.name))}`,
          );
          await target.createProjectCustomField(
            projectId,
            String(field.name),
            `No ${String(field.name).toLowerCase()}`,
            params,
          );
        }
      } else
        await ignore409(() =>
          target.createProjectCustomField(
            projectId,
            String(field.name),
            `No ${String(field.name).toLowerCase()}`,
            params,
          ),
        );
    }

    // enable_time_tracking
    let syncWorkItems = false;
    const dst = await target.getProjectTimeTrackingSettings(projectId);
    if (dst) {
      const src = await source.getProjectTimeTrackingSettings(projectId);
      if (src?.Enabled) {
        const keep = !(dst.EstimateField || dst.TimeSpentField);
        await target.setProjectTimeTrackingSettings(
          projectId,
          keep ? src.EstimateField : undefined,
          keep ? src.TimeSpentField : undefined,
          true,
        );
        for (const t of await source.getWorkTypes(projectId))
          await target.createProjectWorkType(projectId, t);
        syncWorkItems = true;
      }
    }

    for (let start = 0; ; start += 20) {
      const issues = await source.getIssues(projectId, '', start, 20);
      if (!issues.length) break;
      const people: PyObject[] = [];
      for (const issue of issues) {
        const f = issue.fields;
        people.push(await source.getUser(String(f.reporterName)));
        const assignees =
          f.Assignee === undefined ? [] : Array.isArray(f.Assignee) ? f.Assignee : [f.Assignee];
        for (const a of assignees) people.push(await source.getUser(a));
        people.push(await source.getUser(String(f.updaterName)));
        const voters =
          f.voterName === undefined ? [] : Array.isArray(f.voterName) ? f.voterName : [f.voterName];
        for (const v of voters) people.push(await source.getUser(v));
        issue.comments = await source.getComments(String(f.id));
        for (const c of issue.comments) people.push(await source.getUser(String(c.author)));
        links.collect(await source.getLinks(String(f.id), true));
        for (const c of issue.comments) if (!c.text?.trim()) c.text = 'no text';
      }
      await users.importUsersRecursively(people);
      await target.importIssues(projectId, `${project.name} Assignees`, issues);
      links.addAvailableIssues(issues.map((i) => String(i.fields.id)));

      for (const issue of issues) {
        const id = String(issue.fields.id);
        try {
          await target.getIssue(id);
        } catch (error) {
          if (error instanceof LegacyClientError) continue;
          throw error;
        }
        for (const tag of issue.tags) await target.executeCommand(id, `tag ${tag.replace(/[,&<>]/g, '_')}`);
        if (syncWorkItems) {
          const items = await source.getWorkItems(id);
          if (items.length) {
            const existing = new Set((await target.getWorkItems(id)).map(workItemKey));
            const fresh = items.filter((w) => !existing.has(workItemKey(w)));
            if (fresh.length) await target.importWorkItems(id, fresh);
          }
        }
        const existing = new Set((await target.getAttachments(id)).map((a) => `${a.name}\n${a.created}`));
        const attachments = (await source.getAttachments(id)).filter(
          (a) => !existing.has(`${a.name}\n${a.created}`),
        );
        await users.importUsersRecursively(
          await Promise.all(
            attachments
              .filter((a) => a.authorLogin !== '<no user>')
              .map((a) => source.getUser(String(a.authorLogin))),
          ),
        );
        for (const a of attachments) {
          const content = await source.getAttachmentContent(String(a.url));
          await target.importAttachment(id, String(a.name), content.bytes, content.contentType, a);
        }
      }
    }
  }
  await links.importCollected();
  return { requests: connections.reduce((n, c) => n + c.sent.length, 0) };
}

export type { PyIssue };
