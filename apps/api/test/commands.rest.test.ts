import { encodeCompressedId } from '@trackline/contracts';
import { addFieldValue, IssueStar, IssueVote, Tag, User } from '@trackline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actorFor,
  basic,
  expectJson,
  expectJsonError,
  expectXml,
  expectXmlError,
  fork,
  JSON_ACCEPT,
  ROOT_PASSWORD,
  rawRequest,
  startTestServer,
  type TestResponse,
  type TestServer,
  XML_ACCEPT,
  xmlElements,
} from './harness.js';
import {
  compressedIdOf,
  createIssue,
  createProjectOverHttp,
  execute,
  expectNoLeaks,
  fieldOf,
  getIssueJson,
  issueSnapshot,
  mustExecute,
  PRJ,
  q,
  root,
  SECRET,
  setUpWorld,
  valuesOf,
} from './issue-fixtures.js';

let server: TestServer;
/** An issue of the second project ALT, whose Subsystem has `Frontend` where PRJ's has `Backend`. */
let alt: string;
let secret: string;

beforeAll(async () => {
  server = await startTestServer();
  await setUpWorld(server);
  await createProjectOverHttp(server, 'ALT', 'Alternative');
  await addFieldValue(fork(server.orm), await actorFor(server.orm, 'root'), 'ALT', 'Subsystem', {
    name: 'Frontend',
  });
  alt = await createIssue(server, 'alt issue', { project: 'ALT' });
  secret = await createIssue(server, 'secret issue', { project: SECRET });
});
afterAll(() => server.close());

const starsOf = async (login: string) => {
  const em = fork(server.orm);
  const user = await em.findOneOrFail(User, { loginKey: login });
  return em.count(IssueStar, { user: user.id });
};

describe('POST /rest/issue/{id}/execute', () => {
  it('changes a field; answers 200 with an empty body (XML) or {} (JSON)', async () => {
    const id = await createIssue(server, 'field change');
    const res = await execute(server, id, { command: 'Priority Major' });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe('');
    expect(fieldOf(await getIssueJson(server, id), 'Priority')).toBe('Major');
    const json = await execute(
      server,
      id,
      { command: 'priority CRITICAL type feature' },
      { accept: JSON_ACCEPT },
    );
    expect(expectJson(json, 200)).toEqual({});
    const issue = await getIssueJson(server, id);
    expect(fieldOf(issue, 'Priority')).toBe('Critical');
    expect(fieldOf(issue, 'Type')).toBe('Feature');
  });

  it('reads the id case-insensitively', async () => {
    const id = await createIssue(server, 'lower-case id');
    const res = await execute(server, id.toLowerCase(), { command: 'Minor' });
    expect(res.status, res.text).toBe(200);
    expect(fieldOf(await getIssueJson(server, id), 'Priority')).toBe('Minor');
  });

  it('sets a state from a bare value, resolving and reopening the issue', async () => {
    const id = await createIssue(server, 'bare values');
    await mustExecute(server, id, 'Fixed');
    let issue = await getIssueJson(server, id);
    expect(fieldOf(issue, 'State')).toBe('Fixed');
    expect(Number(fieldOf(issue, 'resolved'))).toBeGreaterThan(0);
    await mustExecute(server, id, 'Reopened');
    issue = await getIssueJson(server, id);
    expect(fieldOf(issue, 'State')).toBe('Reopened');
    expect(fieldOf(issue, 'resolved')).toBeUndefined();
    await mustExecute(server, id, 'state {To be discussed}');
    expect(fieldOf(await getIssueJson(server, id), 'State')).toBe('To be discussed');
    await mustExecute(server, id, 'State To be discussed Backend');
    expect(fieldOf(await getIssueJson(server, id), 'Subsystem')).toBe('Backend');
  });

  it('for me assigns the caller; for Unassigned clears; assigned to <login>', async () => {
    const id = await createIssue(server, 'assignments');
    await mustExecute(server, id, 'for me', 'u_dev');
    expect(fieldOf(await getIssueJson(server, id), 'Assignee')).toBe('u_dev');
    await mustExecute(server, id, 'assigned to u_rep');
    expect(fieldOf(await getIssueJson(server, id), 'Assignee')).toBe('u_rep');
    await mustExecute(server, id, 'for Unassigned');
    expect(fieldOf(await getIssueJson(server, id), 'Assignee')).toBeUndefined();
  });

  it('tag creates the caller’s tag and untag removes it', async () => {
    const id = await createIssue(server, 'tagging');
    await mustExecute(server, id, 'tag {Needs triage}', 'u_dev');
    expect((await getIssueJson(server, id, 'u_dev')).tag).toEqual([
      { value: 'Needs triage', cssClass: 'c0' },
    ]);
    // A private tag: root does not see it on the issue.
    expect((await getIssueJson(server, id)).tag).toEqual([]);
    const em = fork(server.orm);
    const tag = await em.findOneOrFail(Tag, { nameKey: 'needs triage' }, { populate: ['owner'] });
    expect(tag.owner.login).toBe('u_dev');
    expect(tag.shared).toBe(false);
    await mustExecute(server, id, 'untag {needs triage}', 'u_dev');
    expect((await getIssueJson(server, id, 'u_dev')).tag).toEqual([]);
  });

  it('star and unstar the caller; vote and unvote count votes', async () => {
    const id = await createIssue(server, 'star and vote');
    const before = await starsOf('u_dev');
    await mustExecute(server, id, 'star', 'u_dev');
    expect(await starsOf('u_dev')).toBe(before + 1);
    await mustExecute(server, id, 'unstar', 'u_dev');
    expect(await starsOf('u_dev')).toBe(before);
    await mustExecute(server, id, 'vote', 'u_dev');
    await mustExecute(server, id, 'vote', 'u_rep');
    expect(fieldOf(await getIssueJson(server, id), 'votes')).toBe('2');
    await mustExecute(server, id, 'unvote', 'u_dev');
    expect(fieldOf(await getIssueJson(server, id), 'votes')).toBe('1');
    expect(await fork(server.orm).count(IssueVote, {})).toBeGreaterThanOrEqual(1);
  });

  it('add and remove values of a multi-value field (Fix versions)', async () => {
    const id = await createIssue(server, 'versions');
    await mustExecute(server, id, 'add Fix versions 1.0');
    expect(valuesOf(await getIssueJson(server, id), 'Fix versions')).toEqual(['1.0']);
    await mustExecute(server, id, 'add Fix versions 2.0');
    expect(fieldOf(await getIssueJson(server, id), 'Fix versions')).toEqual(['1.0', '2.0']);
    await mustExecute(server, id, 'remove Fix versions 1.0');
    expect(valuesOf(await getIssueJson(server, id), 'Fix versions')).toEqual(['2.0']);
    await mustExecute(server, id, 'add 1.0');
    expect(fieldOf(await getIssueJson(server, id), 'Fix versions')).toEqual(['1.0', '2.0']);
  });

  it('links both ways for an undirected type, once, and remove relates to unlinks', async () => {
    const a = await createIssue(server, 'relates a');
    const b = await createIssue(server, 'relates b');
    await mustExecute(server, a, `relates to ${b}`);
    expect((await getIssueJson(server, a)).link).toEqual([
      { typeName: 'Relates', role: 'relates to', source: a, target: b },
    ]);
    expect((await getIssueJson(server, b)).link).toEqual([
      { typeName: 'Relates', role: 'relates to', source: b, target: a },
    ]);
    // The same link typed from the other end adds nothing.
    await mustExecute(server, b, `relates to ${a.toLowerCase()}`);
    expect((await getIssueJson(server, a)).link).toHaveLength(1);
    await mustExecute(server, b, `remove relates to ${a}`);
    expect((await getIssueJson(server, a)).link).toEqual([]);
    expect((await getIssueJson(server, b)).link).toEqual([]);
  });

  it('directed links: the outward name on the source, the inward name on the target', async () => {
    const a = await createIssue(server, 'directed a');
    const b = await createIssue(server, 'directed b');
    const parent = await createIssue(server, 'parent');
    await mustExecute(server, a, `depends on ${b}`);
    expect((await getIssueJson(server, a)).link).toEqual([
      { typeName: 'Depend', role: 'depends on', source: a, target: b },
    ]);
    expect((await getIssueJson(server, b)).link).toEqual([
      { typeName: 'Depend', role: 'is required for', source: a, target: b },
    ]);
    // Typed with the inward name: the other issue is the source.
    await mustExecute(server, a, `is required for ${parent}`);
    expect((await getIssueJson(server, parent)).link).toEqual([
      { typeName: 'Depend', role: 'depends on', source: parent, target: a },
    ]);
    await mustExecute(server, a, `subtask of ${parent}`);
    expect((await getIssueJson(server, parent)).link).toContainEqual({
      typeName: 'Subtask',
      role: 'parent for',
      source: parent,
      target: a,
    });
    await mustExecute(server, a, `remove depends on ${b}`);
    expect((await getIssueJson(server, b)).link).toEqual([]);
  });

  it('comment adds the comment text; a comment alone needs no command', async () => {
    const id = await createIssue(server, 'comments');
    let res = await execute(server, id, { command: 'comment', comment: 'First words' }, { user: 'u_rep' });
    expect(res.status, res.text).toBe(200);
    res = await execute(server, id, { comment: 'Second words' });
    expect(res.status, res.text).toBe(200);
    const issue = await getIssueJson(server, id);
    expect(issue.comment.map((c) => [c.author, c.text])).toEqual([
      ['u_rep', 'First words'],
      ['root', 'Second words'],
    ]);
    expect(fieldOf(issue, 'commentsCount')).toBe('2');
  });

  it('applies several commands in one text', async () => {
    const id = await createIssue(server, 'several');
    const other = await createIssue(server, 'several other');
    const res = await execute(server, id, {
      command: `Priority Critical Type Task for u_dev tag Multi add Fix versions 2.0 vote relates to ${other} In Progress comment`,
      comment: 'all at once',
    });
    expect(res.status, res.text).toBe(200);
    const issue = await getIssueJson(server, id);
    expect(fieldOf(issue, 'Priority')).toBe('Critical');
    expect(fieldOf(issue, 'Type')).toBe('Task');
    expect(fieldOf(issue, 'Assignee')).toBe('u_dev');
    expect(fieldOf(issue, 'State')).toBe('In Progress');
    expect(valuesOf(issue, 'Fix versions')).toEqual(['2.0']);
    expect(fieldOf(issue, 'votes')).toBe('1');
    expect(issue.tag).toEqual([{ value: 'Multi', cssClass: 'c0' }]);
    expect(issue.link).toEqual([{ typeName: 'Relates', role: 'relates to', source: id, target: other }]);
    expect(issue.comment.map((c) => c.text)).toEqual(['all at once']);
  });

  it('accepts the parameters as a form-encoded or JSON body', async () => {
    const id = await createIssue(server, 'bodies');
    let res = await root(server, 'POST', `/rest/issue/${id}/execute`, {
      body: 'command=Priority+Major&comment=from+a+form',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status, res.text).toBe(200);
    res = await root(server, 'POST', `/rest/issue/${id}/execute`, {
      body: JSON.stringify({ command: 'Type Feature' }),
      contentType: 'application/json',
    });
    expect(res.status, res.text).toBe(200);
    const issue = await getIssueJson(server, id);
    expect(fieldOf(issue, 'Priority')).toBe('Major');
    expect(fieldOf(issue, 'Type')).toBe('Feature');
    expect(issue.comment.map((c) => c.text)).toEqual(['from a form']);
  });

  describe('is atomic: a command that fails in a later part changes nothing', () => {
    it('an unknown link target after a field change and a new tag', async () => {
      const id = await createIssue(server, 'atomic link');
      const before = await issueSnapshot(server);
      const res = await execute(
        server,
        id,
        { command: `Priority Major tag BrandNewTag vote relates to ${PRJ}-99999`, comment: 'never' },
        { accept: JSON_ACCEPT },
      );
      // A command error naming the unknown issue (400), as for any unknown value: not a 404.
      expectJsonError(
        res,
        400,
        'VALIDATION_FAILED',
        `Cannot apply [ Link to ${PRJ}-99999 (relates to) ] to issue [ ${id} ]: issue [ ${PRJ}-99999 ] not found.`,
      );
      expect(await issueSnapshot(server)).toEqual(before);
    });

    it('an unknown value in the second part is refused before anything is applied', async () => {
      const id = await createIssue(server, 'atomic parse');
      const before = await issueSnapshot(server);
      expectXmlError(
        await execute(server, id, { command: 'Priority Major State Nonsense' }),
        400,
        'command: Unknown State value: Nonsense (at 21-29)',
      );
      expect(await issueSnapshot(server)).toEqual(before);
    });

    it('a part the caller may not apply, after one they may', async () => {
      const id = await createIssue(server, 'atomic rights');
      const before = await issueSnapshot(server);
      expectXmlError(
        await execute(
          server,
          id,
          { command: 'comment Priority Major', comment: 'should vanish' },
          { user: 'u_rep' },
        ),
        403,
        `Cannot apply [ Set Priority to Major ] to issue [ ${id} ]: no rights in project [ ${PRJ} ] (UPDATE_ISSUE).`,
      );
      expect(await issueSnapshot(server)).toEqual(before);
    });
  });

  describe('runAs', () => {
    let id: string;
    beforeAll(async () => {
      id = await createIssue(server, 'run as');
    });

    it('needs LOW_LEVEL_ADMIN (403 otherwise, even for Admin granted in a project)', async () => {
      const before = await issueSnapshot(server);
      for (const user of ['u_dev', 'u_admin']) {
        expectXmlError(
          await execute(server, id, { command: 'comment', comment: 'x', runAs: 'u_rep' }, { user }),
          403,
          'You have no rights to run commands as another user (LOW_LEVEL_ADMIN).',
        );
      }
      expect(await issueSnapshot(server)).toEqual(before);
    });

    it('applies the command as that user: author, `me`, and their permissions', async () => {
      let res = await execute(server, id, {
        command: 'comment',
        comment: 'written for u_rep',
        runAs: 'u_rep',
      });
      expect(res.status, res.text).toBe(200);
      res = await execute(server, id, { command: 'for me', runAs: 'u_dev' });
      expect(res.status, res.text).toBe(200);
      const issue = await getIssueJson(server, id);
      expect(issue.comment.map((c) => [c.author, c.text])).toEqual([['u_rep', 'written for u_rep']]);
      expect(fieldOf(issue, 'Assignee')).toBe('u_dev');
      expectXmlError(
        await execute(server, id, { command: 'Priority Major', runAs: 'u_obs' }),
        403,
        `Cannot apply [ Set Priority to Major ] to issue [ ${id} ]: no rights in project [ ${PRJ} ] (UPDATE_ISSUE).`,
      );
      expectXmlError(
        await execute(server, id, { command: 'vote', runAs: 'u_none' }),
        404,
        `Issue [ ${id} ] not found.`,
      );
    });

    it('running as oneself needs nothing; an unknown user is 400', async () => {
      const res = await execute(server, id, { command: 'vote', runAs: 'U_DEV' }, { user: 'u_dev' });
      expect(res.status, res.text).toBe(200);
      expectJsonError(
        await execute(server, id, { command: 'vote', runAs: 'ghost' }, { accept: JSON_ACCEPT }),
        400,
        'VALIDATION_FAILED',
        'runAs: user [ ghost ] not found',
      );
    });
  });

  describe('permissions per part', () => {
    it('a Reporter may comment, link, tag and vote, but a field change is 403 naming UPDATE_ISSUE', async () => {
      const id = await createIssue(server, 'reporter parts');
      const other = await createIssue(server, 'reporter other');
      const res = await execute(
        server,
        id,
        { command: `comment relates to ${other} tag Mine vote`, comment: 'ok' },
        { user: 'u_rep' },
      );
      expect(res.status, res.text).toBe(200);
      expectJsonError(
        await execute(server, id, { command: 'Fixed' }, { user: 'u_rep', accept: JSON_ACCEPT }),
        403,
        'PERMISSION_DENIED',
        `Cannot apply [ Set State to Fixed ] to issue [ ${id} ]: no rights in project [ ${PRJ} ] (UPDATE_ISSUE).`,
      );
      expect(fieldOf(await getIssueJson(server, id), 'State')).toBe('Submitted');
    });

    it('an Observer may vote but not comment (CREATE_COMMENT) or link (LINK_ISSUE)', async () => {
      const id = await createIssue(server, 'observer parts');
      const other = await createIssue(server, 'observer other');
      expect((await execute(server, id, { command: 'vote' }, { user: 'u_obs' })).status).toBe(200);
      expectXmlError(
        await execute(server, id, { command: 'comment', comment: 'no' }, { user: 'u_obs' }),
        403,
        `Cannot apply [ Add comment ] to issue [ ${id} ]: no rights in project [ ${PRJ} ] (CREATE_COMMENT).`,
      );
      expectXmlError(
        await execute(server, id, { comment: 'no' }, { user: 'u_obs' }),
        403,
        `Cannot apply [ comment ] to issue [ ${id} ]: no rights in project [ ${PRJ} ] (CREATE_COMMENT).`,
      );
      expectXmlError(
        await execute(server, id, { command: `relates to ${other}` }, { user: 'u_obs' }),
        403,
        `Cannot apply [ Link to ${other} (relates to) ] to issue [ ${id} ]: no rights in project [ ${PRJ} ] (LINK_ISSUE).`,
      );
    });

    it('starring someone else needs UPDATE_WATCHERS', async () => {
      const id = await createIssue(server, 'star other');
      expectXmlError(
        await execute(server, id, { command: 'star u_dev' }, { user: 'u_rep' }),
        403,
        `Cannot apply [ Star for u_dev ] to issue [ ${id} ]: no rights in project [ ${PRJ} ] (UPDATE_WATCHERS).`,
      );
      expect((await execute(server, id, { command: 'star u_rep' }, { user: 'u_dev' })).status).toBe(200);
    });
  });

  describe('unparseable commands are 400 naming the problem', () => {
    let id: string;
    beforeAll(async () => {
      id = await createIssue(server, 'parse errors');
    });
    it.each([
      ['zork', 'command: Unknown command: zork (at 0-4)'],
      ['State', 'command: Value expected for State (at 5-5)'],
      ['relates to', 'command: Issue id expected after relates to (at 10-10)'],
      ['relates to nothing', 'command: Not an issue id: nothing (expected e.g. PRJ-12) (at 11-18)'],
      ['Subsystem {Back', 'command: Unknown Subsystem value: Back (at 10-15)'],
      ['Subsystem {Backend', 'command: Missing } to close the {…} value (at 10-18)'],
      ['untag neverSeen', 'command: Unknown tag: neverSeen (at 6-15)'],
      [
        'Priority Major PRJ-1',
        'command: Issue id PRJ-1 needs a link command before it, e.g. relates to PRJ-1 (at 15-20)',
      ],
    ])('%j', async (command, message) => {
      const before = await issueSnapshot(server);
      expectXmlError(await execute(server, id, { command }), 400, message);
      expectJsonError(
        await execute(server, id, { command }, { accept: JSON_ACCEPT }),
        400,
        'VALIDATION_FAILED',
        message,
      );
      expect(await issueSnapshot(server)).toEqual(before);
    });

    it('`comment` with no comment text is 422', async () => {
      expectXmlError(
        await execute(server, id, { command: 'comment' }),
        422,
        `Cannot apply [ Add comment ] to issue [ ${id} ]: the comment text is empty.`,
      );
    });
  });

  it('a hidden issue is 404 exactly like a missing one, whatever the command', async () => {
    for (const command of ['Fixed', 'zork', 'State Nonsense']) {
      const hidden = await execute(server, secret, { command }, { user: 'u_dev' });
      expectXmlError(hidden, 404, `Issue [ ${secret} ] not found.`);
      const missing = await execute(server, `${SECRET}-999`, { command }, { user: 'u_dev' });
      expectXmlError(missing, 404, `Issue [ ${SECRET}-999 ] not found.`);
    }
    // And a link to a hidden issue fails like a link to a missing one.
    const id = await createIssue(server, 'link to hidden');
    expectXmlError(
      await execute(server, id, { command: `relates to ${secret}` }, { user: 'u_dev' }),
      400,
      `Cannot apply [ Link to ${secret} (relates to) ] to issue [ ${id} ]: issue [ ${secret} ] not found.`,
    );
  });
});

/**
 * A compact IntelliSense XML body. `<prefix>`/`<suffix>` may legitimately hold just a space
 * (the text to insert), so the no-whitespace-between-tags rule is checked outside them.
 */
function expectIntelliSenseXml(res: TestResponse) {
  expectXml({ ...res, text: res.text.replace(/<(prefix|suffix)>[^<]*<\/\1>/g, '<$1/>') }, 200);
}

/** The items of an `<IntelliSense>` body. */
function xmlItems(xml: string) {
  return [...xml.matchAll(/<item>(.*?)<\/item>/g)].map((m) => {
    const body = m[1] as string;
    const child = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)?.[1];
    return {
      match: xmlElements(body, 'match')[0],
      completion: xmlElements(body, 'completion')[0],
      caret: Number(child('caret')),
      description: child('description'),
      prefix: child('prefix'),
      suffix: child('suffix'),
      option: child('option'),
      separator: child('separator'),
    };
  });
}

describe('GET /rest/issue/{id}/execute/intellisense', () => {
  let id: string;
  beforeAll(async () => {
    id = await createIssue(server, 'intellisense');
  });

  it('answers the legacy XML IntelliSense form by default', async () => {
    const res = await root(
      server,
      'GET',
      `/rest/issue/${id}/execute/intellisense${q({ command: 'State Fix', caret: 9, optionsLimit: 5 })}`,
    );
    expectIntelliSenseXml(res);
    expect(res.text).toMatch(
      /^<\?xml[^>]*\?><IntelliSense><highlight>.*<\/highlight><recent\/><suggest>.*<\/suggest><commands>.*<\/commands><\/IntelliSense>$/,
    );
    expect(res.text).toContain(
      '<range><start>0</start><end>5</end><styleClass>field</styleClass></range>' +
        '<range><start>6</start><end>9</end><styleClass>error</styleClass></range>',
    );
    const items = xmlItems(res.text);
    expect(items[0]).toEqual({
      match: { start: '0', end: '3' },
      completion: { start: '6', end: '9' },
      caret: 12,
      description: 'State',
      prefix: '',
      suffix: ' ',
      option: 'Fixed',
      separator: 'false',
    });
    expect(items.length).toBeLessThanOrEqual(5);
    expect(res.text).toContain(
      '<commands><command error="true">Unknown State value: Fix</command></commands>',
    );
  });

  it('answers JSON with underline, suggest and commands', async () => {
    const res = await root(
      server,
      'GET',
      `/rest/issue/${id}/execute/intellisense${q({ command: 'State Fixed' })}`,
      {
        accept: JSON_ACCEPT,
      },
    );
    const body = expectJson(res, 200);
    expect(Object.keys(body).sort()).toEqual(['commands', 'suggest', 'underline']);
    expect(body.underline.ranges).toEqual([
      { start: 0, end: 5, length: 5, style: 'field' },
      { start: 6, end: 11, length: 5, style: 'value' },
    ]);
    expect(body.commands.command).toEqual([
      { desc: 'Set State to Fixed', description: 'Set State to Fixed', error: false },
    ]);
  });

  it('respects the caret and optionsLimit', async () => {
    const command = 'Priority Maj State Fixed';
    const res = await root(
      server,
      'GET',
      `/rest/issue/${id}/execute/intellisense${q({ command, caret: 12, optionsLimit: 1 })}`,
    );
    const items = xmlItems(res.text);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ option: 'Major', completion: { start: '9', end: '12' }, caret: 15 });
  });

  it('offers an Observer no field changes', async () => {
    const res = await server.request(
      'GET',
      `/rest/issue/${id}/execute/intellisense${q({ command: 'Fix', optionsLimit: 100 })}`,
      {
        user: 'u_obs',
      },
    );
    expectIntelliSenseXml(res);
    expect(xmlItems(res.text).map((i) => i.option)).toEqual([]);
  });

  it('is 404 for a missing or hidden issue', async () => {
    expectXmlError(
      await root(server, 'GET', `/rest/issue/${PRJ}-99999/execute/intellisense?command=x`),
      404,
      `Issue [ ${PRJ}-99999 ] not found.`,
    );
    expectXmlError(
      await server.request('GET', `/rest/issue/${secret}/execute/intellisense?command=x`, { user: 'u_dev' }),
      404,
      `Issue [ ${secret} ] not found.`,
    );
  });
});

type Item = Record<string, unknown> & {
  o: string;
  pre: string;
  suf: string;
  cs: number;
  ce: number;
  cp: number;
  ms: number;
  me: number;
};
type Range = { start: number; end: number; length: number; style: string };

const SHORT_KEYS = ['o', 'd', 'hd', 'pre', 'suf', 'ms', 'me', 'cs', 'ce', 'cp', 'sep'];
const LONG_KEYS: Record<string, string> = {
  o: 'option',
  d: 'description',
  pre: 'prefix',
  suf: 'suffix',
  ms: 'matchingStart',
  me: 'matchingEnd',
  cs: 'completionStart',
  ce: 'completionEnd',
  cp: 'caret',
  sep: 'separator',
};

describe('/rest/command/*', () => {
  let id: string;
  let compressed: string;
  let altCompressed: string;
  const assist = (
    endpoint: string,
    params: Record<string, string | number | boolean | undefined>,
    user = 'root',
    accept?: string,
  ) =>
    server.request('GET', `/rest/command/${endpoint}${q(params)}`, { user, ...(accept ? { accept } : {}) });
  const suggestions = async (params: Record<string, string | number | boolean | undefined>, user = 'root') =>
    expectJson(await assist('suggest', params, user), 200).suggest.items as Item[];
  const underline = async (params: Record<string, string | number | boolean | undefined>, user = 'root') =>
    expectJson(await assist('underline', params, user), 200).underline.ranges as Range[];
  const options = (items: Item[]) => items.map((i) => i.o);

  beforeAll(async () => {
    id = await createIssue(server, 'command context');
    compressed = compressedIdOf(await getIssueJson(server, id));
    altCompressed = compressedIdOf(await getIssueJson(server, alt));
  });

  it('each sub-endpoint answers only its parts, as JSON by default', async () => {
    const params = { command: 'State Fixed zork', issueIds: id };
    const keys = async (endpoint: string) => {
      const res = await assist(endpoint, params);
      return Object.keys(expectJson(res, 200)).sort();
    };
    expect(await keys('suggest')).toEqual(['suggest']);
    expect(await keys('underline')).toEqual(['underline']);
    expect(await keys('underlineAndSuggest')).toEqual(['suggest', 'underline']);
    expect(await keys('underlineAndSuggestAndCommands')).toEqual(['commands', 'suggest', 'underline']);
    // No Accept header at all (the 2016 IDE plugin) is JSON too.
    const raw = await rawRequest(server.url, 'GET', `/rest/command/underline${q(params)}`, {
      authorization: basic('root', ROOT_PASSWORD),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(Object.keys(JSON.parse(raw.text))).toEqual(['underline']);
  });

  it('underline ranges, commands and suggestion items carry the legacy keys and the long aliases', async () => {
    const res = await assist('underlineAndSuggestAndCommands', {
      command: 'State Fixed zork Pri',
      issueIds: id,
    });
    const body = expectJson(res, 200);
    expect(body.underline.ranges).toEqual([
      { start: 0, end: 5, length: 5, style: 'field' },
      { start: 6, end: 11, length: 5, style: 'value' },
      { start: 12, end: 20, length: 8, style: 'error' },
    ]);
    expect(body.commands.command).toEqual([
      { desc: 'Set State to Fixed', description: 'Set State to Fixed', error: false },
      { desc: 'Unknown command: zork Pri', description: 'Unknown command: zork Pri', error: true },
    ]);
    const items = body.suggest.items as Item[];
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual([...SHORT_KEYS, ...Object.values(LONG_KEYS)].sort());
      for (const [short, long] of Object.entries(LONG_KEYS)) expect(item[long]).toEqual(item[short]);
      expect(item.sep).toBe(false);
    }
    expect(items[0]).toMatchObject({ o: 'Priority', d: 'Field', cs: 17, ce: 20, cp: 26, ms: 0, me: 3 });
  });

  it('answers the IntelliSense XML on Accept: application/xml, with only the requested parts', async () => {
    const params = { command: 'State Fix', issueIds: id, optionsLimit: 2 };
    const suggest = await assist('suggest', params, 'root', XML_ACCEPT);
    expectIntelliSenseXml(suggest);
    expect(suggest.text).toMatch(
      /^<\?xml[^>]*\?><IntelliSense><recent\/><suggest><item>.*<\/suggest><\/IntelliSense>$/,
    );
    expect(xmlItems(suggest.text).map((i) => i.option)).toEqual(['Fixed', "Won't fix"]);
    const under = await assist('underline', params, 'root', XML_ACCEPT);
    expectIntelliSenseXml(under);
    expect(under.text).toMatch(
      /^<\?xml[^>]*\?><IntelliSense><highlight><range>.*<\/highlight><recent\/><\/IntelliSense>$/,
    );
    const all = await assist('underlineAndSuggestAndCommands', params, 'root', XML_ACCEPT);
    expect(all.text).toContain(
      '<commands><command error="true">Unknown State value: Fix</command></commands>',
    );
  });

  describe('context issues', () => {
    it('from readable ids and from compressed ids computed from entityId, alike', async () => {
      const byReadable = await suggestions({ command: 'Subsystem ', issueIds: id, optionsLimit: 100 });
      const byCompressed = await suggestions({
        command: 'Subsystem ',
        issueIds: compressed,
        optionsLimit: 100,
      });
      expect(options(byReadable)).toEqual(['Backend', 'No subsystem']);
      expect(byCompressed).toEqual(byReadable);
      const altReadable = await suggestions({ command: 'Subsystem ', issueIds: alt, optionsLimit: 100 });
      const altByCompressed = await suggestions({
        command: 'Subsystem ',
        issueIds: altCompressed,
        optionsLimit: 100,
      });
      expect(options(altReadable)).toEqual(['Frontend', 'No subsystem']);
      expect(altByCompressed).toEqual(altReadable);
    });

    it('several issues: only what fits all of them', async () => {
      for (const issueIds of [`${id},${alt}`, `${compressed},${altCompressed}`, `${id}, ${altCompressed}`]) {
        expect(options(await suggestions({ command: 'Subsystem ', issueIds, optionsLimit: 100 }))).toEqual([
          'No subsystem',
        ]);
      }
    });

    it('from query, narrowed by folder', async () => {
      expect(options(await suggestions({ command: 'Subsystem ', query: alt, optionsLimit: 100 }))).toEqual([
        'Frontend',
        'No subsystem',
      ]);
      expect(
        options(await suggestions({ command: 'Subsystem ', folder: 'p-ALT', optionsLimit: 100 })),
      ).toEqual(['Frontend', 'No subsystem']);
      expect(
        options(
          await suggestions({
            command: 'Subsystem ',
            folder: `p-${PRJ}`,
            query: '#Unresolved',
            optionsLimit: 100,
          }),
        ),
      ).toEqual(['Backend', 'No subsystem']);
      // The folder narrows: an ALT issue id within the PRJ folder matches nothing, so no context.
      expect(
        options(
          await suggestions({ command: 'Subsystem ', folder: `p-${PRJ}`, query: alt, optionsLimit: 100 }),
        ),
      ).toEqual(['Backend', 'Frontend', 'No subsystem']);
    });

    it('none with noIssuesContext=true: every project’s values, issueIds ignored', async () => {
      for (const params of [
        { noIssuesContext: true },
        { noIssuesContext: 'true', issueIds: id },
        { noIssuesContext: true, issueIds: `${PRJ}-99999` },
        {},
      ]) {
        expect(options(await suggestions({ command: 'Subsystem ', optionsLimit: 100, ...params }))).toEqual([
          'Backend',
          'Frontend',
          'No subsystem',
        ]);
      }
    });

    it('an unknown or hidden issue is 404; a malformed id 400', async () => {
      const unknown = encodeCompressedId(999_999);
      // Past the id column's range (2^31 - 1): PostgreSQL refused the comparison with a 500.
      const huge = 'fz-tag';
      for (const [issueIds, message] of [
        [`${PRJ}-99999`, `Issue [ ${PRJ}-99999 ] not found.`],
        [huge, `Issues [ ${huge} ] not found.`],
        [`${id},${PRJ}-99999`, `Issue [ ${PRJ}-99999 ] not found.`],
        [unknown, `Issues [ ${unknown} ] not found.`],
        [`${compressed},${unknown}`, `Issues [ ${compressed}, ${unknown} ] not found.`],
      ]) {
        const res = await assist('underlineAndSuggestAndCommands', { command: 'x', issueIds });
        expectJsonError(res, 404, 'NOT_FOUND', message as string);
      }
      const secretCompressed = compressedIdOf(await getIssueJson(server, secret));
      for (const issueIds of [secret, secretCompressed]) {
        const res = await assist('suggest', { command: 'x', issueIds }, 'u_dev');
        expect(res.status, res.text).toBe(404);
        expect(expectJson(res, 404).code).toBe('NOT_FOUND');
      }
      expectJsonError(
        await assist('suggest', { command: 'x', issueIds: '~~' }),
        400,
        'VALIDATION_FAILED',
        'issueIds: must be issue ids (PRJ-12) or compressed persistent ids',
      );
      expectJsonError(
        await assist('suggest', { command: 'x', folder: 'nope' }),
        404,
        'NOT_FOUND',
        'Issue folder [ nope ] not found.',
      );
    });
  });

  describe('suggestions offer only what the caller could apply', () => {
    const FIELD_DESCRIPTIONS = ['Field', 'Field, several values'];
    const FIELD_NAMES = ['Priority', 'Type', 'State', 'Assignee', 'Subsystem', 'Fix versions'];
    const isFieldChange = (item: Item) =>
      FIELD_DESCRIPTIONS.includes(item.d as string) || FIELD_NAMES.includes(item.d as string);

    it('an Observer gets no field names or values, only tag/star/vote', async () => {
      for (const command of ['', 'Fix', 'State ', 'Pri', 'u_']) {
        const items = await suggestions({ command, issueIds: id, optionsLimit: 100 }, 'u_obs');
        expect(items.filter(isFieldChange), command).toEqual([]);
      }
      expect(options(await suggestions({ command: '', issueIds: id, optionsLimit: 100 }, 'u_obs'))).toEqual([
        'tag',
        'untag',
        'star',
        'unstar',
        'vote',
        'unvote',
        'add tag',
        'remove tag',
      ]);
      // Fields are not in an Observer's vocabulary at all: a field change reads as unknown.
      const body = expectJson(
        await assist('underlineAndSuggestAndCommands', { command: 'State Fixed', issueIds: id }, 'u_obs'),
        200,
      );
      expect(body.underline.ranges).toEqual([{ start: 0, end: 11, length: 11, style: 'error' }]);
      expect(body.commands.command).toEqual([
        { desc: 'Unknown command: State Fixed', description: 'Unknown command: State Fixed', error: true },
      ]);
    });

    it('a Reporter gets links and comment but no field changes; a Developer gets field changes', async () => {
      const reporter = await suggestions({ command: '', issueIds: id, optionsLimit: 100 }, 'u_rep');
      expect(reporter.filter(isFieldChange)).toEqual([]);
      expect(options(reporter)).toEqual(
        expect.arrayContaining(['comment', 'relates to', 'depends on', 'add']),
      );
      const developer = await suggestions({ command: 'Fix', issueIds: id, optionsLimit: 100 }, 'u_dev');
      expect(options(developer)).toEqual(expect.arrayContaining(['Fix versions', 'Fixed']));
    });

    it('link targets are only issues the caller can read', async () => {
      const items = await suggestions({ command: 'relates to ', issueIds: id, optionsLimit: 100 }, 'u_dev');
      expect(options(items)).toContain(id);
      expect(options(items)).not.toContain(secret);
      expect(items.every((i) => /^(PRJ|ALT)-\d+$/.test(i.o))).toBe(true);
    });
  });

  it('optionsLimit caps the items (default 15); over 100 is 400', async () => {
    for (const limit of [1, 3, 7]) {
      expect(await suggestions({ command: '', issueIds: id, optionsLimit: limit })).toHaveLength(limit);
    }
    expect(await suggestions({ command: '', issueIds: id })).toHaveLength(15);
    expect((await suggestions({ command: '', issueIds: id, optionsLimit: 100 })).length).toBeGreaterThan(15);
    expectJsonError(
      await assist('suggest', { command: '', optionsLimit: 101 }),
      400,
      'VALIDATION_FAILED',
      'optionsLimit: must be at most 100',
    );
  });

  describe('applying a returned suggestion leaves no error where it was applied', () => {
    // [text, caret]: empty, partial words, multi-word names typed back, values after fields,
    // a caret inside the text, an unclosed brace, link targets, add/remove, tags.
    const CASES: [string, number][] = [
      ['', 0],
      ['Fix', 3],
      ['Fix', 1],
      ['Sta', 3],
      ['State ', 6],
      ['State To be d', 13],
      ['Priority Maj', 12],
      ['Priority Maj State Fixed', 12],
      ['State Fixed Pri', 15],
      ['for ', 4],
      ['for u_', 6],
      ['assigned to u_d', 15],
      ['relates to ', 11],
      ['relates to PRJ-1', 16],
      ['add ', 4],
      ['add Fix versions ', 17],
      ['remove Fix', 10],
      ['tag ', 4],
      ['Fixed tag Mu', 12],
      ['Subsystem {Back', 15],
      ['Subsystem {No sub', 17],
      ['Type Usab', 9],
      ['vo', 2],
      ['comment  Major', 8],
      ['zork Cri', 8],
      ['star ', 5],
    ];

    it.each(['u_dev', 'u_rep', 'u_obs'])('for %s', async (user) => {
      // Something for `tag` to suggest.
      await mustExecute(server, id, 'tag Multi', user);
      let checked = 0;
      for (const [text, caret] of CASES) {
        const items = await suggestions({ command: text, caret, issueIds: id, optionsLimit: 25 }, user);
        for (const item of items) {
          const inserted = item.pre + item.o + item.suf;
          const next = text.slice(0, item.cs) + inserted + text.slice(item.ce);
          expect(item.cs).toBeLessThanOrEqual(caret);
          expect(item.ce).toBeGreaterThanOrEqual(caret);
          expect(next.slice(item.cs, item.cs + inserted.length)).toBe(inserted);
          expect(item.cp).toBeGreaterThanOrEqual(item.cs + inserted.length);
          expect(item.cp).toBeLessThanOrEqual(next.length);
          const ranges = await underline({ command: next, issueIds: id }, user);
          const errors = ranges.filter((r) => r.style === 'error' && r.start < item.cp && item.cs < r.end);
          expect(
            errors,
            `${JSON.stringify(text)}@${caret} + ${JSON.stringify(item.o)} → ${JSON.stringify(next)}`,
          ).toEqual([]);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(user === 'u_obs' ? 20 : 100);
    });
  });
});

describe('hygiene', () => {
  it('no response of this suite carried a stack trace', () => expectNoLeaks(server));
});
