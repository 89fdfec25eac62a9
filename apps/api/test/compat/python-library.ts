import { readXmlDocument, type XmlElement } from '../../src/rest/xml-document.js';
import { requestBytes, sendRaw } from './raw-http.js';

/*
 * The requests JetBrains' python library (`youtrack/connection.py`, the version the importer
 * scripts of `youtrack-python-scripts` run on) sends, and the way it reads the answers
 * (`youtrack/__init__.py`, xml.dom.minidom), replayed in TypeScript for the migration tests.
 * Written from reading that public code, not copied: the same paths, parameters, bodies
 * (`<empty/>\n\n` on PUTs, `application/xml; charset=UTF-8`), the same status rule (anything but
 * 200/201 raises) and the same parsing (attributes of an element plus its `name`d children with
 * `value` descendants become the object's properties; one value a string, several a list).
 */

export class LegacyClientError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    readonly body: string,
  ) {
    super(`Error for [${path}]: ${status}: ${body.slice(0, 300)}`);
  }
}

/** A python object built by `YouTrackObject._update`: attributes and named children. */
export type PyObject = Record<string, string | string[]>;

const ownText = (el: XmlElement) => el.text;

function descendants(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

/** `YouTrackObject._update`: `_updateFromAttrs` then `_updateFromChildren`. */
export function pyObject(el: XmlElement): PyObject {
  const o: PyObject = { ...el.attributes };
  for (const c of el.children) {
    const name = c.attributes.name;
    if (!name) continue;
    const values = descendants(c, 'value');
    if (values.length === 1) o[name] = ownText(values[0] as XmlElement);
    else if (values.length > 1) o[name] = values.map(ownText);
    else if (c.attributes.value !== undefined) o[name] = c.attributes.value;
  }
  return o;
}

export const elementChildren = (el: XmlElement) => el.children;

/** `youtrack.WorkItem._update`: child elements by tag; `author login`, `worktype > name`. */
export function pyWorkItem(el: XmlElement): PyObject {
  const o: PyObject = { url: el.attributes.url ?? '' };
  for (const e of el.children) {
    if (e.name === 'author') o.authorLogin = e.attributes.login ?? '';
    else if (e.name.toLowerCase() === 'worktype')
      o.worktype = e.children.find((c) => c.name === 'name')?.text ?? '';
    else o[e.name] = e.text;
  }
  return o;
}

/** `youtrack.WorkType._update`: every child element's text by its tag. */
export function pyChildTexts(el: XmlElement): PyObject {
  const o: PyObject = {};
  for (const e of el.children) o[e.name] = e.text;
  return o;
}

/** `Bundle._update`: the bundle's name and its value elements (`value`, `state`, `version`...). */
export function pyBundleValues(el: XmlElement, tag: string): PyObject[] {
  return descendants(el, tag).map((v) => ({ ...v.attributes, name: v.text }));
}

export type Link = { typeName: string; source: string; target: string };

export class LegacyConnection {
  private cookie = '';
  private boundaries = 0;
  /** Every request sent, as `METHOD path` (for the inventory and rate checks). */
  readonly sent: string[] = [];

  constructor(readonly url: string) {}

  static async open(url: string, login: string, password: string): Promise<LegacyConnection> {
    const c = new LegacyConnection(url);
    await c.login(login, password);
    return c;
  }

  /** `_login`: a form body `login=..&password=..`; keeps the raw `Set-Cookie` and echoes it. */
  async login(login: string, password: string) {
    const body = `login=${encodeURIComponent(login)}&password=${encodeURIComponent(password)}`;
    const res = await fetch(`${this.url}/rest/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', connection: 'keep-alive' },
      body,
    });
    const text = await res.text();
    if (res.status !== 200) throw new LegacyClientError(res.status, '/user/login', text);
    this.cookie = res.headers.get('set-cookie') ?? '';
  }

  /** `_req`: raises unless 200/201 (or `ignoreStatus`). */
  async req(
    method: string,
    path: string,
    body?: string | FormData,
    options: { ignoreStatus?: number; contentType?: string; accept?: string } = {},
  ) {
    const headers: Record<string, string> = { cookie: this.cookie, 'cache-control': 'no-cache' };
    if ((method === 'PUT' || method === 'POST') && typeof body === 'string' && body)
      headers['content-type'] = options.contentType ?? 'application/xml; charset=UTF-8';
    if (options.accept) headers.accept = options.accept;
    this.sent.push(`${method} ${path.split('?')[0]}`);
    const res = await fetch(path.startsWith('http') ? path : `${this.url}/rest${path}`, {
      method,
      headers,
      ...(body !== undefined && body !== '' ? { body } : {}),
    });
    const text = await res.text();
    if (res.status !== 200 && res.status !== 201 && res.status !== options.ignoreStatus)
      throw new LegacyClientError(res.status, path, text);
    return { status: res.status, headers: res.headers, text };
  }

  /** `_get`: the answer parsed by minidom (our strict reader: it also refuses what minidom would). */
  async get(path: string): Promise<XmlElement> {
    return readXmlDocument((await this.req('GET', path)).text, 64);
  }

  /** `_put`: a PUT with the body `<empty/>\n\n`. */
  put(path: string) {
    return this.req('PUT', path, '<empty/>\n\n');
  }

  async list(path: string): Promise<XmlElement[]> {
    return elementChildren(await this.get(path));
  }

  // ---- projects, users, groups, roles ----
  async getProject(id: string) {
    return pyObject(await this.get(`/admin/project/${encodeURIComponent(id)}`));
  }
  async getProjectIds() {
    return (await this.list('/admin/project/')).map((e) => e.attributes.id ?? '');
  }
  createProject(p: PyObject) {
    const q = new URLSearchParams({
      projectName: String(p.name),
      description: `${p.description ?? ''} `,
      projectLeadLogin: String(p.lead),
      lead: String(p.lead),
      startingNumber: '1',
    });
    return this.put(`/admin/project/${p.id}?${q}`);
  }
  async getUser(login: string) {
    return pyObject(await this.get(`/admin/user/${encodeURIComponent(login)}`));
  }
  async getUsers(params: Record<string, string> = {}) {
    const users: PyObject[] = [];
    for (let start = 0; ; start += 10) {
      const page = await this.list(`/admin/user/?start=${start}&${new URLSearchParams(params)}`);
      if (!page.length) return users;
      users.push(...page.map(pyObject));
    }
  }
  /** `importUsers`: `<list><user login fullName email jabber/></list>`; 400 is a normal answer. */
  importUsers(users: PyObject[]) {
    const esc = xmlAttr;
    const rows = users
      .map(
        (u) =>
          `  <user ${['login', 'fullName', 'email', 'jabber']
            .filter((k) => u[k] !== undefined)
            .map((k) => `${k}=${esc(String(u[k]))} `)
            .join('')}/>\n`,
      )
      .join('');
    return this.req('PUT', '/import/users', `<list>\n${rows}</list>`, { ignoreStatus: 400 });
  }
  async getGroups() {
    return (await this.list('/admin/group')).map(pyObject);
  }
  async getUserGroups(login: string) {
    return (await this.list(`/admin/user/${encodeURIComponent(login)}/group`)).map(pyObject);
  }
  setUserGroup(login: string, group: string) {
    return this.req(
      'POST',
      `/admin/user/${encodeURIComponent(login)}/group/${encodeURIComponent(group)}`,
      '',
    );
  }
  createGroup(name: string) {
    return this.put(`/admin/group/${encodeURIComponent(name)}?autoJoin=false`);
  }
  /** `getGroupRoles`: `userRole name` > `projects` > `projectRef id`. */
  async getGroupRoles(group: string) {
    return (await this.list(`/admin/group/${encodeURIComponent(group)}/role`)).map((e) => ({
      name: e.attributes.name ?? '',
      projects: descendants(e, 'projectRef').map((p) => p.attributes.id ?? ''),
    }));
  }
  /** `addUserRoleToGroup`: PUT with the `UserRole.toXml()` body. */
  addUserRoleToGroup(group: string, role: { name: string; projects: string[] }) {
    const projects = role.projects.length
      ? `<projects>${role.projects.map((p) => `<projectRef id="${p}" url="dirty_hack"/>`).join('')}</projects>`
      : '<projects/>';
    return this.req(
      'PUT',
      `/admin/group/${encodeURIComponent(group)}/role/${encodeURIComponent(role.name)}`,
      `<userRole name="${role.name}">${projects}</userRole>`,
    );
  }
  async getRoles() {
    return (await this.list('/admin/role')).map(pyObject);
  }
  async getRole(name: string) {
    return pyObject(await this.get(`/admin/role/${encodeURIComponent(name)}`));
  }
  createRole(role: PyObject) {
    return this.put(
      `/admin/role/${encodeURIComponent(String(role.name))}?description=${encodeURIComponent(String(role.description ?? ''))}`,
    );
  }
  async getRolePermissions(role: string) {
    return (await this.list(`/admin/role/${encodeURIComponent(role)}/permission`)).map(pyObject);
  }
  addPermissionToRole(role: string, permission: string) {
    return this.req(
      'POST',
      `/admin/role/${encodeURIComponent(role)}/permission/${encodeURIComponent(permission)}`,
    );
  }

  // ---- link types, fields, bundles ----
  async getIssueLinkTypes() {
    return descendants(await this.get('/admin/issueLinkType'), 'issueLinkType').map(pyObject);
  }
  createIssueLinkType(t: PyObject) {
    const q = new URLSearchParams({
      outwardName: String(t.outwardName),
      inwardName: String(t.inwardName),
      directed: String(t.directed),
    });
    return this.put(`/admin/issueLinkType/${encodeURIComponent(String(t.name))}?${q}`);
  }
  async getCustomField(name: string) {
    return pyObject(await this.get(`/admin/customfield/field/${encodeURIComponent(name)}`));
  }
  async getCustomFields() {
    const names = (await this.list('/admin/customfield/field')).map((e) => e.attributes.name ?? '');
    return Promise.all(names.map((n) => this.getCustomField(n)));
  }
  createCustomField(cf: PyObject) {
    const q = new URLSearchParams({
      type: String(cf.type),
      isPrivate: String(cf.isPrivate),
      defaultVisibility: String(cf.visibleByDefault),
      autoAttached: String(cf.autoAttached ?? 'False'),
      ...(cf.defaultBundle !== undefined ? { defaultBundle: String(cf.defaultBundle) } : {}),
      ...(cf.attachBundlePolicy !== undefined ? { attachBundlePolicy: String(cf.attachBundlePolicy) } : {}),
    });
    return this.put(`/admin/customfield/field/${encodeURIComponent(String(cf.name))}?${q}`);
  }
  /** `getProjectCustomField`: `ProjectCustomField._updateFromChildren` reads every `param name value`. */
  async getProjectCustomField(project: string, name: string) {
    const el = await this.get(
      `/admin/project/${encodeURIComponent(project)}/customfield/${encodeURIComponent(name)}`,
    );
    const o: PyObject = { ...el.attributes };
    for (const p of descendants(el, 'param')) o[p.attributes.name ?? ''] = p.attributes.value ?? '';
    return o;
  }
  async getProjectCustomFields(project: string) {
    const root = await this.get(`/admin/project/${encodeURIComponent(project)}/customfield`);
    return Promise.all(
      descendants(root, 'projectCustomField').map((e) =>
        this.getProjectCustomField(project, e.attributes.name ?? ''),
      ),
    );
  }
  createProjectCustomField(
    project: string,
    name: string,
    emptyFieldText: string,
    params: Record<string, string>,
  ) {
    const q = new URLSearchParams({ emptyFieldText, ...params });
    return this.put(`/admin/project/${project}/customfield/${encodeURIComponent(name)}?${q}`);
  }
  /** `getAllBundles`: items named `enumFieldBundle`, `userFieldBundle`, else the type's path. */
  async getAllBundleNames(fieldType: string) {
    const type = bundleType(fieldType);
    const tag =
      type === 'enum' ? 'enumFieldBundle' : type === 'user' ? 'userFieldBundle' : BUNDLE_PATHS[type];
    return descendants(await this.get(`/admin/customfield/${BUNDLE_PATHS[type]}`), tag).map(
      (e) => e.attributes.name ?? '',
    );
  }
  async getBundle(fieldType: string, name: string): Promise<Bundle> {
    const type = bundleType(fieldType);
    const el = await this.get(`/admin/customfield/${BUNDLE_PATHS[type]}/${encodeURIComponent(name)}`);
    if (type === 'user')
      return {
        type,
        name: el.attributes.name ?? '',
        values: [],
        users: descendants(el, 'user').map((u) => u.attributes.login ?? ''),
        groups: descendants(el, 'userGroup').map((g) => g.attributes.name ?? ''),
      };
    return {
      type,
      name: el.attributes.name ?? '',
      values: pyBundleValues(el, VALUE_TAGS[type]),
      users: [],
      groups: [],
    };
  }
  /** `createBundle`: PUT of `Bundle.toXml()` (400 ignored). */
  createBundle(b: Bundle) {
    const root = BUNDLE_ROOTS[b.type];
    let body: string;
    if (b.type === 'user')
      body =
        `<userBundle name="${b.name}">` +
        b.groups.map((g) => `<userGroup name="${g}" url="dirty_hack"></userGroup>`).join('') +
        b.users.map((u) => `<user login="${u}" url="yet_another_dirty_hack"></user>`).join('') +
        '</userBundle>';
    else
      body =
        `<${root} name="${xmlText(b.name)}">` +
        b.values.map((v) => bundleElementXml(VALUE_TAGS[b.type], pyBundleElement(b.type, v))).join('') +
        `</${root}>`;
    return this.req('PUT', `/admin/customfield/${BUNDLE_PATHS[b.type]}`, body, { ignoreStatus: 400 });
  }
  /** `addValueToBundle`: PUT `…/{bundle}/{value}?{attributes with a length}`. */
  addValueToBundle(b: Bundle, v: PyObject) {
    const e = pyBundleElement(b.type, v);
    const params = new URLSearchParams();
    for (const [k, val] of Object.entries(e))
      if (k !== 'name' && typeof val === 'string' && val.length) params.set(k, val);
    const q = params.size ? `?${params}` : '?';
    return this.put(
      `/admin/customfield/${BUNDLE_PATHS[b.type]}/${encodeURIComponent(b.name)}/${encodeURIComponent(String(v.name))}${q}`,
    );
  }
  addUserToBundle(b: Bundle, login: string) {
    return this.put(`/admin/customfield/userBundle/${encodeURIComponent(b.name)}/individual/${login}/`);
  }
  addGroupToBundle(b: Bundle, group: string) {
    return this.put(
      `/admin/customfield/userBundle/${encodeURIComponent(b.name)}/group/${encodeURIComponent(group)}/`,
    );
  }

  // ---- issues ----
  /** `getIssues`: `GET /issue/byproject/{p}?after&max&filter`, each element child an Issue. */
  async getIssues(project: string, filter: string, after: number, max: number) {
    const q = new URLSearchParams({ after: String(after), max: String(max), filter });
    const root = await this.get(`/issue/byproject/${encodeURIComponent(project)}?${q}`);
    return root.children.map(pyIssue);
  }
  async getIssue(id: string) {
    return pyIssue(await this.get(`/issue/${id}`));
  }
  async getComments(id: string) {
    return (await this.list(`/issue/${id}/comment`)).map((e) => ({ ...e.attributes }));
  }
  async getLinks(id: string, outwardOnly = false): Promise<(Link & PyObject)[]> {
    const links = (await this.list(`/issue/${encodeURIComponent(id)}/link`)).map(
      (e) => ({ ...e.attributes }) as Link & PyObject,
    );
    return links.filter((l) => l.source === id || !outwardOnly);
  }
  /** `getAttachments` + `Attachment.__init__`: the url cut to start at `/_persistent` (JT-18936). */
  async getAttachments(id: string) {
    return (await this.list(`/issue/${id}/attachment`)).map((e) => {
      const a: PyObject = { ...e.attributes };
      a.url = String(a.url ?? '').replace(/^.*?(?=\/_persistent)/, '');
      return a;
    });
  }
  /** `getAttachmentContent`: the connection's URL + the attachment's url, with the cookie. */
  async getAttachmentContent(url: string) {
    const res = await fetch(`${this.url}${url}`, { headers: { cookie: this.cookie } });
    if (res.status !== 200) throw new LegacyClientError(res.status, url, await res.text());
    return {
      bytes: Buffer.from(await res.arrayBuffer()),
      contentType: res.headers.get('content-type') ?? '',
    };
  }
  /**
   * `importAttachment` through `urllib2_file`, byte for byte: HTTP/1.0 (`httplib.HTTP`), the
   * boundary of `mimetools.choose_boundary`, one part named after the file with the trailing
   * semicolon and a per-part Content-Length, then `\r\n--B--\r\n\r\n` (client-multipart.compat.test.ts).
   */
  async importAttachment(issue: string, name: string, bytes: Buffer, contentType: string, a: PyObject) {
    const q = new URLSearchParams({
      authorLogin: String(a.authorLogin),
      group: String(a.group ?? ''),
      created: String(a.created),
    });
    const boundary = `127.0.0.1.0.2608.${(Date.now() / 1000).toFixed(3)}.${++this.boundaries}`;
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}";\r\n` +
          `Content-Type: ${contentType}\r\nContent-Length: ${bytes.length}\r\n\r\n`,
        'utf8',
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n\r\n`, 'latin1'),
    ]);
    const path = `/rest/import/${issue}/attachment?${q}`;
    this.sent.push(`POST /import/${issue}/attachment`);
    const res = await sendRaw(
      this.url,
      requestBytes(
        [
          `POST ${path} HTTP/1.0`,
          `Content-Type: multipart/form-data; boundary=${boundary}`,
          `Content-length: ${body.length}`,
          `Host: ${new URL(this.url).host}`,
          'User-agent: Python-urllib/2.7',
          `Cookie: ${this.cookie}`,
          'Cache-control: no-cache',
        ],
        body,
      ),
    );
    // urllib2 raises on anything but 200; the library catches the HTTPError of a 201 as success.
    if (res.status !== 200 && res.status !== 201) throw new LegacyClientError(res.status, path, res.body);
    return { status: res.status, text: res.body };
  }
  /** `importIssues` (the ElementTree version): every attribute but the bad ones, comments as attributes. */
  async importIssues(project: string, assigneeGroup: string, issues: PyIssue[]) {
    const badFields = new Set([
      'id',
      'projectShortName',
      'votes',
      'commentsCount',
      'historyUpdated',
      'updatedByFullName',
      'updaterFullName',
      'reporterFullName',
      'links',
      'attachments',
      'jiraId',
      'entityId',
      'tags',
      'sprint',
      'wikified',
    ]);
    const body =
      '<issues>' +
      issues
        .map((issue) => {
          let record = '<issue>';
          for (const [name, value] of Object.entries(issue.fields)) {
            if (badFields.has(name)) continue;
            const values = Array.isArray(value) ? value : [value];
            record += `<field name="${xmlText(name)}">${values.map((v) => `<value>${xmlText(v.trim())}</value>`).join('')}</field>`;
          }
          for (const c of issue.comments ?? [])
            record += `<comment ${Object.entries(c)
              .map(([k, v]) => `${k}=${xmlAttr(v)}`)
              .join(' ')} />`;
          return `${record}</issue>`;
        })
        .join('') +
      '</issues>';
    const res = await this.req(
      'PUT',
      `/import/${encodeURIComponent(project)}/issues?${new URLSearchParams({ assigneeGroup })}`,
      body,
      { ignoreStatus: 400 },
    );
    return { ...res, items: descendants(readXmlDocument(res.text, 64), 'item').map((e) => e.attributes) };
  }
  /** `importLinks`: `<list><link typeName source target/></list>` (typeInward/typeOutward dropped). */
  async importLinks(links: Link[]) {
    const rows = links
      .map(
        (l) =>
          `  <link typeName=${xmlAttr(l.typeName)} source=${xmlAttr(l.source)} target=${xmlAttr(l.target)} />\n`,
      )
      .join('');
    return this.req('PUT', '/import/links', `<list>\n${rows}</list>`, { ignoreStatus: 400 });
  }
  async getWorkItems(issue: string) {
    return (await this.list(`/issue/${encodeURIComponent(issue)}/timetracking/workitem`)).map(pyWorkItem);
  }
  /** `importWorkItems`: `<workItems><workItem><date/><duration/><description/><worktype><name/></worktype><author login/>`. */
  importWorkItems(issue: string, items: PyObject[]) {
    const body = items
      .map(
        (w) =>
          `<workItem><date>${w.date}</date><duration>${w.duration}</duration>` +
          (w.description !== undefined
            ? `<description>${xmlText(String(w.description))}</description>`
            : '') +
          (w.worktype !== undefined ? `<worktype><name>${w.worktype}</name></worktype>` : '') +
          `<author login=${xmlAttr(String(w.authorLogin))}></author></workItem>`,
      )
      .join('');
    return this.req(
      'PUT',
      `/import/issue/${encodeURIComponent(issue)}/workitems`,
      `<workItems>${body}</workItems>`,
      {
        accept: 'application/xml',
      },
    );
  }
  async getProjectTimeTrackingSettings(project: string) {
    try {
      const el = await this.get(`/admin/project/${project}/timetracking`);
      return {
        Enabled: (el.attributes.enabled ?? '').toLowerCase() === 'true',
        EstimateField: el.children.find((c) => c.name.toLowerCase() === 'estimation')?.attributes.name,
        TimeSpentField: el.children.find((c) => c.name.toLowerCase() === 'spenttime')?.attributes.name,
      };
    } catch (error) {
      if (error instanceof LegacyClientError && error.status === 404) return undefined;
      throw error;
    }
  }
  setProjectTimeTrackingSettings(
    project: string,
    estimate: string | undefined,
    spent: string | undefined,
    enabled: boolean,
  ) {
    const body =
      `<settings enabled="${String(enabled)}">` +
      (estimate ? `<estimation name="${estimate}"/>` : '') +
      (spent ? `<spentTime name="${spent}"/>` : '') +
      '</settings>';
    return this.req('PUT', `/admin/project/${project}/timetracking`, body);
  }
  /** `get_work_types`: `GET /admin/project/{p}/timetracking/worktype`, children read by tag. */
  async getWorkTypes(project?: string) {
    const path = project ? `/admin/project/${project}/timetracking/worktype` : '/admin/timetracking/worktype';
    return (await this.list(path)).map(pyChildTexts);
  }
  /** `create_project_work_type`: `create_work_type_safe` (POST, 400/409 → find by name) then attach. */
  async createProjectWorkType(project: string, wt: PyObject) {
    let id: string | undefined;
    try {
      const res = await this.req(
        'POST',
        '/admin/timetracking/worktype',
        `<workType><name>${wt.name}</name>${wt.autoAttached !== undefined ? `<autoAttached>${wt.autoAttached}</autoAttached>` : ''}</workType>`,
      );
      id = String(pyChildTexts(await this.get(String(res.headers.get('location')))).id);
    } catch (error) {
      if (!(error instanceof LegacyClientError) || ![400, 409].includes(error.status)) throw error;
      id = (await this.getWorkTypes()).find(
        (t) => String(t.name).toLowerCase() === String(wt.name).toLowerCase(),
      )?.id as string | undefined;
      if (!id) throw error;
    }
    return this.req('PUT', `/admin/project/${project}/timetracking/worktype/${id}`);
  }
  executeCommand(issue: string, command: string) {
    const q = new URLSearchParams({ command, disableNotifications: 'True' });
    return this.req('POST', `/issue/${issue}/execute?${q}`, '');
  }
}

export type PyIssue = { fields: PyObject; tags: string[]; comments?: Record<string, string>[] };

/** `youtrack.Issue.__init__`: the object's properties, and `tags` from `<tag>` elements. */
export function pyIssue(el: XmlElement): PyIssue {
  const fields = pyObject(el);
  const tags = descendants(el, 'tag').map((t) => t.text);
  // Issue.__init__ resets these (no `links` / `attachments` elements in the answer): set to None.
  delete fields.links;
  delete fields.attachments;
  for (const m of ['fixedVersion', 'affectsVersion']) {
    const v = fields[m];
    if (typeof v === 'string') fields[m] = v.split(',').map((s) => s.trim());
  }
  return { fields, tags };
}

export type Bundle = {
  type: BundleKind;
  name: string;
  values: PyObject[];
  users: string[];
  groups: string[];
};
type BundleKind = 'enum' | 'build' | 'ownedField' | 'state' | 'version' | 'user';
const BUNDLE_PATHS: Record<BundleKind, string> = {
  enum: 'bundle',
  build: 'buildBundle',
  ownedField: 'ownedFieldBundle',
  state: 'stateBundle',
  version: 'versionBundle',
  user: 'userBundle',
};
const BUNDLE_ROOTS: Record<BundleKind, string> = {
  enum: 'enumeration',
  build: 'buildBundle',
  ownedField: 'ownedFieldBundle',
  state: 'stateBundle',
  version: 'versions',
  user: 'userBundle',
};
const VALUE_TAGS: Record<BundleKind, string> = {
  enum: 'value',
  build: 'build',
  ownedField: 'ownedField',
  state: 'state',
  version: 'version',
  user: 'user',
};
/** `get_field_type`: `enum[1]` → `enum`. */
export const bundleType = (fieldType: string) =>
  (fieldType.includes('[') ? fieldType.slice(0, -3) : fieldType) as BundleKind;

/**
 * A bundle element as the library keeps it (`BundleElement._update` + the type's specific
 * attributes): description and colorIndex always (empty when absent); owner `<no user>` → None;
 * state `is_resolved`; version `releaseDate`, `released`, `archived` as booleans.
 */
function pyBundleElement(type: BundleKind, v: PyObject): Record<string, string | undefined> {
  const e: Record<string, string | undefined> = {
    name: String(v.name),
    description: String(v.description ?? ''),
    colorIndex: String(v.colorIndex ?? ''),
  };
  if (type === 'build') e.assembleDate = String(v.assembleDate ?? '');
  if (type === 'ownedField') e.owner = v.owner === '<no user>' ? undefined : String(v.owner ?? '');
  if (type === 'state') e.is_resolved = String(v.isResolved ?? '');
  if (type === 'version') {
    e.releaseDate = String(v.releaseDate ?? '');
    e.released = String(String(v.released ?? '').toLowerCase() === 'true' ? 'True' : 'False');
    e.archived = String(String(v.archived ?? '').toLowerCase() === 'true' ? 'True' : 'False');
  }
  return e;
}

function bundleElementXml(tag: string, e: Record<string, string | undefined>) {
  const attrs = Object.entries(e)
    .filter(([k, v]) => k !== 'name' && v !== undefined && v.length)
    .map(([k, v]) => ` ${k}=${xmlAttr(String(v))}`)
    .join('');
  return `<${tag}${attrs}>${xmlText(e.name ?? '')}</${tag}>`;
}

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** `quoteattr`: double quotes, newlines as `&#10;`. */
export const xmlAttr = (s: string) =>
  `"${xmlText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')}"`;
