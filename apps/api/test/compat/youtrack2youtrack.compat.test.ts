import { ROOT_PASSWORD } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import { execute, q } from '../issue-fixtures.js';
import { LegacyConnection, type PyObject } from './python-library.js';
import { youtrack2youtrack } from './youtrack2youtrack.js';

/*
 * A move between two servers as the original's youtrack2youtrack does it (issue 22): server A is
 * populated through the legacy API (two projects, users, groups, a role, custom fields with enum,
 * owned-field and version bundle values, issues with comments, links, tags, attachments, work
 * items, votes and watchers), then `youtrack2youtrack.ts` replays the script's calls from A into an
 * empty server B, and everything is read back from both through the legacy read routes and
 * compared. The database is the harness's (TRACKLINE_TEST_DB: SQLite or PostgreSQL).
 */

let A: TestServer;
let B: TestServer;
let a: LegacyConnection;
let b: LegacyConnection;
const PROJECTS = ['ALPHA', 'BETA'];
const T0 = Date.UTC(2015, 2, 4, 5, 6, 7);

const ok = async (res: Promise<{ status: number; text: string }>, what: string) => {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r;
};
const as = (
  server: TestServer,
  user: string,
  method: string,
  path: string,
  body?: string,
  contentType?: string,
) =>
  ok(
    server.request(method, path, {
      user,
      ...(user === 'root' ? {} : { password: 'pw-secret-1' }),
      ...(body !== undefined ? { body, contentType: contentType ?? 'application/xml' } : {}),
    }),
    `${user} ${method} ${path}`,
  );
const command = (id: string, cmd: string, user = 'root', comment?: string) =>
  ok(
    execute(
      A,
      id,
      { command: cmd, ...(comment ? { comment } : {}) },
      user === 'root' ? {} : { user, password: 'pw-secret-1' },
    ),
    `${id}: ${cmd}`,
  );

async function populate(s: TestServer) {
  const root = (method: string, path: string, body?: string) => as(s, 'root', method, path, body);
  for (const [login, fullName, jabber] of [
    ['alice', 'Alice Archer', 'alice@jabber.example'],
    ['bob', 'Bob Baker', ''],
    ['carol', 'Carol Cook', ''],
    ['dave', 'Dave Dunn', 'dave@jabber.example'],
  ] as const) {
    await root(
      'PUT',
      `/rest/admin/user/${login}${q({ password: 'pw-secret-1', fullName, email: `${login}@example.com` })}`,
    );
    if (jabber) await root('POST', `/rest/admin/user/${login}${q({ jabber })}`);
  }
  // A role of our own with its permissions, two groups with roles per project, members.
  await root('PUT', `/rest/admin/role/Triager${q({ description: 'Sorts incoming issues' })}`);
  for (const p of [
    'READ_PROJECT',
    'READ_ISSUE',
    'CREATE_ISSUE',
    'UPDATE_ISSUE',
    'READ_COMMENT',
    'CREATE_COMMENT',
  ])
    await root('POST', `/rest/admin/role/Triager/permission/${p}`);
  await root(
    'PUT',
    '/rest/admin/project/ALPHA?projectName=Alpha&startingNumber=1&projectLeadLogin=alice&description=The+first',
  );
  await root('PUT', '/rest/admin/project/BETA?projectName=Beta&startingNumber=1&projectLeadLogin=bob');
  await root('PUT', '/rest/admin/group/Devs?autoJoin=false');
  await root('PUT', '/rest/admin/group/QA?autoJoin=false');
  await root(
    'PUT',
    '/rest/admin/group/Devs/role/Developer',
    '<userRole name="Developer"><projects><projectRef id="ALPHA"/><projectRef id="BETA"/></projects></userRole>',
  );
  await root(
    'PUT',
    '/rest/admin/group/QA/role/Triager',
    '<userRole name="Triager"><projects><projectRef id="BETA"/></projects></userRole>',
  );
  for (const [user, group] of [
    ['alice', 'Devs'],
    ['bob', 'Devs'],
    ['carol', 'QA'],
    ['carol', 'Devs'],
    ['dave', 'Devs'],
  ])
    await root('POST', `/rest/admin/user/${user}/group/${group}`);
  // An enum field with its own bundle (colour, description), on both projects.
  await root(
    'PUT',
    '/rest/admin/customfield/bundle',
    '<enumeration name="Severities"><value colorIndex="3" description="stops work">Blocker</value><value>Minor</value><value colorIndex="5">Cosmetic</value></enumeration>',
  );
  await root(
    'PUT',
    `/rest/admin/customfield/field/Severity${q({ type: 'enum[1]', isPrivate: 'false', defaultVisibility: 'true', defaultBundle: 'Severities' })}`,
  );
  for (const p of PROJECTS)
    await root(
      'PUT',
      `/rest/admin/project/${p}/customfield/Severity${q({ bundle: 'Severities', emptyFieldText: 'No severity' })}`,
    );
  // Owned-field values with and without an owner, versions with dates, a work type; time tracking on ALPHA.
  await root(
    'PUT',
    `/rest/admin/project/ALPHA/subsystem/UI${q({ isDefault: 'false', defaultAssignee: 'alice' })}`,
  );
  await root(
    'PUT',
    `/rest/admin/project/ALPHA/subsystem/Core${q({ isDefault: 'false', defaultAssignee: '' })}`,
  );
  await root(
    'PUT',
    `/rest/admin/project/BETA/subsystem/Docs${q({ isDefault: 'false', defaultAssignee: 'carol' })}`,
  );
  for (const [p, v, date] of [
    ['ALPHA', '1.0', T0],
    ['ALPHA', '2.0', T0 + 86_400_000],
    ['BETA', '0.9', T0 - 86_400_000],
  ] as const)
    await root(
      'PUT',
      `/rest/admin/project/${p}/version/${v}${q({ description: `version ${v}`, releaseDate: date })}`,
    );
  for (const p of PROJECTS)
    await root('PUT', `/rest/admin/project/${p}/assignee/${p === 'ALPHA' ? 'bob' : 'carol'}`);
  await root('PUT', '/rest/admin/project/ALPHA/assignee/alice');
  await root('POST', '/rest/admin/timetracking/worktype', '<workType><name>Development</name></workType>');
  await root('POST', '/rest/admin/timetracking/worktype', '<workType><name>Review</name></workType>');
  await root('PUT', '/rest/admin/project/ALPHA/timetracking', '<settings enabled="true"/>');

  const ids: Record<string, string> = {};
  const create = async (key: string, project: string, user: string, summary: string, description: string) => {
    const res = await as(s, user, 'PUT', `/rest/issue${q({ project, summary, description })}`);
    void res;
    const list = await as(s, 'root', 'GET', `/rest/issue/byproject/${project}${q({ max: 100 })}`);
    const all = [...list.text.matchAll(/<issue id="([^"]+)"/g)].map((m) => m[1] as string);
    ids[key] = all.sort((x, y) => Number(y.split('-')[1]) - Number(x.split('-')[1]))[0] as string;
  };
  await create('a1', 'ALPHA', 'alice', 'Crash on start', 'Steps:\n1. start\n2. crash');
  await create('a2', 'ALPHA', 'bob', 'Slow search <fast> & "quoted"', '');
  await create('b1', 'BETA', 'carol', 'Typo in docs', 'See page 3');
  await create('a3', 'ALPHA', 'root', 'Button colour', 'Make it blue');
  await create('b2', 'BETA', 'bob', 'Broken link', 'Links page');
  // An issue visible to one group only (the python library's createIssue `permittedGroup`).
  await as(
    s,
    'root',
    'PUT',
    `/rest/issue${q({ project: 'BETA', summary: 'Private to QA', permittedGroup: 'QA' })}`,
  );
  const A1 = ids.a1 as string;
  const A2 = ids.a2 as string;
  const A3 = ids.a3 as string;
  const B1 = ids.b1 as string;
  const B2 = ids.b2 as string;
  await command(A1, 'Priority Critical Severity Blocker Subsystem UI Fix versions 1.0 Assignee bob');
  await command(
    A2,
    'Type Feature Severity Cosmetic Subsystem Core Fix versions 1.0 Fix versions 2.0 Assignee alice State Fixed',
  );
  await command(A3, 'Priority Minor');
  await command(B1, 'Subsystem Docs Fix versions 0.9 Assignee carol Severity Minor');
  await command(B2, 'State Open');
  await command(A1, 'comment', 'bob', 'I can reproduce it.\nSecond line & <tags>');
  await command(A1, 'comment', 'alice', 'Fixed in the next build');
  await command(B1, 'comment', 'carol', 'Checked');
  // Links in every kind of direction, across projects; the Relates from the newer issue.
  await command(A3, `relates to ${A1}`);
  await command(A1, `depends on ${B1}`);
  await command(B2, `subtask of ${A2}`, 'bob');
  await command(A2, `duplicates ${A3}`);
  // Tags, votes, watchers.
  await command(A1, 'tag regression');
  await command(B1, 'tag docs');
  await command(A1, 'vote', 'carol');
  await command(A1, 'vote', 'dave');
  await command(A2, 'star', 'carol');
  await command(A1, 'star', 'bob');
  // Attachments (bytes of every value) by different users; work items with types.
  const upload = async (id: string, user: string, name: string, bytes: Buffer, type: string) => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(bytes)], { type }), name);
    const res = await fetch(`${s.url}/rest/issue/${id}/attachment`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${user}:${user === 'root' ? ROOT_PASSWORD : 'pw-secret-1'}`).toString('base64')}`,
      },
      body: form,
    });
    if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
  };
  await upload(A1, 'alice', 'trace.log', Buffer.from('line 1\nline 2\n'), 'text/plain');
  await upload(
    A1,
    'bob',
    'screen shot.png',
    Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    'image/png',
  );
  await upload(B1, 'carol', 'notes.txt', Buffer.from('docs'), 'text/plain');
  for (const [id, user, date, duration, description, type] of [
    [A1, 'bob', T0 + 3_600_000, 90, 'investigation', 'Development'],
    [A1, 'alice', T0 + 7_200_000, 30, 'code review', 'Review'],
    [A2, 'alice', T0 + 9_000_000, 45, '', ''],
  ] as const)
    await as(
      s,
      user,
      'POST',
      `/rest/issue/${id}/timetracking/workitem`,
      `<workItem><date>${date}</date><duration>${duration}</duration>${description ? `<description>${description}</description>` : ''}${type ? `<worktype><name>${type}</name></worktype>` : ''}</workItem>`,
    );
}

/** Everything the comparison reads, from one server, through the legacy read routes only. */
async function snapshot(c: LegacyConnection) {
  const users: Record<string, PyObject> = {};
  for (const u of await c.getUsers()) {
    const full = await c.getUser(String(u.login));
    const groups = (await c.getUserGroups(String(u.login))).map((g) => String(g.name)).sort();
    users[String(u.login)] = {
      login: full.login,
      fullName: full.fullName,
      email: full.email,
      jabber: full.jabber ?? '',
      groups,
    } as PyObject;
  }
  const groups: Record<string, unknown> = {};
  for (const g of await c.getGroups()) groups[String(g.name)] = await c.getGroupRoles(String(g.name));
  const roles: Record<string, unknown> = {};
  for (const r of await c.getRoles())
    roles[String(r.name)] = {
      description: (await c.getRole(String(r.name))).description ?? '',
      permissions: (await c.getRolePermissions(String(r.name))).map((p) => String(p.name)).sort(),
    };
  const linkTypes = (await c.getIssueLinkTypes()).map((t) => [
    t.name,
    t.outwardName,
    t.inwardName,
    t.directed,
  ]);
  const projects: Record<string, unknown> = {};
  for (const p of PROJECTS) {
    const project = await c.getProject(p);
    const fields: Record<string, unknown> = {};
    for (const f of await c.getProjectCustomFields(p)) {
      const bundle =
        f.bundle === undefined
          ? undefined
          : await c.getBundle(String((await c.getCustomField(String(f.name))).type), String(f.bundle));
      fields[String(f.name)] = {
        type: f.type,
        emptyText: f.emptyText,
        bundle: bundle && {
          name: bundle.name,
          users: [...bundle.users].sort(),
          groups: [...bundle.groups].sort(),
          // `released` and `archived` are left out: the python library never sends them (see below).
          values: bundle.values.map(({ released: _r, archived: _a, ...v }) => v),
        },
      };
    }
    const issues: Record<string, unknown> = {};
    for (let start = 0; ; start += 10) {
      const page = await c.getIssues(p, '', start, 10);
      if (!page.length) break;
      for (const issue of page) {
        const id = String(issue.fields.id);
        const { entityId: _e, ...fields } = issue.fields;
        issues[id] = {
          fields,
          tags: [...issue.tags].sort(),
          comments: (await c.getComments(id)).map(({ id: _i, issueId: _x, ...rest }) => rest),
          links: (await c.getLinks(id)).map((l) => [l.typeName, l.source, l.target]).sort(),
          attachments: await Promise.all(
            (await c.getAttachments(id)).map(async (f) => ({
              name: f.name,
              authorLogin: f.authorLogin,
              created: f.created,
              group: f.group ?? '',
              bytes: (await c.getAttachmentContent(String(f.url))).bytes.toString('base64'),
            })),
          ),
          workItems: (await c.getWorkItems(id)).map(({ url: _u, id: _i, ...w }) => w),
        };
      }
    }
    projects[p] = {
      project: {
        name: project.name,
        lead: project.lead,
        description: String(project.description ?? '').trim(),
      },
      fields,
      issues,
      workTypes: (await c.getWorkTypes(p)).map((t) => t.name).sort(),
      timeTracking: await c.getProjectTimeTrackingSettings(p),
    };
  }
  return { users, groups, roles, linkTypes, projects };
}

/** The differences between two snapshots, as `path: a ≠ b` lines (none when equal). */
function differences(x: unknown, y: unknown, path = ''): string[] {
  if (JSON.stringify(x) === JSON.stringify(y)) return [];
  if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) {
    const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
    return [...keys].flatMap((k) =>
      differences((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${path}/${k}`),
    );
  }
  return [`${path}: ${JSON.stringify(x)} ≠ ${JSON.stringify(y)}`];
}

/** The target without the `<project> Assignees` groups the import created (checked on their own). */
function withoutAssigneeGroups(x: Awaited<ReturnType<typeof snapshot>>) {
  const assignees = (g: string) => / Assignees$/.test(g);
  return {
    ...x,
    users: Object.fromEntries(
      Object.entries(x.users).map(([k, u]) => [
        k,
        { ...u, groups: (u.groups as string[]).filter((g) => !assignees(g)) },
      ]),
    ),
    groups: Object.fromEntries(Object.entries(x.groups).filter(([g]) => !assignees(g))),
  };
}

let before: Awaited<ReturnType<typeof snapshot>>;
let after: Awaited<ReturnType<typeof snapshot>>;
let requests = 0;

beforeAll(async () => {
  A = await startTestServer();
  B = await startTestServer();
  await populate(A);
  const moved = await youtrack2youtrack(A.url, B.url, 'root', ROOT_PASSWORD, PROJECTS);
  requests = moved.requests;
  a = await LegacyConnection.open(A.url, 'root', ROOT_PASSWORD);
  b = await LegacyConnection.open(B.url, 'root', ROOT_PASSWORD);
  before = await snapshot(a);
  after = await snapshot(b);
}, 240_000);
afterAll(async () => {
  await A?.close();
  await B?.close();
});

describe('youtrack2youtrack from one Trackline into an empty one', () => {
  it('runs the whole script (hundreds of sequential requests, none refused)', () => {
    expect(requests).toBeGreaterThan(200);
  });

  it('creates the "<project> Assignees" group the script names, without roles, holding the imported assignees', () => {
    // The one intended addition: the original created the group importIssues names (assigneeGroup).
    expect(after.groups['Alpha Assignees']).toEqual([]);
    expect(after.groups['Beta Assignees']).toEqual([]);
    const members = (group: string) =>
      Object.values(after.users)
        .filter((u) => (u.groups as string[]).includes(group))
        .map((u) => u.login)
        .sort();
    expect(members('Alpha Assignees')).toEqual(['alice', 'bob']);
    expect(members('Beta Assignees')).toEqual(['carol']);
  });

  it('moves users (login fullName email jabber, groups), groups with their roles per project, and roles with permissions', () => {
    expect(differences(before.users, withoutAssigneeGroups(after).users)).toEqual([]);
    expect(differences(before.groups, withoutAssigneeGroups(after).groups)).toEqual([]);
    expect(differences(before.roles, after.roles)).toEqual([]);
    expect(differences(before.linkTypes, after.linkTypes)).toEqual([]);
    // Sanity: the comparison saw what was populated.
    expect(before.users.alice).toMatchObject({
      jabber: 'alice@jabber.example',
      groups: ['All Users', 'Devs'],
    });
    expect(before.users.carol).toMatchObject({ groups: ['All Users', 'Devs', 'QA'] });
    expect(before.groups.QA).toEqual([{ name: 'Triager', projects: ['BETA'] }]);
  });

  it('moves projects with their fields and bundle values (enum colours, owners and <no user>, version dates)', () => {
    for (const p of PROJECTS) {
      const x = before.projects[p] as Record<string, unknown>;
      const y = after.projects[p] as Record<string, unknown>;
      expect(differences(x.project, y.project), p).toEqual([]);
      expect(differences(x.fields, y.fields), p).toEqual([]);
      expect(differences(x.workTypes, y.workTypes), p).toEqual([]);
      expect(differences(x.timeTracking, y.timeTracking), p).toEqual([]);
    }
    const alphaFields = (
      before.projects.ALPHA as { fields: Record<string, { bundle?: { values: PyObject[] } }> }
    ).fields;
    expect(alphaFields.Subsystem?.bundle?.values.map((v) => [v.name, v.owner])).toEqual(
      expect.arrayContaining([
        ['UI', 'alice'],
        ['Core', '<no user>'],
      ]),
    );
  });

  it('moves every issue with its fields, comments, links (with direction), tags, attachments (bytes), work items, votes and watchers', () => {
    for (const p of PROJECTS) {
      const x = (before.projects[p] as { issues: Record<string, unknown> }).issues;
      const y = (after.projects[p] as { issues: Record<string, unknown> }).issues;
      expect(Object.keys(y).sort(), p).toEqual(Object.keys(x).sort());
      expect(differences(x, y, p)).toEqual([]);
    }
    const a1 = Object.values(
      (before.projects.ALPHA as { issues: Record<string, Record<string, unknown>> }).issues,
    ).find((i) => (i.fields as PyObject).summary === 'Crash on start') as Record<string, unknown>;
    expect((a1.fields as PyObject).voterName).toEqual(['carol', 'dave']);
    expect(a1.attachments).toHaveLength(2);
    expect(a1.workItems).toHaveLength(2);
    expect((a1.links as unknown[]).length).toBe(2);
    const hidden = Object.values(
      (after.projects.BETA as { issues: Record<string, Record<string, unknown>> }).issues,
    ).find((i) => (i.fields as PyObject).summary === 'Private to QA') as Record<string, unknown>;
    expect((hidden.fields as PyObject).permittedGroup).toBe('QA');
  });

  it('a second run changes nothing', async () => {
    await youtrack2youtrack(A.url, B.url, 'root', ROOT_PASSWORD, PROJECTS);
    const again = await snapshot(b);
    expect(differences(after, again)).toEqual([]);
  }, 240_000);
});
