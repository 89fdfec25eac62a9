import { actorFor, createTestOrm, fork, TEST_DIALECT, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { createSavedSearch } from '../folders/saved-searches.js';
import { createTag } from '../folders/tags.js';
import { addUserToGroup, createGroup } from '../groups/groups.js';
import { updateComment } from '../issues/comments/comments.js';
import { createIssue } from '../issues/create-issue.js';
import { executeCommand, executeIssueCommand } from '../issues/execute-command.js';
import { addProjectAssignee } from '../issues/fields/assignees.js';
import { recordIssueEvent } from '../issues/history/issue-events.js';
import { updateIssueText } from '../issues/issue-lifecycle.js';
import type { Em } from '../orm/em.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { listInbox, markInboxRead, unreadCount } from './inbox.js';
import type { RenderedPart } from './render.js';
import { updateNotificationSettings } from './settings.js';
import { setProjectNotificationGroup, setSubscription } from './subscriptions.js';
import { createNotificationWorker } from './worker.js';

/**
 * The outbox end to end on the inbox channel (e-mail and webhooks, with a real SMTP server and
 * HTTP receiver, are `apps/api/test/notifications.*.test.ts`): who is told, of what, what each
 * reader may see, the merge window, digests, and once per (event, recipient, channel) under
 * concurrent workers.
 */
describe('notifications: who is told, of what, as they may read it', () => {
  let orm: Orm;
  let root: Actor;
  /** The worker's clock: the real one unless a test moves it. */
  let clock: number | undefined;
  const P = 'NT';
  const run = (window = 0) =>
    createNotificationWorker(orm, {
      mergeWindowMs: window,
      now: () => clock ?? Date.now(),
      logError: (e) => {
        throw e;
      },
    }).runUntilIdle();
  const actor = (login: string) => actorFor(orm, login);
  /** The inbox entries of `login` about `issue`: the kinds of parts each holds. */
  async function told(login: string, issue?: string): Promise<string[][]> {
    const entries = await listInbox(fork(orm), await actor(login));
    return entries
      .filter((e) => issue === undefined || e.issue?.issue.id === issue)
      .map(
        (e) => e.issue?.changes.flatMap((c) => c.parts.map((p) => p.kind)) ?? [`note: ${e.system?.subject}`],
      );
  }
  async function parts(login: string, issue: string): Promise<RenderedPart[]> {
    const entries = await listInbox(fork(orm), await actor(login));
    return entries
      .filter((e) => e.issue?.issue.id === issue)
      .flatMap((e) => e.issue?.changes.flatMap((c) => c.parts) ?? []);
  }
  const clear = async (...logins: string[]) => {
    await run();
    for (const login of logins) await markInboxRead(fork(orm), await actor(login));
    await fork(orm).getConnection().execute("delete from notification_messages where channel = 'inapp'");
  };
  const newIssue = async (by: Actor, summary: string, description = '') =>
    (await createIssue(fork(orm), by, { project: P, summary, description })).id;

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: P, name: 'Notified' });
    for (const login of ['rep', 'ann', 'bob', 'wat', 'grp', 'sub', 'tsub', 'men', 'own', 'banned'])
      await userWithRole(orm, login, 'Developer', P);
    await userWithRole(orm, 'outsider');
    await userWithRole(orm, 'viewer', 'Reporter', P);
    for (const login of ['ann', 'bob']) await addProjectAssignee(fork(orm), root, P, login);
    await fork(orm).getConnection().execute("update users set banned = true where login = 'banned'");
    await createGroup(fork(orm), root, 'watchers');
    await addUserToGroup(fork(orm), root, 'grp', 'watchers');
    await addUserToGroup(fork(orm), root, 'outsider', 'watchers');
    await setProjectNotificationGroup(fork(orm), root, P, 'watchers');
  });
  afterAll(() => orm.close(true));

  it('tells the reporter, assignees (new and former), watchers, the project group; not the author, nor who may not read', async () => {
    const rep = await actor('rep');
    const id = await newIssue(rep, 'who is told');
    await executeCommand(fork(orm), root, [id], 'Assignee ann');
    await executeCommand(fork(orm), await actor('wat'), [id], 'star');
    await clear('rep', 'ann', 'wat', 'grp', 'outsider');
    await executeCommand(fork(orm), await actor('bob'), [id], 'Assignee bob Priority Major');
    await run();
    expect(await told('rep', id)).toEqual([['issue.changed']]);
    expect(await told('ann', id)).toEqual([['issue.changed']]); // taken from her
    expect(await told('wat', id)).toEqual([['issue.changed']]);
    expect(await told('grp', id)).toEqual([['issue.changed']]);
    expect(await told('bob', id)).toEqual([]); // the author
    expect(await told('outsider', id)).toEqual([]); // in the group, but reads nothing of the project
    expect(await told('men', id)).toEqual([]);
  });

  it('tells who is @mentioned in a comment or a description, and subscribers of saved searches and tags', async () => {
    const rep = await actor('rep');
    const sub = await actor('sub');
    await createSavedSearch(fork(orm), sub, { name: 'criticals', query: 'Priority: Critical' });
    await setSubscription(fork(orm), sub, { savedSearch: 'criticals' }, true);
    const tsub = await actor('tsub');
    await createTag(fork(orm), root, { name: 'release', shared: true });
    await setSubscription(fork(orm), tsub, { tag: 'release' }, true);
    const id = await newIssue(rep, 'mentions', 'see @men about it');
    await run();
    expect(await told('men', id)).toEqual([['issue.created']]);
    await clear('men', 'sub', 'tsub');
    await executeCommand(fork(orm), root, [id], 'Priority Critical', 'ping @Men and @nobody.');
    await run();
    expect(await told('men', id)).toEqual([['issue.changed', 'comment.added']]);
    expect(await told('sub', id)).toEqual([['issue.changed', 'comment.added']]);
    expect(await told('tsub', id)).toEqual([]);
    await executeCommand(fork(orm), root, [id], 'tag release');
    await run();
    expect(await told('tsub', id)).toEqual([['tag.added']]);
  });

  it('shows a tag change only to the tag owner; a quiet command (disableNotifications) tells no one', async () => {
    const id = await newIssue(root, 'tags');
    const own = await actor('own');
    await createTag(fork(orm), own, { name: 'mine' });
    await executeCommand(fork(orm), await actor('wat'), [id], 'star');
    await clear('own', 'wat');
    await executeCommand(fork(orm), root, [id], 'Priority Major');
    await executeCommand(fork(orm), own, [id], 'tag mine');
    await run();
    expect(await told('wat', id)).toEqual([['issue.changed']]);
    expect(await told('own', id)).toEqual([]); // own changes are not told by default
    await updateNotificationSettings(fork(orm), own, { ownChanges: true });
    await executeCommand(fork(orm), own, [id], 'untag mine');
    await run();
    expect(await told('own', id)).toEqual([['tag.removed']]);
    await clear('wat');
    await executeIssueCommand(fork(orm), root, {
      issue: id,
      command: 'Priority Minor',
      disableNotifications: true,
    });
    await run();
    expect(await told('wat', id)).toEqual([]);
  });

  it('tells each kind of change: created, fields, summary and description, comments and their edits, links, visibility', async () => {
    const rep = await actor('rep');
    const id = await newIssue(rep, 'kinds');
    const other = await newIssue(root, 'the other end');
    await run();
    expect(await told('grp', id)).toEqual([['issue.created']]);
    await clear('grp');
    await updateIssueText(fork(orm), root, id, { summary: 'kinds, renamed', description: 'now described' });
    await executeCommand(fork(orm), root, [id], `relates to ${other}`, 'a remark');
    const [comment] = await fork(orm)
      .getConnection()
      .execute<{ id: number }[]>("select id from issue_comments where text = 'a remark'");
    await updateComment(fork(orm), root, id, String(comment?.id), 'a better remark');
    await executeCommand(fork(orm), root, [id], `remove relates to ${other}`);
    await run();
    expect((await told('grp', id)).flat()).toEqual([
      'issue.changed',
      'link.added',
      'comment.added',
      'comment.updated',
      'link.removed',
    ]);
    const seen = await parts('grp', id);
    expect(seen[0]).toEqual({
      kind: 'issue.changed',
      fields: [
        { name: 'summary', oldValues: ['kinds'], newValues: ['kinds, renamed'] },
        { name: 'description', oldValues: [], newValues: ['now described'] },
      ],
    });
    expect(seen.find((p) => p.kind === 'link.added')).toEqual({
      kind: 'link.added',
      phrase: 'relates to',
      issue: other,
      summary: 'the other end',
    });
    // The other end is told of the link too.
    expect((await told('grp', other)).flat()).toContain('link.added');
  });

  it('visibility: a reader is told nothing they may not read, and that an issue was hidden from them', async () => {
    await createGroup(fork(orm), root, 'insiders');
    await addUserToGroup(fork(orm), root, 'ann', 'insiders');
    const id = await newIssue(root, 'restricted');
    for (const login of ['ann', 'wat']) await executeCommand(fork(orm), await actor(login), [id], 'star');
    await clear('ann', 'wat');
    // A comment for insiders only: wat (not in the group) is not told of it.
    await executeIssueCommand(fork(orm), root, { issue: id, comment: 'insiders only', group: 'insiders' });
    await run();
    expect(await told('ann', id)).toEqual([['comment.added']]);
    expect(await told('wat', id)).toEqual([]);
    // The issue restricted to insiders: wat could read it before and is told it is hidden now.
    await clear('ann', 'wat');
    await executeCommand(fork(orm), root, [id], 'visible to insiders');
    await run();
    expect(await told('ann', id)).toEqual([['issue.visibility']]);
    expect(await told('wat')).toEqual([[`note: ${id} is no longer visible to you`]]);
    // A later change of the hidden issue tells wat nothing at all.
    await clear('ann', 'wat');
    await executeCommand(fork(orm), root, [id], 'Priority Critical');
    await run();
    expect(await told('wat')).toEqual([]);
    expect(await told('ann', id)).toEqual([['issue.changed']]);
  });

  it('visibility: private field values go only to holders of PRIVATE_READ_ISSUE; attachments of a group only to it', async () => {
    const em = fork(orm);
    await em
      .getConnection()
      .execute("update custom_fields set is_private = true where name_key = 'priority'");
    try {
      const id = await newIssue(root, 'private fields');
      // A Reporter reads issues but not private fields; a Project Admin reads them.
      await executeCommand(fork(orm), await actor('viewer'), [id], 'star');
      await userWithRole(orm, 'padmin', 'Project Admin', P);
      await executeCommand(fork(orm), await actor('padmin'), [id], 'star');
      await clear('viewer', 'padmin');
      await executeCommand(fork(orm), root, [id], 'Priority Critical State Open');
      await run();
      const names = async (login: string) =>
        (await parts(login, id)).flatMap((p) =>
          p.kind === 'issue.changed' ? p.fields.map((f) => f.name) : [],
        );
      expect(await names('viewer')).toEqual(['State']);
      expect((await names('padmin')).sort()).toEqual(['Priority', 'State']);
      // An attachment recorded with a group (as an import keeps it) is named only to that group.
      await clear('viewer', 'padmin');
      const [issue] = await em
        .getConnection()
        .execute<{ id: number; project_id: number }[]>(
          'select i.id, i.project_id from issues i join projects p on p.id = i.project_id where p.short_name = ? order by i.id desc limit 1',
          [P],
        );
      const att = async (name: string, group: string | null) => {
        const [row] = await em
          .getConnection()
          .execute<{ id: number }[]>(
            "insert into issue_attachments (issue_id, name, content_hash, size, content_type, author_id, group_name, created_at) values (?, ?, ?, 0, 'text/plain', ?, ?, ?) returning id",
            [
              issue?.id,
              name,
              '0'.repeat(64),
              root.userId,
              group,
              TEST_DIALECT === 'sqlite' ? Date.now() : new Date(),
            ],
          );
        return Number(row?.id);
      };
      const open = await att('open.txt', null);
      const secret = await att('secret-plan.txt', 'insiders');
      await recordIssueEvent(em as Em, {
        issueId: Number(issue?.id),
        projectId: Number(issue?.project_id),
        authorId: root.userId,
        parts: [
          { kind: 'attachment.added', attachmentId: open },
          { kind: 'attachment.added', attachmentId: secret },
        ],
      });
      await run();
      const attached = async (login: string) =>
        (await parts(login, id)).flatMap((p) => (p.kind === 'attachment.added' ? [p.name] : []));
      expect(await attached('viewer')).toEqual(['open.txt']);
      expect(await attached('padmin')).toEqual(['open.txt', 'secret-plan.txt']);
    } finally {
      await em
        .getConnection()
        .execute("update custom_fields set is_private = false where name_key = 'priority'");
    }
  });

  it('merges changes by one author within the window into one message; another author gets their own', async () => {
    const id = await newIssue(root, 'merged');
    await executeCommand(fork(orm), await actor('wat'), [id], 'star');
    await clear('wat');
    clock = Date.now();
    await executeCommand(fork(orm), root, [id], 'Priority Major');
    await executeCommand(fork(orm), root, [id], 'State Open');
    await executeCommand(fork(orm), await actor('bob'), [id], 'Priority Minor');
    await run(60_000);
    expect(await told('wat', id)).toEqual([]); // the window is not over
    clock = Date.now() + 61_000;
    await run(60_000);
    const entries = await told('wat', id);
    expect(entries.map((e) => e.length).sort()).toEqual([1, 2]);
    expect(await unreadCount(fork(orm), await actor('wat'))).toBe(2);
    clock = undefined;
  });

  it('digests: every change of the period in one entry, when the period is over', async () => {
    const wat = await actor('wat');
    const id = await newIssue(root, 'digested');
    await executeCommand(fork(orm), wat, [id], 'star');
    await clear('wat');
    await updateNotificationSettings(fork(orm), wat, { inapp: { mode: 'digest', digestMinutes: 5 } });
    clock = Date.now();
    await executeCommand(fork(orm), root, [id], 'Priority Major');
    await executeCommand(fork(orm), await actor('bob'), [id], 'State Open');
    await run();
    expect(await told('wat', id)).toEqual([]);
    clock = Date.now() + 5 * 60_000 + 1000;
    await run();
    const entries = await listInbox(fork(orm), wat);
    expect(
      entries.filter((e) => e.issue?.issue.id === id).map((e) => [e.digest, e.issue?.changes.length]),
    ).toEqual([[true, 2]]);
    await updateNotificationSettings(fork(orm), wat, { inapp: { mode: 'each' } });
    clock = undefined;
  });

  it('a banned user, and one whose channel is off, is told nothing', async () => {
    const id = await newIssue(root, 'banned');
    await executeCommand(fork(orm), await actor('banned'), [id], 'star');
    const men = await actor('men');
    await executeCommand(fork(orm), men, [id], 'star');
    await updateNotificationSettings(fork(orm), men, { inapp: { mode: 'off' } });
    await clear('banned', 'men');
    await executeCommand(fork(orm), root, [id], 'Priority Major');
    await run();
    expect(await told('banned', id)).toEqual([]);
    expect(await told('men', id)).toEqual([]);
    await updateNotificationSettings(fork(orm), men, { inapp: { mode: 'each' } });
  });

  it('once per (event, recipient, channel) when several workers run at once', {
    timeout: 120_000,
  }, async () => {
    const id = await newIssue(root, 'raced');
    const watchers = Array.from({ length: 30 }, (_, i) => `race${i}`);
    for (const login of watchers) {
      await userWithRole(orm, login, 'Developer', P);
      await executeCommand(fork(orm), await actor(login), [id], 'star');
    }
    await clear(...watchers);
    for (let i = 0; i < 5; i++)
      await executeCommand(fork(orm), await actor(`race${i}`), [id], `Priority ${i % 2 ? 'Major' : 'Minor'}`);
    await Promise.all([run(), run(), run()]);
    const rows = await fork(orm)
      .getConnection()
      .execute<{ n: number; pairs: number; unassigned: number }[]>(
        "select count(*) as n, count(distinct d.event_id || ':' || d.user_id) as pairs, sum(case when d.message_id is null then 1 else 0 end) as unassigned " +
          'from notification_deliveries d join notification_events e on e.id = d.event_id join users u on u.id = e.author_id ' +
          "where d.channel = 'inapp' and u.login like 'race%' and d.user_id in (select id from users where login like 'race%')",
      );
    // 5 changes × 29 racing watchers (not the author) = 145 deliveries, each once, each in a message.
    expect([Number(rows[0]?.n), Number(rows[0]?.pairs), Number(rows[0]?.unassigned)]).toEqual([145, 145, 0]);
    const perUser = await Promise.all(watchers.map(async (w) => (await told(w, id)).flat().length));
    expect(perUser.every((n, i) => n === (i < 5 ? 4 : 5))).toBe(true);
  });
});
