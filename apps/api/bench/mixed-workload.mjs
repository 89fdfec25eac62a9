// The requests of the mixed row (shared by run.mjs and processes.mjs): readers reading issues of
// their projects (XML and JSON) and, one request in ten, changing a Priority by command.

/** `P003-17` for project 3, issue 17. */
export const issueId = (project, n) => `P${String(project).padStart(3, '0')}-${n}`;
export const pick = (list, i) => list[i % list.length];
export const bearer = (token) => ({ authorization: `Bearer ${token}` });
const PRIORITIES = ['Priority Major', 'Priority Minor', 'Priority Critical', 'Priority Normal'];

/** `readers` from seed-data.mjs: each a token and the projects it reads. */
export function mixedWorkload({ readers }) {
  // A reader (of 50) and one of the 20 first issues of one of its projects: 1,000 issues in all.
  const readerIssue = (i) => {
    const reader = pick(readers, i * 7);
    const project = pick(reader.projects, i);
    return { headers: bearer(reader.token), id: issueId(project, (Math.floor(i / 3) % 20) + 1) };
  };
  const issueGet = (i, json) => {
    const r = readerIssue(i);
    return {
      path: `/rest/issue/${r.id}`,
      headers: json ? { ...r.headers, accept: 'application/json' } : r.headers,
    };
  };
  const execute = (i) => {
    const r = readerIssue(i);
    return {
      method: 'POST',
      path: `/rest/issue/${r.id}/execute`,
      headers: { ...r.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: `command=${encodeURIComponent(pick(PRIORITIES, i))}`,
    };
  };
  const mixed = {
    name: 'mixed (90% reads, 10% execute)',
    next: (i) => (i % 10 === 9 ? execute(i) : issueGet(i, i % 2 === 0)),
  };
  return { issueGet, execute, mixed };
}
