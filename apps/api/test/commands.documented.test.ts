import { addFieldValue } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  expectJson,
  expectJsonError,
  expectXmlError,
  fork,
  JSON_ACCEPT,
  startTestServer,
  type TestServer,
} from './harness.js';
import {
  createIssue,
  execute,
  fieldOf,
  getIssueJson,
  issueSnapshot,
  mustExecute,
  PRJ,
  setUpWorld,
  valuesOf,
} from './issue-fixtures.js';

/**
 * Every example of the original's "Command Grammar", "YouTrack Commands" and "Apply Command to an
 * Issue" pages (/work/shared/reference/legacy-rest-api.md §2.1), applied to real issues over
 * `/rest`, on SQLite and on PostgreSQL (TRACKLINE_TEST_DB=postgres).
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
  const root = await actorFor(server.orm, 'root');
  for (const name of ['5.1']) await addFieldValue(fork(server.orm), root, PRJ, 'Fix versions', { name });
  await addFieldValue(fork(server.orm), root, PRJ, 'Subsystem', { name: 'Documentation' });
});
afterAll(() => server.close());

const tagsOf = async (id: string, user = 'root') =>
  (await getIssueJson(server, id, user)).tag.map((t) => t.value);
const linksOf = async (id: string) =>
  (await getIssueJson(server, id)).link.map((l) => `${l.role} ${l.source === id ? l.target : l.source}`);

describe('Command Grammar page', () => {
  it('Fixed: a bare value sets the State', async () => {
    const id = await createIssue(server, 'grammar Fixed');
    await mustExecute(server, id, 'Fixed');
    expect(fieldOf(await getIssueJson(server, id), 'State')).toBe('Fixed');
  });

  it('relates to IS-007: the link, seen from both issues', async () => {
    const a = await createIssue(server, 'grammar relates a');
    const b = await createIssue(server, 'grammar relates b');
    await mustExecute(server, a, `relates to ${b}`);
    expect(await linksOf(a)).toEqual([`relates to ${b}`]);
    expect(await linksOf(b)).toEqual([`relates to ${a}`]);
  });

  it('tag Todo, then remove tag Todo', async () => {
    const id = await createIssue(server, 'grammar tag');
    await mustExecute(server, id, 'tag Todo');
    expect(await tagsOf(id)).toEqual(['Todo']);
    await mustExecute(server, id, 'remove tag Todo');
    expect(await tagsOf(id)).toEqual([]);
  });

  it('state To be discussed', async () => {
    const id = await createIssue(server, 'grammar state');
    await mustExecute(server, id, 'state To be discussed');
    expect(fieldOf(await getIssueJson(server, id), 'State')).toBe('To be discussed');
  });
});

describe('YouTrack Commands page', () => {
  it('assigned to me priority major, or for me priority major', async () => {
    for (const command of ['assigned to me priority major', 'for me priority major']) {
      const id = await createIssue(server, command);
      await mustExecute(server, id, command);
      const issue = await getIssueJson(server, id);
      expect(valuesOf(issue, 'Assignee')).toEqual(['root']);
      expect(fieldOf(issue, 'Priority')).toBe('Major');
    }
  });

  it('state fixed resolves the issue', async () => {
    const id = await createIssue(server, 'commands state fixed');
    await mustExecute(server, id, 'state fixed');
    const issue = await getIssueJson(server, id);
    expect(fieldOf(issue, 'State')).toBe('Fixed');
    expect(fieldOf(issue, 'resolved')).toBeDefined();
  });

  it('state duplicate TS-2405: the state and a duplicate link', async () => {
    const original = await createIssue(server, 'the original');
    const id = await createIssue(server, 'commands duplicate');
    await mustExecute(server, id, `state duplicate ${original}`);
    expect(fieldOf(await getIssueJson(server, id), 'State')).toBe('Duplicate');
    expect(await linksOf(id)).toEqual([`duplicates ${original}`]);
  });

  it('type cosmetics tag fix it this week: the rest of the command is the new tag', async () => {
    const id = await createIssue(server, 'commands multi-word tag');
    await mustExecute(server, id, 'type cosmetics tag fix it this week');
    const issue = await getIssueJson(server, id);
    expect(fieldOf(issue, 'Type')).toBe('Cosmetics');
    expect(issue.tag.map((t) => t.value)).toEqual(['fix it this week']);
    // The tag exists now: the same words name it, and `remove tag fix it this week` removes it.
    const other = await createIssue(server, 'commands multi-word tag again');
    await mustExecute(server, other, 'type Feature tag fix it this week');
    expect(await tagsOf(other)).toEqual(['fix it this week']);
    await mustExecute(server, id, 'remove tag fix it this week');
    expect(await tagsOf(id)).toEqual([]);
    expect(await tagsOf(other)).toEqual(['fix it this week']);
  });

  it('a new tag stops at the next keyword', async () => {
    const id = await createIssue(server, 'tag then vote');
    await mustExecute(server, id, 'tag ship it soon vote');
    expect(await tagsOf(id)).toEqual(['ship it soon']);
    expect(fieldOf(await getIssueJson(server, id), 'votes')).toBe('1');
  });

  it('subsystem Documentation', async () => {
    const id = await createIssue(server, 'commands subsystem');
    await mustExecute(server, id, 'subsystem Documentation');
    expect(fieldOf(await getIssueJson(server, id), 'Subsystem')).toBe('Documentation');
  });
});

describe('Apply Command to an Issue page', () => {
  it('Type Bug Priority Critical add Fix versions 5.1 tag regression', async () => {
    const id = await createIssue(server, 'apply example');
    await mustExecute(server, id, 'Type Feature');
    await mustExecute(server, id, 'Type Bug Priority Critical add Fix versions 5.1 tag regression');
    const issue = await getIssueJson(server, id);
    expect(fieldOf(issue, 'Type')).toBe('Bug');
    expect(fieldOf(issue, 'Priority')).toBe('Critical');
    expect(valuesOf(issue, 'Fix versions')).toEqual(['5.1']);
    expect(issue.tag.map((t) => t.value)).toEqual(['regression']);
  });

  it('sample 1: a type and the comment "exception naturally!"', async () => {
    const id = await createIssue(server, 'apply sample');
    const res = await execute(server, id, { command: 'Type Cosmetics', comment: 'exception naturally!' });
    expect(res.status, res.text).toBe(200);
    const issue = await getIssueJson(server, id);
    expect(fieldOf(issue, 'Type')).toBe('Cosmetics');
    expect(issue.comment.map((c) => c.text)).toEqual(['exception naturally!']);
  });
});

describe('a link to an issue that does not exist', () => {
  it('is the command error (400) naming the unknown issue, and nothing changes', async () => {
    const id = await createIssue(server, 'link to nowhere');
    const before = await issueSnapshot(server);
    const command = `Critical relates to ${PRJ}-4242`;
    const message = `Cannot apply [ Link to ${PRJ}-4242 (relates to) ] to issue [ ${id} ]: issue [ ${PRJ}-4242 ] not found.`;
    expectXmlError(await execute(server, id, { command }), 400, message);
    expectJsonError(
      await execute(server, id, { command }, { accept: JSON_ACCEPT }),
      400,
      'VALIDATION_FAILED',
      message,
    );
    expect(await issueSnapshot(server)).toEqual(before);
  });
});

describe('delete', () => {
  it('removes the issue with everything on it, as DELETE /rest/issue/{id} does', async () => {
    const other = await createIssue(server, 'stays');
    const id = await createIssue(server, 'deleted by command');
    await mustExecute(server, id, `tag doomed relates to ${other} vote`);
    await mustExecute(server, id, 'delete', 'u_dev');
    expectXmlError(
      await server.request('GET', `/rest/issue/${id}`, { user: 'root' }),
      404,
      `Issue [ ${id} ] not found.`,
    );
    expect(await linksOf(other)).toEqual([]);
    expect((await execute(server, id, { command: 'Fixed' })).status).toBe(404);
  });

  it('other parts of the same command do not bring it back, and a link to it is dropped', async () => {
    const other = await createIssue(server, 'kept');
    const id = await createIssue(server, 'delete with others');
    await mustExecute(server, id, `Critical relates to ${other} delete`);
    expect((await server.request('GET', `/rest/issue/${id}`, { user: 'root' })).status).toBe(404);
    expect(await linksOf(other)).toEqual([]);
  });

  it('needs DELETE_ISSUE: a Reporter is refused (403) and nothing changes', async () => {
    const id = await createIssue(server, 'not deletable by a reporter');
    const before = await issueSnapshot(server);
    const res = await execute(server, id, { command: 'delete' }, { user: 'u_rep' });
    expect(res.status, res.text).toBe(403);
    expect(res.text).toContain(
      `Cannot apply [ Delete the issue ] to issue [ ${id} ]: no rights in project [ ${PRJ} ] (DELETE_ISSUE).`,
    );
    expect(await issueSnapshot(server)).toEqual(before);
  });
});

describe('visible to <group> / remove visible to <group>', () => {
  const group = 'doc-readers';
  beforeAll(async () => {
    expect((await server.request('PUT', `/rest/admin/group/${group}`, { user: 'root' })).status).toBe(201);
    expect(
      (await server.request('POST', `/rest/admin/user/u_rep/group/${group}`, { user: 'root' })).status,
    ).toBe(200);
  });
  const readable = async (id: string, user: string) =>
    (await server.request('GET', `/rest/issue/${id}`, { user })).status;

  it('restricts the issue to the group, as creating it with permittedGroup does, and records it', async () => {
    const id = await createIssue(server, 'made visible to a group');
    // A Project Admin names any group in its project (READ_USERGROUP there); u_dev, no member of
    // it, could not: it is no word for them (issue 37, item 13).
    await mustExecute(server, id, `visible to ${group}`, 'u_padmin');
    expect(fieldOf(await getIssueJson(server, id), 'permittedGroup')).toBe(group);
    expect(await readable(id, 'u_rep')).toBe(200);
    expect(await readable(id, 'u_obs')).toBe(404);
    const created = await server.request(
      'PUT',
      `/rest/issue?project=${PRJ}&summary=born+restricted&permittedGroup=${group}`,
      { user: 'root' },
    );
    const bornId = decodeURIComponent(created.headers.get('location')?.split('/').pop() ?? '');
    expect(await readable(bornId, 'u_obs')).toBe(404);
    expect(await readable(bornId, 'u_rep')).toBe(200);
    const history = await server.request('GET', `/rest/issue/${id}/changes`, {
      user: 'root',
      accept: JSON_ACCEPT,
    });
    expect(history.text).toContain('permittedGroup');
    expect(history.text).toContain(group);

    // u_dev is no member: the issue is hidden from them; a Project Admin (READ_HIDDEN_STUFF) lifts it.
    expect(await readable(id, 'u_dev')).toBe(404);
    await mustExecute(server, id, `remove visible to ${group}`, 'u_padmin');
    expect(fieldOf(await getIssueJson(server, id), 'permittedGroup')).toBeUndefined();
    expect(await readable(id, 'u_obs')).toBe(200);
  });

  it('needs UPDATE_ISSUE; an unknown group is a command error; both change nothing', async () => {
    const id = await createIssue(server, 'visibility refused');
    const before = await issueSnapshot(server);
    const refused = await execute(server, id, { command: `visible to ${group}` }, { user: 'u_rep' });
    expect(refused.status, refused.text).toBe(403);
    expectXmlError(
      await execute(server, id, { command: 'visible to no-such-group' }),
      400,
      'command: Unknown group: no-such-group (at 11-24)',
    );
    expect(await issueSnapshot(server)).toEqual(before);
  });
});

describe('work <duration> [type] [date] [description]', () => {
  const workItems = async (id: string) =>
    expectJson(
      await server.request('GET', `/rest/issue/${id}/timetracking/workitem`, {
        user: 'root',
        accept: JSON_ACCEPT,
      }),
      200,
    ) as {
      duration: number;
      date: number;
      description: string;
      worktype?: { name: string } | null;
      author: { login: string };
    }[];

  it('is refused while the project does not track time, and nothing is added', async () => {
    const id = await createIssue(server, 'no time tracking');
    expectXmlError(
      await execute(server, id, { command: 'work 2h' }),
      400,
      'command: Add work 2h: time tracking is not enabled in this project (at 0-7)',
    );
    expect(await workItems(id)).toEqual([]);
  });

  it('adds a work item by the actor where the project tracks time', async () => {
    expect(
      (await server.request('PUT', `/rest/admin/project/${PRJ}/timetracking?enabled=true`, { user: 'root' }))
        .status,
    ).toBe(200);
    expect(
      (await server.request('PUT', '/rest/admin/timetracking/worktype/Development', { user: 'root' })).status,
    ).toBe(201);
    const id = await createIssue(server, 'time tracked');
    await mustExecute(server, id, 'work 2h', 'u_dev');
    await mustExecute(server, id, 'work 1h30m Development 2026-11-20 fixed the parser vote', 'u_dev');
    const items = await workItems(id);
    const rows = items.map((w) => [w.duration, w.worktype?.name ?? null, w.description, w.author.login]);
    expect(rows.sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [90, 'Development', 'fixed the parser', 'u_dev'],
      [120, null, '', 'u_dev'],
    ]);
    expect(items.find((w) => w.duration === 90)?.date).toBe(Date.UTC(2026, 10, 20));
    expect(fieldOf(await getIssueJson(server, id), 'votes')).toBe('1');
  });

  it('needs CREATE_WORK_ITEM: a Reporter is refused (403), nothing added', async () => {
    const id = await createIssue(server, 'time by a reporter');
    const res = await execute(server, id, { command: 'work 1h' }, { user: 'u_rep' });
    expect(res.status, res.text).toBe(403);
    expect(res.text).toContain(
      `Cannot apply [ Add work 1h ] to issue [ ${id} ]: no rights in project [ ${PRJ} ] (CREATE_WORK_ITEM).`,
    );
    expect(await workItems(id)).toEqual([]);
  });
});

describe('star: the user’s own Star tag (Command Grammar: star me)', () => {
  const search = async (filter: string, user = 'root') => {
    const res = await server.request('GET', `/rest/issue?filter=${encodeURIComponent(filter)}&max=100`, {
      user,
      accept: JSON_ACCEPT,
    });
    return (expectJson(res, 200) as { issue: { id: string }[] }).issue.map((i) => i.id);
  };
  const tagList = async (user: string) => {
    const res = await server.request('GET', '/rest/user/tag', { user, accept: JSON_ACCEPT });
    return JSON.stringify(expectJson(res, 200));
  };

  it('star me puts the issue under the caller’s Star tag: issue tags, tag: Star in search, the tag list', async () => {
    const id = await createIssue(server, 'starred by me');
    const other = await createIssue(server, 'not starred');
    await mustExecute(server, id, 'star me', 'u_dev');
    expect(await tagsOf(id, 'u_dev')).toEqual(['Star']);
    expect(await search('tag: Star', 'u_dev')).toContain(id);
    expect(await search('tag: Star', 'u_dev')).not.toContain(other);
    expect(await search('has: star', 'u_dev')).toContain(id);
    expect(await tagList('u_dev')).toContain('"Star"');
    // Another user's star is theirs alone.
    expect(await tagsOf(id, 'root')).toEqual([]);
    expect(await search('tag: Star', 'root')).not.toContain(id);

    await mustExecute(server, id, 'unstar', 'u_dev');
    expect(await tagsOf(id, 'u_dev')).toEqual([]);
    expect(await search('tag: Star', 'u_dev')).not.toContain(id);
    expect(await search('has: star', 'u_dev')).not.toContain(id);
  });

  it('star <login> stars for that user (UPDATE_WATCHERS): their Star tag, not the caller’s', async () => {
    const id = await createIssue(server, 'starred for another');
    await mustExecute(server, id, 'star u_rep', 'u_dev');
    expect(await tagsOf(id, 'u_rep')).toEqual(['Star']);
    expect(await tagsOf(id, 'u_dev')).toEqual([]);
    expect(await search('tag: Star', 'u_rep')).toContain(id);
  });

  it('tag Star and untag Star are the star itself', async () => {
    const id = await createIssue(server, 'tagged Star');
    await mustExecute(server, id, 'tag Star', 'u_padmin');
    expect(await search('has: star', 'u_padmin')).toContain(id);
    expect(await tagsOf(id, 'u_padmin')).toEqual(['Star']);
    await mustExecute(server, id, 'untag Star', 'u_padmin');
    expect(await search('has: star', 'u_padmin')).not.toContain(id);
    expect(await tagsOf(id, 'u_padmin')).toEqual([]);
  });
});

describe('link suggestions see an issue the moment it exists', () => {
  const offered = async (command: string, issueIds: string, user = 'root') => {
    const res = await server.request(
      'GET',
      `/rest/command/suggest?issueIds=${issueIds}&command=${encodeURIComponent(command)}&optionsLimit=100`,
      { user, accept: JSON_ACCEPT },
    );
    return (expectJson(res, 200) as { suggest: { items: { o: string }[] } }).suggest.items.map((i) => i.o);
  };

  it('after relates to and depends on PRJ-, in the first request after creating it, by any user', async () => {
    const subject = await createIssue(server, 'the issue typed against');
    // The vocabulary is remembered: these requests warm it.
    expect(await offered('relates to ', subject)).toContain(subject);
    expect(await offered(`depends on ${PRJ}-`, subject, 'u_dev')).toContain(subject);
    for (let round = 0; round < 3; round++) {
      const created = await createIssue(server, `created just now ${round}`, { user: 'u_rep' });
      expect(await offered('relates to ', subject)).toContain(created);
      expect((await offered(`depends on ${PRJ}-`, subject, 'u_dev'))[0]).toBe(created);
      // Other commands in between change nothing of that.
      await mustExecute(server, subject, 'Priority Major');
      expect(await offered('relates to ', subject, 'u_dev')).toContain(created);
    }
  });
});

describe('field aliases as data on the prototype (add affects 1.0)', () => {
  const prototype = async (name: string) =>
    expectJson(
      await server.request('GET', `/rest/admin/customfield/field/${encodeURIComponent(name)}`, {
        user: 'root',
        accept: JSON_ACCEPT,
      }),
      200,
    ) as { defaultParam: { name: string; value: string }[] };
  const aliasesOf = async (name: string) =>
    (await prototype(name)).defaultParam.find((p) => p.name === 'aliases')?.value ?? '';
  const search = async (filter: string) => {
    const res = await server.request('GET', `/rest/issue?filter=${encodeURIComponent(filter)}&max=100`, {
      user: 'root',
      accept: JSON_ACCEPT,
    });
    return (expectJson(res, 200) as { issue: { id: string }[] }).issue.map((i) => i.id);
  };

  beforeAll(async () => {
    // Affected versions, as the original predefines it, sharing PRJ's versions with Fix versions.
    const put = await server.request(
      'PUT',
      '/rest/admin/customfield/field/Affected%20versions?type=version%5B*%5D',
      {
        user: 'root',
      },
    );
    expect(put.status, put.text).toBe(201);
    const fix = expectJson(
      await server.request('GET', `/rest/admin/project/${PRJ}/customfield/Fix%20versions`, {
        user: 'root',
        accept: JSON_ACCEPT,
      }),
      200,
    ) as { param: { name: string; value: string }[] };
    const bundle = fix.param.find((p) => p.name === 'bundle')?.value ?? '';
    const attach = await server.request(
      'PUT',
      `/rest/admin/project/${PRJ}/customfield/Affected%20versions?bundle=${encodeURIComponent(bundle)}`,
      { user: 'root' },
    );
    expect(attach.status, attach.text).toBe(201);
  });

  it('the documented aliases are on the prototypes: affects, fixed in', async () => {
    expect(await aliasesOf('Affected versions')).toBe('affects');
    expect(await aliasesOf('Fix versions')).toBe('fixed in');
  });

  it('add affects 1.0: commands, search and suggestions know the alias', async () => {
    const id = await createIssue(server, 'affects 1.0');
    const before = await issueSnapshot(server);
    // The bare value is ambiguous now (both fields have 1.0): refused, nothing changes.
    expect((await execute(server, id, { command: 'add 1.0' })).status).toBe(400);
    expect(await issueSnapshot(server)).toEqual(before);
    await mustExecute(server, id, 'add affects 1.0');
    await mustExecute(server, id, 'fixed in 2.0');
    const issue = await getIssueJson(server, id);
    expect(valuesOf(issue, 'Affected versions')).toEqual(['1.0']);
    expect(valuesOf(issue, 'Fix versions')).toEqual(['2.0']);
    expect(await search('affects: 1.0')).toContain(id);
    expect(await search('Affected versions: 1.0')).toContain(id);
    expect(await search('affects: 2.0')).not.toContain(id);
    const res = await server.request(
      'GET',
      `/rest/command/suggest?issueIds=${id}&command=${encodeURIComponent('add aff')}&optionsLimit=20`,
      { user: 'root', accept: JSON_ACCEPT },
    );
    const items = (expectJson(res, 200) as { suggest: { items: { o: string; d: string }[] } }).suggest.items;
    expect(items.map((i) => [i.o, i.d])).toContainEqual(['affects', 'Affected versions (alias)']);
    // The search assist offers the alias as an attribute, and the field's values after it.
    const searchAssist = async (filter: string) =>
      (
        await server.request('GET', `/rest/issue/intellisense?filter=${encodeURIComponent(filter)}`, {
          user: 'root',
        })
      ).text;
    expect(await searchAssist('affe')).toContain('<option>affects</option>');
    expect(await searchAssist('affects: ')).toContain('<option>1.0</option>');
  });

  it('are editable: a new alias works at once, the old one no longer; bad aliases are 400 naming aliases', async () => {
    const id = await createIssue(server, 'renamed alias');
    const post = (aliases: string) =>
      server.request(
        'POST',
        `/rest/admin/customfield/field/Affected%20versions?aliases=${encodeURIComponent(aliases)}`,
        {
          user: 'root',
        },
      );
    expect((await post('affects, hits')).status).toBe(200);
    await mustExecute(server, id, 'add hits 2.0');
    expect(valuesOf(await getIssueJson(server, id), 'Affected versions')).toEqual(['2.0']);
    expect((await post('hits')).status).toBe(200);
    expect(await aliasesOf('Affected versions')).toBe('hits');
    expect((await execute(server, id, { command: 'add affects 1.0' })).status).toBe(400);
    expectXmlError(await post('tag'), 400, 'aliases: [ tag ] is a command keyword');
    expectXmlError(await post('fixed in'), 400, 'aliases: [ fixed in ] already names field [ Fix versions ]');
    expectXmlError(await post('State'), 400, 'aliases: [ State ] already names field [ State ]');
    expect(
      (
        await server.request('POST', '/rest/admin/customfield/field/Affected%20versions?aliases=x', {
          user: 'u_dev',
        })
      ).status,
    ).toBe(403);
    expect(await aliasesOf('Affected versions')).toBe('hits');
    expect((await post('affects')).status).toBe(200);
  });
});
