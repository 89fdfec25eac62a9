// The work limit: a minimal hand-written node:http + better-sqlite3 server doing the necessary
// work of two reads on the same database file, with statements prepared once:
//   GET /rest/admin/role/{name}  token lookup by SHA-256, the caller's grants, one role row, JSON
//   GET /rest/issue/{id}         the same authentication, the issue row, its fields, tags, stars,
//                                votes, comments and links; XML by default, JSON on Accept
// No framework, no validation beyond what the answer needs. argv[2]: the SQLite file; prints its port.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const fromDomain = createRequire(join(here, '../../../packages/domain/package.json'));
const Database = createRequire(fromDomain.resolve('@mikro-orm/sqlite'))('better-sqlite3');
const db = new Database(process.argv[2], { readonly: true });

const tokenRow = db.prepare(
  'select t.secret_hash, u.id, u.login, u.type from permanent_tokens t join users u on u.id = t.user_id ' +
    'where u.login_key = ? and t.name = ?',
);
const grantRows = db.prepare(
  'select g.project_id, rp.permission_key from role_grants g join role_permissions rp on rp.role_id = g.role_id ' +
    'where g.user_id = ?',
);
const roleRow = db.prepare('select name, description from roles where name_key = ?');
const issueRow = db.prepare(
  'select i.id, i.project_id, i.number_in_project, i.summary, i.description, i.created_at, i.updated_at, ' +
    'i.resolved_at, p.short_name, u.login, u.full_name from issues i join projects p on p.id = i.project_id ' +
    'join users u on u.id = i.reporter_id where p.short_name_key = ? and i.number_in_project = ?',
);
const fieldRows = db.prepare(
  'select pf.id as field_id, pf.name, pf.multi, fv.name as value_name, u.login, ifv.text, ifv.number ' +
    'from issues i join project_fields pf on pf.project_id = i.project_id ' +
    'left join issue_field_values ifv on ifv.issue_id = i.id and ifv.field_id = pf.id ' +
    'left join field_values fv on fv.id = ifv.value_id left join users u on u.id = ifv.user_id ' +
    'where i.id = ? order by pf.ordinal, pf.id, fv.ordinal, fv.id, u.login',
);
const tagRows = db.prepare(
  'select t.name from issue_tags it join tags t on t.id = it.tag_id where it.issue_id = ? and (t.owner_id = ? or t.shared = 1) ' +
    'order by t.name_key, t.id',
);
const voteCount = db.prepare('select count(*) as n from issue_votes where issue_id = ?');
const commentRows = db.prepare(
  'select c.id, c.text, c.created_at, u.login, u.full_name from issue_comments c join users u on u.id = c.author_id ' +
    'where c.issue_id = ? order by c.id',
);
const linkRows = db.prepare(
  'select t.name as type_name, t.outward_name as role, o.number_in_project, op.short_name from issue_links l ' +
    'join issue_link_types t on t.id = l.type_id join issues o on o.id = l.target_id ' +
    'join projects op on op.id = o.project_id where l.source_id = ?',
);

const sha256 = (s) => createHash('sha256').update(s).digest();

/** The caller's grants: `global` permission keys and `project id -> keys`; null when the token is wrong. */
function authenticate(header) {
  const match = /^Bearer perm:([A-Za-z0-9+/=]+)\.([A-Za-z0-9+/=]+)\.([A-Za-z0-9_-]{16,200})$/.exec(
    header ?? '',
  );
  if (!match) return null;
  const login = Buffer.from(match[1], 'base64').toString('utf8');
  const name = Buffer.from(match[2], 'base64').toString('utf8');
  const row = tokenRow.get(login.toLowerCase(), name);
  if (!row || !timingSafeEqual(Buffer.from(row.secret_hash, 'hex'), sha256(match[3]))) return null;
  const global = new Set();
  const byProject = new Map();
  for (const g of grantRows.all(row.id)) {
    if (g.project_id === null) global.add(g.permission_key);
    else {
      const set = byProject.get(g.project_id) ?? new Set();
      set.add(g.permission_key);
      byProject.set(g.project_id, set);
    }
  }
  return { userId: row.id, root: row.type === 'root', global, byProject };
}
const can = (actor, key, projectId) =>
  actor.root ||
  actor.global.has(key) ||
  (projectId !== undefined && !!actor.byProject.get(projectId)?.has(key));

const ms = (v) => (typeof v === 'number' ? v : Date.parse(v));
const esc = (s) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c],
  );

function issueDto(actor, key) {
  const m = /^([A-Za-z][A-Za-z0-9_]*)-(\d+)$/.exec(key);
  if (!m) return null;
  const row = issueRow.get(m[1].toUpperCase(), Number(m[2]));
  if (!row || !can(actor, 'READ_ISSUE', row.project_id)) return null;
  const id = `${row.short_name}-${row.number_in_project}`;
  const field = [
    { name: 'projectShortName', value: row.short_name },
    { name: 'numberInProject', value: String(row.number_in_project) },
    { name: 'summary', value: row.summary },
  ];
  if (row.description) field.push({ name: 'description', value: row.description });
  field.push({ name: 'created', value: String(ms(row.created_at)) });
  field.push({ name: 'updated', value: String(ms(row.updated_at)) });
  if (row.resolved_at !== null) field.push({ name: 'resolved', value: String(ms(row.resolved_at)) });
  field.push({ name: 'reporterName', value: row.login }, { name: 'reporterFullName', value: row.full_name });
  const comments = can(actor, 'READ_COMMENT', row.project_id) ? commentRows.all(row.id) : [];
  field.push({ name: 'commentsCount', value: String(comments.length) });
  field.push({ name: 'votes', value: String(voteCount.get(row.id).n) });
  const custom = new Map();
  for (const f of fieldRows.all(row.id)) {
    const value = f.value_name ?? f.login ?? f.text ?? (f.number === null ? null : String(f.number));
    let entry = custom.get(f.field_id);
    if (!entry) {
      entry = { name: f.name, multi: !!f.multi, values: [] };
      custom.set(f.field_id, entry);
    }
    if (value !== null) entry.values.push(value);
  }
  for (const f of custom.values())
    if (f.values.length) field.push({ name: f.name, value: f.multi ? f.values : f.values[0] });
  return {
    id,
    entityId: `0-${row.id}`,
    field,
    comment: comments.map((c) => ({
      id: String(c.id),
      author: c.login,
      authorFullName: c.full_name,
      text: c.text,
      created: ms(c.created_at),
    })),
    tag: tagRows.all(row.id, actor.userId).map((t) => ({ value: t.name })),
    link: linkRows.all(row.id).map((l) => ({
      typeName: l.type_name,
      role: l.role,
      source: id,
      target: `${l.short_name}-${l.number_in_project}`,
    })),
  };
}

function issueXml(issue) {
  const fields = issue.field
    .map(
      (f) =>
        `<field name="${esc(f.name)}">${(Array.isArray(f.value) ? f.value : [f.value]).map((v) => `<value>${esc(v)}</value>`).join('')}</field>`,
    )
    .join('');
  const comments = issue.comment
    .map(
      (c) =>
        `<comment id="${c.id}" author="${esc(c.author)}" authorFullName="${esc(c.authorFullName)}" text="${esc(c.text)}" created="${c.created}"/>`,
    )
    .join('');
  const tags = issue.tag.map((t) => `<tag>${esc(t.value)}</tag>`).join('');
  const links = issue.link
    .map(
      (l) =>
        `<link typeName="${esc(l.typeName)}" role="${esc(l.role)}" source="${l.source}" target="${l.target}"/>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><issue id="${issue.id}" entityId="${issue.entityId}">${fields}${comments}${tags}${links}</issue>`;
}

function send(res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const server = createServer((req, res) => {
  const actor = authenticate(req.headers.authorization);
  if (!actor) return send(res, 401, 'application/json', '{"value":"Unauthorized"}');
  const path = decodeURIComponent(req.url.split('?')[0]);
  if (path.startsWith('/rest/admin/role/')) {
    if (!can(actor, 'READ_ROLE')) return send(res, 403, 'application/json', '{}');
    const role = roleRow.get(path.slice('/rest/admin/role/'.length).toLowerCase());
    if (!role) return send(res, 404, 'application/json', '{}');
    const url = `http://${req.headers.host}/rest/admin/role/${encodeURIComponent(role.name)}/permission`;
    return send(
      res,
      200,
      'application/json;charset=UTF-8',
      JSON.stringify({ name: role.name, description: role.description, permissionsUrl: url }),
    );
  }
  if (path.startsWith('/rest/issue/')) {
    const issue = issueDto(actor, path.slice('/rest/issue/'.length));
    if (!issue) return send(res, 404, 'application/json', '{}');
    return (req.headers.accept ?? '').includes('application/json')
      ? send(res, 200, 'application/json;charset=UTF-8', JSON.stringify(issue))
      : send(res, 200, 'application/xml;charset=UTF-8', issueXml(issue));
  }
  send(res, 404, 'application/json', '{}');
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
