import { MAX_COMMENT_LENGTH } from '@trackline/contracts';
import { actorFor, createTestOrm, fork, op, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { addComment, applyCommand } from './apply-command.js';
import { createIssue } from './create-issue.js';
import { addProjectAssignee } from './fields/assignees.js';
import { addFieldValue } from './fields/project-fields.js';
import { getIssue } from './get-issue.js';
import type { IssueView } from './issue-view.js';

const valuesOf = (issue: IssueView, field: string) =>
  issue.fields.find((f) => f.name === field)?.values.map((v) => v.name);
const linksOf = (issue: IssueView) => issue.links.map((l) => `${l.role} ${l.issue.id}`);

describe('applyCommand', () => {
  let orm: Orm;
  let root: Actor;
  let dev: Actor;
  let reporter: Actor;
  const get = (id: string, actor = root) => getIssue(fork(orm), actor, id);

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'CMD', name: 'Commands' });
    await createProject(fork(orm), root, { shortName: 'SEC', name: 'Secret' });
    dev = await userWithRole(orm, 'dev', 'Developer', 'CMD');
    reporter = await userWithRole(orm, 'rep', 'Reporter', 'CMD');
    await addProjectAssignee(fork(orm), root, 'CMD', 'dev');
    await addFieldValue(fork(orm), root, 'CMD', 'Fix versions', { name: '1.0' });
    await addFieldValue(fork(orm), root, 'CMD', 'Fix versions', { name: '2.0' });
    await addFieldValue(fork(orm), root, 'CMD', 'Subsystem', { name: 'UI' });
    for (let i = 1; i <= 6; i++)
      await createIssue(fork(orm), root, { project: 'CMD', summary: `issue ${i}` });
    await createIssue(fork(orm), root, { project: 'SEC', summary: 'secret' });
  });
  afterAll(() => orm.close(true));

  it('sets single-value fields, assignees and resolution, and bumps updated', async () => {
    const before = await get('CMD-1');
    await new Promise((r) => setTimeout(r, 5));
    await applyCommand(
      fork(orm),
      dev,
      ['cmd-1'],
      [
        op.set('State', 'fixed'),
        op.set('Priority', 'Critical'),
        op.set('Assignee', 'me'),
        op.set('Subsystem', 'UI'),
      ],
    );
    const after = await get('CMD-1');
    expect(valuesOf(after, 'State')).toEqual(['Fixed']);
    expect(valuesOf(after, 'Priority')).toEqual(['Critical']);
    expect(valuesOf(after, 'Assignee')).toEqual(['dev']);
    expect(after.fields.find((f) => f.name === 'Assignee')?.values[0]?.fullName).toBe('dev');
    expect(valuesOf(after, 'Subsystem')).toEqual(['UI']);
    expect(after.resolved).not.toBeNull();
    expect(after.updated).toBeGreaterThan(before.updated);

    await applyCommand(fork(orm), dev, ['CMD-1'], [op.set('State', 'Reopened'), op.set('Assignee', null)]);
    const reopened = await get('CMD-1');
    expect(reopened.resolved).toBeNull();
    expect(valuesOf(reopened, 'Assignee')).toEqual([]);
  });

  it('leaves updated alone when nothing changes', async () => {
    await applyCommand(fork(orm), dev, ['CMD-2'], [op.set('Priority', 'Major')]);
    const before = await get('CMD-2');
    await new Promise((r) => setTimeout(r, 5));
    await applyCommand(fork(orm), dev, ['CMD-2'], [op.set('Priority', 'major'), op.unvote(), op.unstar()]);
    expect((await get('CMD-2')).updated).toBe(before.updated);
  });

  it('adds and removes values of a multi-value field', async () => {
    await applyCommand(
      fork(orm),
      dev,
      ['CMD-2'],
      [op.add('Fix versions', '1.0'), op.add('Fix versions', '2.0')],
    );
    expect(valuesOf(await get('CMD-2'), 'Fix versions')).toEqual(['1.0', '2.0']);
    await applyCommand(fork(orm), dev, ['CMD-2'], [op.remove('Fix versions', '1.0')]);
    expect(valuesOf(await get('CMD-2'), 'Fix versions')).toEqual(['2.0']);
    await applyCommand(fork(orm), dev, ['CMD-2'], [op.set('Fix versions', '1.0')]);
    expect(valuesOf(await get('CMD-2'), 'Fix versions')).toEqual(['1.0']);
  });

  it.each([
    [
      'an unknown value',
      op.set('State', 'Nonsense'),
      'INVALID_COMMAND',
      /\[ Nonsense \] is not a value of field \[ State \]/,
    ],
    ['an unknown field', op.set('Color', 'Red'), 'INVALID_COMMAND', /field \[ Color \] does not exist/],
    ['emptying a required field', op.set('Priority', null), 'INVALID_COMMAND', /cannot be empty/],
    ['a non-assignee', op.set('Assignee', 'rep'), 'INVALID_COMMAND', /not an assignee/],
    ['an unknown user', op.set('Assignee', 'ghost'), 'NOT_FOUND', /user \[ ghost \] not found/],
    ['a link to itself', op.link('Relates', 'CMD-3'), 'INVALID_COMMAND', /linked to itself/],
    [
      'a link to a missing issue',
      op.link('Relates', 'CMD-999'),
      'VALIDATION_FAILED',
      /issue \[ CMD-999 \] not found/,
    ],
    [
      'a link to an unreadable issue',
      op.link('Relates', 'SEC-1'),
      'VALIDATION_FAILED',
      /issue \[ SEC-1 \] not found/,
    ],
    ['an unknown link type', op.link('Blocks', 'CMD-4'), 'NOT_FOUND', /link type/],
    ['untag of an unknown tag', op.untag('nope'), 'NOT_FOUND', /tag \[ nope \] not found/],
    ['a comment part without text', op.comment(), 'INVALID_COMMAND', /comment text is empty/],
    [
      'starring for someone else without UPDATE_WATCHERS',
      op.star('root'),
      'PERMISSION_DENIED',
      /UPDATE_WATCHERS/,
    ],
  ])('rejects %s, naming the issue, and changes nothing', async (_, failing, code, message) => {
    const actor = failing.kind === 'star' ? reporter : dev;
    const before = await get('CMD-3');
    const error = await applyCommand(
      fork(orm),
      actor,
      ['CMD-3'],
      [op.tag('atomic'), op.vote(), failing],
    ).catch((e) => e);
    expect(error).toMatchObject({ code });
    expect(error.message).toMatch(message);
    expect(error.message).toContain('issue [ CMD-3 ]');
    const after = await get('CMD-3');
    expect(after).toEqual(before);
    // Even the tag the first part created is gone.
    const tags = await fork(orm).execute("select count(*) as n from tags where name_key = 'atomic'");
    expect(Number(tags[0]?.n)).toBe(0);
  });

  it('refuses a comment longer than the REST limit (MAX_COMMENT_LENGTH), changing nothing', async () => {
    const before = (await get('CMD-4')).comments.length;
    const tooLong = 'x'.repeat(MAX_COMMENT_LENGTH + 1);
    await expect(applyCommand(fork(orm), dev, ['CMD-4'], [], tooLong)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining(`comment: must be at most ${MAX_COMMENT_LENGTH} characters`),
    });
    await applyCommand(fork(orm), dev, ['CMD-4'], [], 'x'.repeat(MAX_COMMENT_LENGTH));
    expect((await get('CMD-4')).comments.length).toBe(before + 1);
  });

  it('is atomic across issues: a failure on the second issue leaves the first unchanged', async () => {
    // The reporter may read SEC? No: SEC-1 is unreadable, so the whole command fails as not found.
    await expect(
      applyCommand(fork(orm), dev, ['CMD-4', 'SEC-1'], [op.set('State', 'Open')]),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(valuesOf(await get('CMD-4'), 'State')).toEqual(['Submitted']);
    // A per-issue failure: CMD-5 is linked to itself when the command targets it.
    const error = await applyCommand(
      fork(orm),
      dev,
      ['CMD-4', 'CMD-5'],
      [op.set('State', 'Open'), op.link('Depend', 'CMD-5')],
    ).catch((e) => e);
    expect(error).toMatchObject({ code: 'INVALID_COMMAND' });
    expect(error.message).toContain('issue [ CMD-5 ]');
    expect(valuesOf(await get('CMD-4'), 'State')).toEqual(['Submitted']);
    expect((await get('CMD-4')).links).toEqual([]);
  });

  it('checks permissions per part', async () => {
    // A Reporter may comment, link, tag, star and vote, but not change fields.
    const denied = await applyCommand(
      fork(orm),
      reporter,
      ['CMD-6'],
      [op.tag('mine'), op.set('State', 'Open')],
    ).catch((e) => e);
    expect(denied).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(denied.message).toMatch(/issue \[ CMD-6 \].*UPDATE_ISSUE/);
    await applyCommand(
      fork(orm),
      reporter,
      ['CMD-6'],
      [op.tag('mine'), op.star(), op.vote(), op.comment()],
      'Hello',
    );
    const issue = await get('CMD-6', reporter);
    // The star is the reporter's own Star tag too.
    expect(issue.tags.map((t) => t.name)).toEqual(['mine', 'Star']);
    // Its own star it sees; how many starred, only with VIEW_WATCHERS (a Reporter has none).
    expect(issue).toMatchObject({ stars: undefined, starredByMe: true, votes: 1, votedByMe: true });
    expect(issue.comments.map((c) => [c.author.login, c.text])).toEqual([['rep', 'Hello']]);
    // The reporter's private tag is invisible to others; stars and votes count for everyone.
    expect(await get('CMD-6')).toMatchObject({ tags: [], stars: 1, starredByMe: false, votes: 1 });
    const observer = await userWithRole(orm, 'obs', 'Observer', 'CMD');
    await expect(applyCommand(fork(orm), observer, ['CMD-6'], [], 'hi')).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(
      applyCommand(fork(orm), observer, ['CMD-6'], [op.link('Relates', 'CMD-5')]),
    ).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await applyCommand(fork(orm), observer, ['CMD-6'], [op.star(), op.unvote()]);
    expect((await get('CMD-6')).stars).toBe(2);
  });

  it('adds a comment given beside the command, once', async () => {
    await applyCommand(fork(orm), dev, ['CMD-5'], [op.comment()], '  With text  ');
    await addComment(fork(orm), dev, 'CMD-5', 'second');
    expect((await get('CMD-5')).comments.map((c) => c.text)).toEqual(['With text', 'second']);
    await expect(addComment(fork(orm), dev, 'CMD-5', ' ')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('tags with a new name create the actor tag, reused case-insensitively; untag removes', async () => {
    await applyCommand(fork(orm), dev, ['CMD-1', 'CMD-2'], [op.tag('Review Me')]);
    await applyCommand(fork(orm), dev, ['CMD-3'], [op.tag('review me')]);
    for (const id of ['CMD-1', 'CMD-2', 'CMD-3']) {
      expect((await get(id, dev)).tags).toEqual([{ name: 'Review Me', owner: 'dev', shared: false }]);
    }
    await applyCommand(fork(orm), dev, ['CMD-1'], [op.untag('REVIEW ME')]);
    expect((await get('CMD-1', dev)).tags).toEqual([]);
    // Tagging twice is harmless.
    await applyCommand(fork(orm), dev, ['CMD-2'], [op.tag('Review Me'), op.tag('review me')]);
    expect((await get('CMD-2', dev)).tags).toHaveLength(1);
  });

  it('concurrent commands creating the same tag create it once and tag every issue', async () => {
    await Promise.all(
      ['CMD-1', 'CMD-2', 'CMD-3', 'CMD-4'].map((id) => applyCommand(fork(orm), root, [id], [op.tag('race')])),
    );
    for (const id of ['CMD-1', 'CMD-2', 'CMD-3', 'CMD-4']) {
      expect((await get(id)).tags.map((t) => t.name)).toContain('race');
    }
  });

  describe('links', () => {
    it('shows directed links outward on the source and inward on the target', async () => {
      await applyCommand(fork(orm), dev, ['CMD-1'], [op.link('Depend', 'CMD-2')]);
      // Typed with the inward name: CMD-3 is required for CMD-1, stored as CMD-1 depends on CMD-3.
      await applyCommand(fork(orm), dev, ['CMD-3'], [op.link('Depend', 'CMD-1', false)]);
      expect(linksOf(await get('CMD-1'))).toEqual(['depends on CMD-2', 'depends on CMD-3']);
      expect(linksOf(await get('CMD-2'))).toEqual(['is required for CMD-1']);
      expect(linksOf(await get('CMD-3'))).toEqual(['is required for CMD-1']);
      expect((await get('CMD-2')).links[0]).toMatchObject({ typeName: 'Depend', direction: 'inward' });
      // Removing from the other side with the inward name removes the same link.
      await applyCommand(fork(orm), dev, ['CMD-2'], [op.unlink('Depend', 'CMD-1', false)]);
      expect(linksOf(await get('CMD-1'))).toEqual(['depends on CMD-3']);
      expect(linksOf(await get('CMD-2'))).toEqual([]);
    });

    it('keeps undirected links symmetric with one row', async () => {
      await applyCommand(fork(orm), dev, ['CMD-5'], [op.link('Relates', 'CMD-4')]);
      await applyCommand(fork(orm), dev, ['CMD-4'], [op.link('Relates', 'CMD-5')]);
      expect(linksOf(await get('CMD-4'))).toEqual(['relates to CMD-5']);
      expect(linksOf(await get('CMD-5'))).toEqual(['relates to CMD-4']);
      expect((await get('CMD-4')).links[0]?.direction).toBe('both');
      const rows = await fork(orm).execute(
        'select count(*) as n from issue_links l join issue_link_types t on t.id = l.type_id where t.name = ?',
        ['Relates'],
      );
      expect(Number(rows[0]?.n)).toBe(1);
      await applyCommand(fork(orm), dev, ['CMD-4'], [op.unlink('Relates', 'CMD-5')]);
      expect(linksOf(await get('CMD-4'))).toEqual([]);
      expect(linksOf(await get('CMD-5'))).toEqual([]);
    });

    it('hides links to issues the viewer cannot read', async () => {
      await applyCommand(fork(orm), root, ['SEC-1'], [op.link('Relates', 'CMD-6')]);
      expect(linksOf(await get('CMD-6'))).toEqual(['relates to SEC-1']);
      expect(linksOf(await get('CMD-6', dev))).toEqual([]);
    });
  });

  it('concurrent commands on one issue never duplicate or lose rows', async () => {
    await createIssue(fork(orm), root, { project: 'CMD', summary: 'busy' });
    const results = await Promise.allSettled([
      ...['Open', 'Fixed', 'Reopened', 'Verified'].map((state) =>
        applyCommand(fork(orm), dev, ['CMD-7'], [op.set('State', state)]),
      ),
      applyCommand(fork(orm), dev, ['CMD-7'], [op.add('Fix versions', '1.0')]),
      applyCommand(fork(orm), dev, ['CMD-7'], [op.add('Fix versions', '2.0')]),
      applyCommand(fork(orm), dev, ['CMD-7'], [op.link('Relates', 'CMD-6')]),
      applyCommand(fork(orm), dev, ['CMD-6'], [op.link('Relates', 'CMD-7')]),
      applyCommand(fork(orm), dev, ['CMD-7'], [op.tag('busy')]),
      applyCommand(fork(orm), dev, ['CMD-7'], [op.tag('busy')]),
    ]);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const issue = await get('CMD-7', dev);
    expect(valuesOf(issue, 'State')).toHaveLength(1);
    expect(valuesOf(issue, 'Fix versions')).toEqual(['1.0', '2.0']);
    expect(linksOf(issue)).toEqual(['relates to CMD-6']);
    expect(issue.tags.map((t) => t.name)).toEqual(['busy']);
  });
});
