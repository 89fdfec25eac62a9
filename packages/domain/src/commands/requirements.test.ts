import type { PermissionKey } from '@trackline/contracts';
import {
  actorFor,
  createTestOrm,
  fork,
  kitPasswordHash,
  op,
  testVocabulary,
} from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { applyCommand } from '../issues/apply-command.js';
import { buildVocabulary } from '../issues/build-vocabulary.js';
import { createIssue } from '../issues/create-issue.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { addRolePermission, createRole } from '../roles/roles.js';
import { grantRole, insertUser } from '../users/users.js';
import type { CommandOp, CommandOpKind } from './ops.js';
import { parseCommand } from './parser.js';
import { CAPABILITY_REQUIREMENTS, COMMAND_OP_REQUIREMENTS } from './requirements.js';

/** One command text per operation kind, over the test vocabulary, and the op execution gets. */
const SAMPLES: Record<CommandOpKind, { text: string; op: CommandOp }> = {
  set: { text: 'State Open', op: op.set('State', 'Open') },
  add: { text: 'add Fix versions 1.0', op: op.add('Fix versions', '1.0') },
  remove: { text: 'remove Fix versions 1.0', op: op.remove('Fix versions', '1.0') },
  tag: { text: 'tag Todo', op: op.tag('Todo') },
  untag: { text: 'untag Todo', op: op.untag('Todo') },
  star: { text: 'star', op: op.star() },
  unstar: { text: 'unstar', op: op.unstar() },
  vote: { text: 'vote', op: op.vote() },
  unvote: { text: 'unvote', op: op.unvote() },
  link: { text: 'relates to PRJ-2', op: op.link('Relates', 'RQ-2') },
  unlink: { text: 'remove relates to PRJ-2', op: op.unlink('Relates', 'RQ-2') },
  comment: { text: 'comment', op: op.comment() },
  delete: { text: 'delete', op: op.delete() },
  visibleTo: { text: 'visible to All Users', op: op.visibleTo('All Users') },
  removeVisibleTo: { text: 'remove visible to All Users', op: op.removeVisibleTo('All Users') },
  work: { text: 'work 2h', op: op.work(120) },
};

/** Every permission a command may need, so an actor can lack exactly one of them. */
const COMMAND_PERMISSIONS = [
  ...new Set(Object.values(CAPABILITY_REQUIREMENTS).map((r) => r.permission)),
  'UPDATE_WATCHERS',
] as PermissionKey[];

describe('command-operation requirements: one table, three enforcers that agree', () => {
  let orm: Orm;
  let root: Actor;

  /** A user (or the guest) holding, in project RQ, every command permission but `without`. */
  async function actorLacking(login: string, without: PermissionKey | null): Promise<Actor> {
    const role = `cmd-${login}`;
    await createRole(fork(orm), root, role);
    for (const key of COMMAND_PERMISSIONS)
      if (key !== without) await addRolePermission(fork(orm), root, role, key);
    if (login !== 'guest')
      await insertUser(fork(orm), { login, passwordHash: await kitPasswordHash('password-1') });
    await grantRole(fork(orm), root, login, role, 'RQ');
    return actorFor(orm, login);
  }

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'RQ', name: 'Requirements' });
    await createIssue(fork(orm), root, { project: 'RQ', summary: 'subject' });
    await createIssue(fork(orm), root, { project: 'RQ', summary: 'link target' });
  });
  afterAll(() => orm.close(true));

  it('covers every kind of operation the parser can produce', () => {
    expect(Object.keys(COMMAND_OP_REQUIREMENTS).sort()).toEqual(Object.keys(op).sort());
    expect(Object.keys(SAMPLES).sort()).toEqual(Object.keys(op).sort());
    for (const [kind, sample] of Object.entries(SAMPLES)) {
      expect(
        parseCommand(sample.text, testVocabulary()).ops.map((o) => o.kind),
        sample.text,
      ).toEqual([kind]);
    }
  });

  it('vocabulary, parser and execution refuse each kind to an actor lacking its requirement', async () => {
    const guest = await actorLacking('guest', null);
    const lacking = new Map<PermissionKey, Actor>();
    for (const permission of COMMAND_PERMISSIONS) {
      if (permission !== 'READ_ISSUE')
        lacking.set(permission, await actorLacking(`no-${permission.toLowerCase()}`, permission));
    }
    const matrix: string[] = [];
    for (const [kind, needs] of Object.entries(COMMAND_OP_REQUIREMENTS)) {
      // Reading is what makes the issue visible at all, so the refusable part of a
      // READ_ISSUE requirement is "humans only": the guest, who may read, is the one refused.
      const actor = needs.permission === 'READ_ISSUE' ? guest : lacking.get(needs.permission);
      if (!actor) throw new Error(`no actor lacks ${needs.permission}`);
      const { can } = await buildVocabulary(fork(orm), actor, ['RQ-1']);
      const parsed = parseCommand(SAMPLES[kind as CommandOpKind].text, { ...testVocabulary(), can });
      const executed = await applyCommand(
        fork(orm),
        actor,
        ['RQ-1'],
        [SAMPLES[kind as CommandOpKind].op],
      ).then(
        () => 'applied',
        (error: { code?: string }) => error.code,
      );
      matrix.push(
        `${kind}: can=${can[needs.capability]} parsed=${parsed.ops.length} ` +
          `refused=${parsed.diagnostics.some((d) => d.message.includes('you have no rights to'))} ${executed}`,
      );
    }
    expect(matrix).toEqual(
      Object.keys(COMMAND_OP_REQUIREMENTS).map(
        (kind) => `${kind}: can=false parsed=0 refused=true PERMISSION_DENIED`,
      ),
    );
  });

  it('an actor holding every requirement is offered, parses and executes each kind', async () => {
    const holder = await actorLacking('holder', null);
    const { can } = await buildVocabulary(fork(orm), holder, ['RQ-1']);
    for (const [kind, needs] of Object.entries(COMMAND_OP_REQUIREMENTS)) {
      expect(can[needs.capability], kind).toBe(true);
      const sample = SAMPLES[kind as CommandOpKind];
      expect(parseCommand(sample.text, { ...testVocabulary(), can }).ops, kind).toHaveLength(1);
      // Deleting gets an issue of its own, so the other kinds still have theirs.
      const subject =
        kind === 'delete'
          ? (await createIssue(fork(orm), root, { project: 'RQ', summary: 'to delete' })).id
          : 'RQ-1';
      const outcome = await applyCommand(fork(orm), holder, [subject], [sample.op], 'text').then(
        () => 'applied',
        (error: { code?: string }) => error.code,
      );
      expect(outcome, kind).not.toBe('PERMISSION_DENIED');
    }
  });
});
