import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import {
  actorFor,
  createTestOrm,
  fork,
  storedContents,
  TEST_DIALECT,
  userWithRole,
} from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import { addUserToGroup, createGroup } from '../../groups/groups.js';
import type { Orm } from '../../orm/open-orm.js';
import { createProject } from '../../projects/projects.js';
import { createIssue } from '../create-issue.js';
import { deleteIssue } from '../issue-lifecycle.js';
import { loadReadableIssueView } from '../issue-view.js';
import { countIssues } from '../search/search-issues.js';
import { type AttachmentStore, createFileAttachmentStore } from './attachment-store.js';
import { createPostgresAttachmentStore } from './attachment-store-pg.js';
import {
  addAttachment,
  deleteAttachment,
  importAttachment,
  listAttachments,
  openAttachment,
  sweepAttachmentFiles,
} from './attachments.js';

const bytes = (content: string) => Readable.from([Buffer.from(content)]);

// The store the server uses on each database: a folder on SQLite, the database on PostgreSQL.
describe(`attachments (${TEST_DIALECT === 'sqlite' ? 'folder' : 'PostgreSQL'} store)`, () => {
  let orm: Orm;
  let root: Actor;
  let dir: string;
  let files: AttachmentStore;
  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    dir = mkdtempSync(join(tmpdir(), 'trackline-attachments-'));
    files = TEST_DIALECT === 'sqlite' ? createFileAttachmentStore(dir) : createPostgresAttachmentStore(orm);
    await createProject(fork(orm), root, { shortName: 'ATT', name: 'Attachments' });
    await createIssue(fork(orm), root, { project: 'ATT', summary: 'one' });
    await createIssue(fork(orm), root, { project: 'ATT', summary: 'two' });
  });
  afterAll(async () => {
    await orm.close(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores files by content, lists them and streams them back to readers only', async () => {
    const added = await addAttachment(fork(orm), root, files, {
      issue: 'ATT-1',
      name: '../report.txt',
      contentType: 'text/plain',
      source: bytes('hello'),
      maxBytes: 100,
    });
    expect([added.name, added.size, added.contentType, added.authorLogin]).toEqual([
      '.._report.txt',
      5,
      'text/plain',
      'root',
    ]);
    const opened = await openAttachment(fork(orm), root, files, 'ATT-1', added.id);
    expect(await text(opened.stream)).toBe('hello');
    const outsider = await userWithRole(orm, 'att_outsider');
    await expect(openAttachment(fork(orm), outsider, files, 'ATT-1', added.id)).rejects.toThrow(/not found/);
    const reader = await userWithRole(orm, 'att_reader', 'Observer', 'ATT');
    expect((await listAttachments(fork(orm), reader, 'ATT-1')).map((a) => a.name)).toEqual(['.._report.txt']);
    await expect(
      addAttachment(fork(orm), reader, files, {
        issue: 'ATT-1',
        name: 'x',
        source: bytes('x'),
        maxBytes: 100,
      }),
    ).rejects.toThrow(/no rights to attach files/);
    await expect(deleteAttachment(fork(orm), reader, 'ATT-1', added.id)).rejects.toThrow(/no rights/);
  });

  it('refuses files over the limit and keeps nothing of them', async () => {
    await expect(
      addAttachment(fork(orm), root, files, {
        issue: 'ATT-2',
        name: 'big',
        source: bytes('x'.repeat(101)),
        maxBytes: 100,
      }),
    ).rejects.toThrow(/at most 100 bytes/);
    expect(await listAttachments(fork(orm), root, 'ATT-2')).toEqual([]);
    // The refused upload left nothing behind (the sweep has nothing of it to remove).
    expect(await storedContents(files)).toHaveLength(1);
    expect(await sweepAttachmentFiles(fork(orm), files, -60_000)).toBe(0);
  });

  it('imports with the given author (unknown: a system-user reference), group and time', async () => {
    const added = await importAttachment(fork(orm), root, files, {
      issue: 'ATT-2',
      name: 'old.png',
      contentType: 'image/png',
      source: bytes('hello'),
      maxBytes: 100,
      authorLogin: 'gone_user',
      group: 'developers',
      created: 1_300_000_000_000,
    });
    expect([added.authorLogin, added.group, added.created]).toEqual([
      'gone_user',
      'developers',
      1_300_000_000_000,
    ]);
    const admin = await userWithRole(orm, 'att_admin', 'Admin', 'ATT');
    await expect(
      importAttachment(fork(orm), admin, files, {
        issue: 'ATT-2',
        name: 'x',
        source: bytes('x'),
        maxBytes: 100,
      }),
    ).rejects.toThrow(/IMPORT_DATA/);
  });

  it('rows go with their issue; the sweep removes files nothing uses any more', async () => {
    // 'hello' is used on ATT-1 and ATT-2: one file.
    expect(await storedContents(files)).toHaveLength(1);
    await deleteIssue(fork(orm), root, 'ATT-2');
    expect(await sweepAttachmentFiles(fork(orm), files, -60_000)).toBe(0);
    const [only] = await listAttachments(fork(orm), root, 'ATT-1');
    await deleteAttachment(fork(orm), root, 'ATT-1', only?.id as number);
    expect(await sweepAttachmentFiles(fork(orm), files, 60_000)).toBe(0);
    expect(await sweepAttachmentFiles(fork(orm), files, -60_000)).toBe(1);
    expect(await storedContents(files)).toEqual([]);
  });

  it('a file recorded with a group is seen by its author, the group and the project admins only, everywhere', async () => {
    await createIssue(fork(orm), root, { project: 'ATT', summary: 'restricted' });
    await createGroup(fork(orm), root, 'Insiders');
    await userWithRole(orm, 'att_groupie', 'Developer', 'ATT');
    await addUserToGroup(fork(orm), root, 'att_groupie', 'Insiders');
    const member = await actorFor(orm, 'att_groupie');
    const reader = await userWithRole(orm, 'att_outside_group', 'Developer', 'ATT');
    // Named in another case: kept as the group's own name.
    const secret = await importAttachment(fork(orm), root, files, {
      issue: 'ATT-3',
      authorLogin: 'att_former_author',
      name: 'secret.txt',
      source: bytes('secret'),
      maxBytes: 100,
      group: 'insiders',
    });
    expect(secret.group).toBe('Insiders');
    const query = 'project: ATT issue id: ATT-3 has: attachments';
    // The project's administrators see it as they see a restricted issue (READ_HIDDEN_STUFF).
    const projectAdmin = await userWithRole(orm, 'att_project_admin', 'Project Admin', 'ATT');
    for (const who of [root, member, projectAdmin]) {
      expect((await listAttachments(fork(orm), who, 'ATT-3')).map((a) => a.name)).toEqual(['secret.txt']);
      expect(await text((await openAttachment(fork(orm), who, files, 'ATT-3', secret.id)).stream)).toBe(
        'secret',
      );
      expect((await loadReadableIssueView(fork(orm), who, 'ATT-3'))?.attachments?.map((a) => a.name)).toEqual(
        ['secret.txt'],
      );
      expect(await countIssues(fork(orm), who, query)).toBe(1);
    }
    expect(await listAttachments(fork(orm), reader, 'ATT-3')).toEqual([]);
    await expect(openAttachment(fork(orm), reader, files, 'ATT-3', secret.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await loadReadableIssueView(fork(orm), reader, 'ATT-3'))?.attachments ?? []).toEqual([]);
    expect(await countIssues(fork(orm), reader, query)).toBe(0);
    await expect(deleteAttachment(fork(orm), reader, 'ATT-3', secret.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // Still there for those who see it.
    expect((await listAttachments(fork(orm), member, 'ATT-3')).map((a) => a.id)).toEqual([secret.id]);
  });
});
