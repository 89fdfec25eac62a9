// The write mix: clients over HTTP, each as a user of its own, creating issues, running the
// documented commands on them (tag, star, vote, a field, a state, a link), commenting, attaching a
// file, importing 100 issues at a time and searching the words it wrote; then every acknowledged
// write is read back. Shared by the suite's short soak (apps/api/test/write-mix.soak.test.ts) and
// the bench's long one (write-mix-bench.mjs): plain TypeScript that node runs as it is (type
// stripping), with no import but node's own.

export type Credentials = { login: string; password: string };

/** What one kind of request met: how many, their statuses, their latencies (ms). */
export type RowStats = { requests: number; statuses: Record<string, number>; p50: number; p99: number };

/** One issue a client created and what it did to it, each step acknowledged (2xx). */
export type WrittenIssue = {
  id: string;
  client: number;
  word: string;
  commentWord?: string;
  tag?: string;
  starred?: boolean;
  voted?: boolean;
  priority?: string;
  state?: string;
  linkedTo?: string;
  attachment?: string;
};

export type WriteMixResult = {
  clients: number;
  durationMs: number;
  kinds: Record<string, RowStats>;
  all: RowStats;
  /** Statuses of 500 and above, each with its kind and body. */
  serverErrors: string[];
  /** Searches for a word the client had written (acknowledged) that did not find its issue. */
  searchMisses: string[];
  /** Requests that got no answer (the connection refused or cut): the client stopped there. */
  unanswered: string[];
  issues: WrittenIssue[];
  /** Imported issues per import project, acknowledged as imported. */
  imported: Record<string, number>;
};

export type VerifyResult = { checked: number; missing: string[]; findableAfterMs: number };

const basic = (c: Credentials) => `Basic ${Buffer.from(`${c.login}:${c.password}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';
const JSON_ACCEPT = 'application/json';

/** A word no earlier run or other client wrote (letters only: the tokenizer keeps it whole). */
function wordOf(run: string, client: number, n: number, kind: string): string {
  const letters = (value: number) =>
    value
      .toString(26)
      .split('')
      .map((d) => String.fromCharCode(97 + Number.parseInt(d, 26)))
      .join('');
  return `${kind}${run}q${letters(client)}x${letters(n)}`;
}

async function send(
  url: string,
  method: string,
  path: string,
  auth: Credentials,
  options: { body?: string | FormData; contentType?: string; accept?: string } = {},
): Promise<{ status: number; text: string; headers: Headers; ms: number }> {
  const headers: Record<string, string> = {
    authorization: basic(auth),
    accept: options.accept ?? JSON_ACCEPT,
  };
  if (options.contentType) headers['content-type'] = options.contentType;
  const started = performance.now();
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers, ms: performance.now() - started };
}

/** The project, the users (one Developer a client) and the import projects of a write mix. */
export async function setUpWriteMix(
  url: string,
  root: Credentials,
  options: { clients: number; project: string; password?: string },
): Promise<Credentials[]> {
  const must = async (method: string, path: string, ok: number[] = [200, 201]) => {
    const res = await send(url, method, path, root);
    if (!ok.includes(res.status))
      throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
  };
  const password = options.password ?? 'write-mix-password';
  await must(
    'PUT',
    `/rest/admin/project/${options.project}?projectName=Write+mix+${options.project}&projectLeadLogin=root`,
  );
  const users: Credentials[] = [];
  for (let c = 1; c <= options.clients; c++) {
    const login = `${options.project.toLowerCase()}_w${c}`;
    await must(
      'PUT',
      `/rest/admin/user/${login}?fullName=${encodeURIComponent(`Writer ${c}`)}&email=${login}%40example.com&password=${password}`,
    );
    const importProject = `${options.project}I${c}`;
    await must(
      'PUT',
      `/rest/admin/project/${importProject}?projectName=Imports+${importProject}&projectLeadLogin=root`,
    );
    for (const project of [options.project, importProject])
      await must('POST', `/rest/admin/user/${login}/role/Developer?project=${project}`);
    users.push({ login, password });
  }
  return users;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

function statsOf(latencies: number[], statuses: Record<string, number>): RowStats {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: latencies.length,
    statuses,
    p50: Math.round(quantile(sorted, 0.5) * 10) / 10,
    p99: Math.round(quantile(sorted, 0.99) * 10) / 10,
  };
}

const importXml = (from: number, count: number, word: string) =>
  `<issues>${Array.from({ length: count }, (_, k) => {
    const n = from + k;
    return (
      `<issue><field name="numberInProject"><value>${n}</value></field>` +
      `<field name="summary"><value>Imported ${n} ${word}</value></field>` +
      `<field name="created"><value>${Date.UTC(2020, 0, 1) + n * 1000}</value></field>` +
      `<field name="reporterName"><value>root</value></field>` +
      `<comment author="root" text="note ${n}" created="${Date.UTC(2020, 0, 1) + n * 1000 + 1}"/></issue>`
    );
  }).join('')}</issues>`;

/**
 * Runs the mix for `durationMs` with one client per user. `run` makes its words unique among runs
 * on one database. A client imports 100 issues into its import project at its first round and
 * every `importEvery` rounds after (as root: imports need IMPORT_DATA).
 */
export async function runWriteMix(options: {
  url: string;
  /** Imports need IMPORT_DATA, an administrator's: they are sent as root. */
  root: Credentials;
  users: Credentials[];
  project: string;
  durationMs: number;
  run: string;
  importEvery?: number;
  /** Kept current while the mix runs: what has been acknowledged so far. */
  progress?: { issues: number; imported: number };
}): Promise<WriteMixResult> {
  const { url, users, project } = options;
  const importEvery = options.importEvery ?? 10;
  const latencies: Record<string, number[]> = {};
  const statuses: Record<string, Record<string, number>> = {};
  const serverErrors: string[] = [];
  const searchMisses: string[] = [];
  const unanswered: string[] = [];
  const issues: WrittenIssue[] = [];
  const imported: Record<string, number> = {};
  const deadline = performance.now() + options.durationMs;
  const started = performance.now();
  let lastIssue: string | undefined;

  const note = (kind: string, res: { status: number; text: string; ms: number }) => {
    const times = latencies[kind] ?? [];
    latencies[kind] = times;
    times.push(res.ms);
    const byStatus = statuses[kind] ?? {};
    statuses[kind] = byStatus;
    byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
    if (res.status >= 500) serverErrors.push(`${kind}: ${res.status} ${res.text.slice(0, 300)}`);
    return res.status >= 200 && res.status < 300;
  };

  const client = async (index: number) => {
    const user = users[index] as Credentials;
    const c = index + 1;
    const importProject = `${project}I${c}`;
    let imports = 0;
    for (let round = 0; performance.now() < deadline; round++) {
      const word = wordOf(options.run, c, round, 's');
      const created = await send(
        url,
        'PUT',
        `/rest/issue?project=${project}&summary=${word}&description=written+by+${user.login}`,
        user,
      );
      if (!note('create', created)) continue;
      const id = (created.headers.get('location') ?? '').split('/').pop() as string;
      const issue: WrittenIssue = { id, client: c, word };
      issues.push(issue);
      if (options.progress) options.progress.issues = issues.length;
      const command = async (kind: string, text: string) =>
        note(
          kind,
          await send(url, 'POST', `/rest/issue/${id}/execute`, user, {
            body: `command=${encodeURIComponent(text)}`,
            contentType: FORM,
          }),
        );
      if (await command('tag', `tag t${c}`)) issue.tag = `t${c}`;
      if (await command('star', 'star')) issue.starred = true;
      if (await command('vote', 'vote')) issue.voted = true;
      if (await command('field', 'Priority Critical')) issue.priority = 'Critical';
      if (await command('state', 'State Fixed')) issue.state = 'Fixed';
      const other = lastIssue;
      if (other && other !== id && (await command('link', `relates to ${other}`))) issue.linkedTo = other;
      lastIssue = id;
      const commentWord = wordOf(options.run, c, round, 'c');
      if (
        note(
          'comment',
          await send(url, 'POST', `/rest/issue/${id}/execute`, user, {
            body: `comment=${commentWord}`,
            contentType: FORM,
          }),
        )
      )
        issue.commentWord = commentWord;
      const form = new FormData();
      const name = `note-${c}-${round}.txt`;
      form.append('file', new Blob([`attachment ${word}\n`]), name);
      if (note('attach', await send(url, 'POST', `/rest/issue/${id}/attachment`, user, { body: form })))
        issue.attachment = name;
      if (round % importEvery === 0) {
        const res = await send(url, 'PUT', `/rest/import/${importProject}/issues`, options.root, {
          body: importXml(imports * 100 + 1, 100, wordOf(options.run, c, imports, 'i')),
          contentType: 'application/xml',
          accept: 'application/xml',
        });
        if (note('import', res)) {
          const acknowledged = (res.text.match(/imported="true"/g) ?? []).length;
          imported[importProject] = (imported[importProject] ?? 0) + acknowledged;
          if (options.progress) options.progress.imported += acknowledged;
          imports++;
        }
      }
      // The words just written: found by the next search (read-your-writes), by summary and comment.
      const found = await send(url, 'GET', `/rest/issue?filter=${word}&max=5`, user);
      if (note('search', found) && !found.text.includes(`"${id}"`)) searchMisses.push(`${word} → ${id}`);
      if (issue.commentWord) {
        const count = await send(url, 'GET', `/rest/issue/count?filter=${issue.commentWord}`, user);
        if (note('count', count) && JSON.parse(count.text).value < 1)
          searchMisses.push(`${issue.commentWord} → ${id} (count)`);
      }
    }
  };
  // A request without an answer (the server gone: a crash drill) ends its client; what the client
  // had acknowledged stays in the ledger.
  await Promise.all(
    users.map((user, index) =>
      client(index).catch((error: unknown) => {
        unanswered.push(`${user.login}: ${(error as Error).message}`);
      }),
    ),
  );

  const kinds: Record<string, RowStats> = {};
  const allLatencies: number[] = [];
  const allStatuses: Record<string, number> = {};
  for (const [kind, values] of Object.entries(latencies)) {
    kinds[kind] = statsOf(values, statuses[kind] ?? {});
    allLatencies.push(...values);
    for (const [status, n] of Object.entries(statuses[kind] ?? {}))
      allStatuses[status] = (allStatuses[status] ?? 0) + n;
  }
  return {
    clients: users.length,
    durationMs: Math.round(performance.now() - started),
    kinds,
    all: statsOf(allLatencies, allStatuses),
    serverErrors,
    searchMisses,
    unanswered,
    issues,
    imported,
  };
}

/**
 * Reads back every acknowledged write of a run: each issue with its summary, tag, Star, vote,
 * fields, link, comment and attachment, as the user who wrote it (tags are their owner's); the
 * count of each import project (as root); and how long until the last words written are found by
 * search (ms).
 */
export async function verifyWriteMix(
  url: string,
  root: Credentials,
  users: Credentials[],
  result: WriteMixResult,
  /** After a crash an import may have committed without its answer: counts may exceed what was acknowledged. */
  options: { crashed?: boolean } = {},
): Promise<VerifyResult> {
  const missing: string[] = [];
  let checked = 0;
  const queue = [...result.issues];
  const worker = async () => {
    for (let issue = queue.shift(); issue; issue = queue.shift()) {
      const res = await send(url, 'GET', `/rest/issue/${issue.id}`, users[issue.client - 1] as Credentials);
      checked++;
      if (res.status !== 200) {
        missing.push(`${issue.id}: ${res.status}`);
        continue;
      }
      const body = JSON.parse(res.text) as {
        field: { name: string; value: unknown }[];
        comment?: { text: string }[];
        tag?: { value: string }[];
        link?: { target: string; source: string }[];
      };
      const field = (name: string) => body.field.find((f) => f.name === name)?.value;
      const lacks = (what: string) => missing.push(`${issue.id}: ${what}`);
      if (field('summary') !== issue.word) lacks(`summary ${issue.word}`);
      if (issue.tag && !body.tag?.some((t) => t.value === issue.tag)) lacks(`tag ${issue.tag}`);
      if (issue.starred && !body.tag?.some((t) => t.value === 'Star')) lacks('Star');
      if (issue.voted && Number(field('votes')) < 1) lacks('vote');
      if (issue.priority && !(field('Priority') as string[] | undefined)?.includes(issue.priority))
        lacks('Priority');
      if (issue.state && !(field('State') as string[] | undefined)?.includes(issue.state)) lacks('State');
      if (
        issue.linkedTo &&
        !body.link?.some((l) => l.target === issue.linkedTo || l.source === issue.linkedTo)
      )
        lacks(`link to ${issue.linkedTo}`);
      if (issue.commentWord && !body.comment?.some((c) => c.text === issue.commentWord))
        lacks(`comment ${issue.commentWord}`);
      if (issue.attachment && !JSON.stringify(field('attachments') ?? []).includes(issue.attachment))
        lacks(`attachment ${issue.attachment}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  for (const [project, count] of Object.entries(result.imported)) {
    const res = await send(
      url,
      'GET',
      `/rest/issue/count?filter=${encodeURIComponent(`project: ${project}`)}`,
      root,
    );
    const value = res.status === 200 ? (JSON.parse(res.text) as { value: number }).value : -1;
    if (options.crashed ? value < count : value !== count)
      missing.push(`${project}: ${value} issues, ${count} imported`);
  }
  // Every word of the last round of each client, searched until found (read-your-writes makes it at once).
  const started = performance.now();
  const last = new Map<number, WrittenIssue>();
  for (const issue of result.issues) last.set(issue.client, issue);
  for (const issue of last.values()) {
    for (let found = false; !found; ) {
      const res = await send(url, 'GET', `/rest/issue?filter=${issue.word}&max=5`, root);
      found = res.status === 200 && res.text.includes(`"${issue.id}"`);
      if (!found && performance.now() - started > 30_000) {
        missing.push(`${issue.word}: not findable after 30 s`);
        break;
      }
      if (!found) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { checked, missing, findableAfterMs: Math.round(performance.now() - started) };
}
