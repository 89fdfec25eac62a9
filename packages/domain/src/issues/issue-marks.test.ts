import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { actorFor, createTestOrm, fork, op, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { migrationsDir, splitStatements } from '../orm/migrate.js';
import { dialectOf, type Orm } from '../orm/open-orm.js';
import { createProject, deleteProject } from '../projects/projects.js';
import { purgeProject } from '../projects/trash.js';
import { mergeUsers } from '../users/merge-users.js';
import { applyCommand } from './apply-command.js';
import { deleteComment, listComments } from './comments/comments.js';
import { createIssue } from './create-issue.js';
import { deleteIssue } from './issue-lifecycle.js';
import { loadReadableIssueView } from './issue-view.js';

type Marks = Record<string, number>;

/** What the triggers of migration 0045 keep, per issue that has a row (zeros left out). */
async function kept(orm: Orm): Promise<Record<number, Marks>> {
  const rows = await fork(orm).execute<Record<string, unknown>[]>(
    'select issue_id, stars, votes, attachments, tags, comments, links from issue_marks',
  );
  return byIssue(rows);
}

/** The same counts taken from the tables themselves. */
async function counted(orm: Orm): Promise<Record<number, Marks>> {
  const rows = await fork(orm).execute<Record<string, unknown>[]>(
    'select i.id as issue_id, ' +
      '(select count(*) from issue_stars s where s.issue_id = i.id) as stars, ' +
      '(select count(*) from issue_votes v where v.issue_id = i.id) as votes, ' +
      '(select count(*) from issue_attachments a where a.issue_id = i.id) as attachments, ' +
      '(select count(*) from issue_tags t where t.issue_id = i.id) as tags, ' +
      '(select count(*) from issue_comments c where c.issue_id = i.id and not c.deleted) as comments, ' +
      '(select count(*) from issue_links l where l.source_id = i.id) + ' +
      '(select count(*) from issue_links l where l.target_id = i.id) as links from issues i',
  );
  return byIssue(rows);
}

function byIssue(rows: Record<string, unknown>[]): Record<number, Marks> {
  const out: Record<number, Marks> = {};
  for (const row of rows) {
    const marks: Marks = {};
    for (const kind of ['stars', 'votes', 'attachments', 'tags', 'comments', 'links'])
      if (Number(row[kind]) !== 0) marks[kind] = Number(row[kind]);
    if (Object.keys(marks).length > 0) out[Number(row.issue_id)] = marks;
  }
  return out;
}

describe('issue marks (the counts per issue that triggers keep, migration 0045)', () => {
  let orm: Orm;
  let root: Actor;
  let dev: Actor;

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'MRK', name: 'Marks' });
    await createProject(fork(orm), root, { shortName: 'GONE', name: 'Gone' });
    dev = await userWithRole(orm, 'mdev', 'Developer', 'MRK');
    await userWithRole(orm, 'mtwin', 'Developer', 'MRK');
    for (let i = 1; i <= 4; i++) await createIssue(fork(orm), root, { project: 'MRK', summary: `m ${i}` });
    await createIssue(fork(orm), root, { project: 'GONE', summary: 'gone' });
  });
  afterAll(() => orm.close(true));

  it('stay equal to the rows through commands, comment deletions, issue deletion, a user merge and a purge', async () => {
    const twin = await actorFor(orm, 'mtwin');
    await applyCommand(
      fork(orm),
      root,
      ['MRK-1', 'MRK-2'],
      [op.star(), op.vote(), op.tag('hot'), op.link('Relates', 'MRK-3'), op.comment()],
      'first',
    );
    await applyCommand(fork(orm), dev, ['MRK-1'], [op.star(), op.vote(), op.comment()], 'second');
    await applyCommand(fork(orm), twin, ['MRK-1'], [op.star(), op.vote()]);
    await applyCommand(
      fork(orm),
      root,
      ['GONE-1'],
      [op.star(), op.link('Depend', 'MRK-4'), op.comment()],
      'x',
    );
    expect(await kept(orm)).toEqual(await counted(orm));

    await applyCommand(
      fork(orm),
      root,
      ['MRK-2'],
      [op.unstar(), op.untag('hot'), op.unlink('Relates', 'MRK-3')],
    );
    const [first, second] = await listComments(fork(orm), root, 'MRK-1');
    await deleteComment(fork(orm), root, 'MRK-1', String(first?.id));
    await deleteComment(fork(orm), root, 'MRK-1', String(first?.id), true);
    await deleteComment(fork(orm), root, 'MRK-1', String(second?.id), true);
    await deleteIssue(fork(orm), root, 'MRK-3');
    // The twin's star and vote on MRK-1 move to mdev, who has both already: the duplicates go.
    await mergeUsers(fork(orm), root, 'mdev', 'mtwin');
    await deleteProject(fork(orm), root, 'GONE');
    await purgeProject(fork(orm), await actorFor(orm, 'root'), 'GONE');
    expect(await kept(orm)).toEqual(await counted(orm));
    expect((await counted(orm))[(await view('MRK-1')).dbId]).toMatchObject({ stars: 2, votes: 2 });
  });

  it('follow hand-written SQL too: a row moved to another issue, a comment undeleted, a table emptied', async () => {
    const [one, four] = [await view('MRK-1'), await view('MRK-4')];
    const em = fork(orm);
    await em.execute('update issue_stars set issue_id = ? where issue_id = ?', [four.dbId, one.dbId]);
    await em.execute(
      "insert into issue_attachments (issue_id, name, content_hash, size, content_type, author_id, created_at) values (?, 'a.txt', 'h', 1, 'text/plain', ?, ?)",
      [four.dbId, root.userId, new Date().toISOString()],
    );
    await em.execute('update issue_comments set deleted = ?', [false]);
    expect(await kept(orm)).toEqual(await counted(orm));
    await em.execute('delete from issue_votes');
    await em.execute('delete from issue_links');
    expect(await kept(orm)).toEqual(await counted(orm));
  });

  it('add up when many callers star and vote on one issue at once', async () => {
    const callers = [];
    for (let i = 0; i < 8; i++) callers.push(await userWithRole(orm, `crowd${i}`, 'Developer', 'MRK'));
    const before = (await view('MRK-2')).stars ?? Number.NaN;
    await Promise.all(
      callers.map((caller) => applyCommand(fork(orm), caller, ['MRK-2'], [op.star(), op.vote()])),
    );
    await Promise.all(
      callers.slice(0, 3).map((caller) => applyCommand(fork(orm), caller, ['MRK-2'], [op.unstar()])),
    );
    expect(await kept(orm)).toEqual(await counted(orm));
    const after = await loadReadableIssueView(fork(orm), callers[0] as Actor, 'MRK-2');
    expect(after?.stars).toBe(before + 5);
    expect(after?.starredByMe).toBe(false);
    expect(after?.votedByMe).toBe(true);
  });

  it('are counted from the rows a database already holds when the migration adds them', async () => {
    const file = join(migrationsDir(dialectOf(orm)), '0045_issue_marks.sql');
    const backfill = splitStatements(readFileSync(file, 'utf8')).find((s) => s.startsWith('insert into'));
    expect(backfill).toBeDefined();
    const expected = await counted(orm);
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    await fork(orm).execute('delete from issue_marks');
    await fork(orm).execute(backfill as string);
    expect(await kept(orm)).toEqual(expected);
  });

  async function view(id: string) {
    const found = await loadReadableIssueView(fork(orm), root, id);
    if (!found) throw new Error(`${id} is not readable`);
    return found;
  }
});
