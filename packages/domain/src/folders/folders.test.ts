import { actorFor, createTestOrm, fork, op, userWithRole } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { applyCommand } from '../issues/apply-command.js';
import { createIssue } from '../issues/create-issue.js';
import { getIssue } from '../issues/get-issue.js';
import { searchIssues } from '../issues/search/search-issues.js';
import type { Orm } from '../orm/open-orm.js';
import { createProject } from '../projects/projects.js';
import { getContextFolder, getFolder, listFolders, setContextFolder } from './folders.js';
import {
  createSavedSearch,
  deleteSavedSearch,
  getSavedSearch,
  listSavedSearches,
  saveSearch,
  updateSavedSearch,
} from './saved-searches.js';
import { createTag, deleteTag, listTags, renameTag, updateTag } from './tags.js';

describe('saved searches, tags and issue folders', () => {
  let orm: Orm;
  let root: Actor;
  let alice: Actor;
  let bob: Actor;
  let guest: Actor;

  beforeAll(async () => {
    orm = await createTestOrm();
    root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'SP', name: 'Sample Project' });
    await createProject(fork(orm), root, { shortName: 'HID', name: 'Hidden' });
    alice = await userWithRole(orm, 'alice', 'Developer', 'SP');
    bob = await userWithRole(orm, 'bob', 'Reporter', 'SP');
    guest = await actorFor(orm, 'guest');
    await createIssue(fork(orm), root, { project: 'SP', summary: 'first' });
    await createIssue(fork(orm), root, { project: 'SP', summary: 'second' });
  });
  afterAll(() => orm.close(true));

  describe('saved searches', () => {
    it('creates, lists, updates and deletes own searches', async () => {
      const created = await createSavedSearch(fork(orm), alice, {
        name: ' Open bugs ',
        query: '#Unresolved Type: Bug',
      });
      expect(created).toMatchObject({
        name: 'Open bugs',
        query: '#Unresolved Type: Bug',
        shared: false,
        owner: 'alice',
      });
      expect(created.folderId).toBe(`s-${created.id}`);
      await expect(
        createSavedSearch(fork(orm), alice, { name: 'OPEN BUGS', query: 'x' }),
      ).rejects.toMatchObject({
        code: 'ALREADY_EXISTS',
      });
      // Another user may use the same name.
      await createSavedSearch(fork(orm), bob, { name: 'Open bugs', query: 'for: me' });
      const updated = await updateSavedSearch(fork(orm), alice, 'open bugs', {
        query: 'State: Open',
        name: 'Open',
      });
      expect(updated).toMatchObject({ name: 'Open', query: 'State: Open' });
      expect((await listSavedSearches(fork(orm), alice)).map((s) => s.name)).toEqual(['Open']);
      await deleteSavedSearch(fork(orm), alice, created.id);
      expect(await listSavedSearches(fork(orm), alice)).toEqual([]);
    });

    it('validates names and query syntax', async () => {
      await expect(createSavedSearch(fork(orm), alice, { name: ' ', query: 'x' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(
        createSavedSearch(fork(orm), alice, { name: 'bad', query: '{unclosed' }),
      ).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(createSavedSearch(fork(orm), guest, { name: 'g', query: '' })).rejects.toMatchObject({
        code: 'PERMISSION_DENIED',
      });
    });

    it('keeps private searches private; shared ones are visible but only the owner or an admin changes them', async () => {
      const secret = await createSavedSearch(fork(orm), alice, { name: 'Secret', query: 'secret' });
      // Sharing needs SHARE_WATCH_FOLDER: a Developer has it, a Reporter does not.
      await expect(
        createSavedSearch(fork(orm), bob, { name: 'Mine', query: '', shared: true }),
      ).rejects.toMatchObject({
        code: 'PERMISSION_DENIED',
      });
      const shared = await createSavedSearch(fork(orm), alice, {
        name: 'Team',
        query: 'project: SP',
        shared: true,
      });
      await expect(getSavedSearch(fork(orm), bob, secret.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(getSavedSearch(fork(orm), bob, 'Secret')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await getSavedSearch(fork(orm), bob, 'team')).toMatchObject({ id: shared.id, owner: 'alice' });
      expect((await listSavedSearches(fork(orm), bob)).map((s) => `${s.owner}:${s.name}`)).toEqual([
        'bob:Open bugs',
        'alice:Team',
      ]);
      await expect(updateSavedSearch(fork(orm), bob, shared.id, { query: 'x' })).rejects.toMatchObject({
        code: 'PERMISSION_DENIED',
      });
      await expect(deleteSavedSearch(fork(orm), bob, shared.id)).rejects.toMatchObject({
        code: 'PERMISSION_DENIED',
      });
      // root holds UPDATE_WATCH_FOLDER globally: it may change even a private one.
      expect(await updateSavedSearch(fork(orm), root, secret.id, { query: 'changed' })).toMatchObject({
        query: 'changed',
        owner: 'alice',
      });
    });
  });

  describe('saveSearch (PUT /user/search/{name})', () => {
    it("creates the first time, then updates the own search of that name; never another user's", async () => {
      const first = await saveSearch(fork(orm), root, { name: 'Upserted', query: 'a', shared: true });
      expect(first).toMatchObject({ created: true, search: { name: 'Upserted', query: 'a', owner: 'root' } });
      const again = await saveSearch(fork(orm), root, { name: 'UPSERTED', query: 'b' });
      expect(again).toMatchObject({
        created: false,
        search: { id: first.search.id, name: 'Upserted', query: 'b' },
      });
      // alice sees root's shared one by that name, yet her PUT creates her own.
      const hers = await saveSearch(fork(orm), alice, { name: 'upserted', query: 'c' });
      expect(hers).toMatchObject({ created: true, search: { owner: 'alice', query: 'c' } });
      expect(await getSavedSearch(fork(orm), root, first.search.id)).toMatchObject({ query: 'b' });
      // Leave the fixture as the folder listing below expects it.
      await deleteSavedSearch(fork(orm), root, first.search.id);
      await deleteSavedSearch(fork(orm), alice, hers.search.id);
    });
  });

  describe('tags', () => {
    it('creates, renames, shares and deletes own tags; deleting untags issues', async () => {
      const tag = await createTag(fork(orm), alice, { name: 'later' });
      await expect(createTag(fork(orm), alice, { name: 'LATER' })).rejects.toMatchObject({
        code: 'ALREADY_EXISTS',
      });
      await applyCommand(fork(orm), alice, ['SP-1'], [op.tag('later')]);
      const renamed = await renameTag(fork(orm), alice, tag.id, 'Someday');
      expect(renamed).toMatchObject({ id: tag.id, name: 'Someday', shared: false });
      expect((await getIssue(fork(orm), alice, 'SP-1')).tags.map((t) => t.name)).toEqual(['Someday']);
      await createTag(fork(orm), alice, { name: 'taken' });
      await expect(renameTag(fork(orm), alice, 'someday', 'Taken')).rejects.toMatchObject({
        code: 'ALREADY_EXISTS',
      });
      await deleteTag(fork(orm), alice, 'Someday');
      expect((await getIssue(fork(orm), alice, 'SP-1')).tags).toEqual([]);
      expect((await listTags(fork(orm), alice)).map((t) => t.name)).toEqual(['taken']);
    });

    it("hides other users' private tags and protects shared ones", async () => {
      const priv = await createTag(fork(orm), alice, { name: 'alice-only' });
      const shared = await updateTag(
        fork(orm),
        alice,
        (await createTag(fork(orm), alice, { name: 'team' })).id,
        {
          shared: true,
        },
      );
      const bobs = (await listTags(fork(orm), bob)).map((t) => `${t.owner}:${t.name}`);
      expect(bobs).toEqual(['alice:team']);
      await expect(renameTag(fork(orm), bob, priv.id, 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(renameTag(fork(orm), bob, shared.id, 'x')).rejects.toMatchObject({
        code: 'PERMISSION_DENIED',
      });
      await expect(deleteTag(fork(orm), bob, 'team')).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
      // Bob may apply the shared tag; it shows for both, and searching by it works for both.
      await applyCommand(fork(orm), bob, ['SP-2'], [op.tag('team')]);
      expect((await getIssue(fork(orm), alice, 'SP-2')).tags).toEqual([
        { name: 'team', owner: 'alice', shared: true },
      ]);
      expect((await searchIssues(fork(orm), bob, 'tag: team')).map((i) => i.id)).toEqual(['SP-2']);
      await expect(searchIssues(fork(orm), bob, 'tag: alice-only')).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    });
  });

  describe('issue folders', () => {
    it('lists Everything, readable projects, visible saved searches and tags, in that order', async () => {
      const folders = await listFolders(fork(orm), bob);
      expect(folders[0]).toEqual({ id: 'everything', type: 'everything', name: 'Everything', query: '' });
      expect(folders.map((f) => `${f.type}:${f.name}`)).toEqual([
        'everything:Everything',
        'project:Sample Project',
        'savedSearch:Open bugs',
        'savedSearch:Team',
        'tag:team',
      ]);
      expect(folders[1]).toEqual({
        id: 'p-SP',
        type: 'project',
        name: 'Sample Project',
        shortName: 'SP',
        query: 'project: SP',
      });
      const tag = folders.find((f) => f.type === 'tag');
      expect(tag?.query).toBe('tag: {team}');
      expect(tag?.id).toMatch(/^t-\d+$/);
      expect(folders.find((f) => f.name === 'Team')?.id).toMatch(/^s-\d+$/);
      // Alice sees her private search and tags too; root sees every project.
      expect((await listFolders(fork(orm), alice)).map((f) => f.name)).toEqual(
        expect.arrayContaining(['Secret', 'alice-only', 'taken']),
      );
      expect(
        (await listFolders(fork(orm), root)).filter((f) => f.type === 'project').map((f) => f.shortName),
      ).toEqual(['HID', 'SP']);
    });

    it('every folder query runs as a search', async () => {
      for (const folder of await listFolders(fork(orm), alice)) {
        await expect(searchIssues(fork(orm), alice, folder.query)).resolves.toBeInstanceOf(Array);
      }
    });

    it('gets one folder by id (or name), hiding invisible ones', async () => {
      expect(await getFolder(fork(orm), bob, 'p-sp')).toMatchObject({ id: 'p-SP' });
      expect(await getFolder(fork(orm), bob, 'everything')).toMatchObject({ type: 'everything' });
      expect(await getFolder(fork(orm), bob, 'Sample Project')).toMatchObject({ id: 'p-SP' });
      const secret = (await listFolders(fork(orm), alice)).find((f) => f.name === 'Secret');
      const aliceOnly = (await listFolders(fork(orm), alice)).find((f) => f.name === 'alice-only');
      for (const id of [secret?.id, aliceOnly?.id, 'p-HID', 'x-1', 's-99999']) {
        await expect(getFolder(fork(orm), bob, id ?? '')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      }
    });

    it('stores the context folder per user and falls back to Everything', async () => {
      expect(await getContextFolder(fork(orm), bob)).toMatchObject({ id: 'everything' });
      expect(await setContextFolder(fork(orm), bob, 'sp')).toMatchObject({ id: 'p-SP' });
      expect(await getContextFolder(fork(orm), bob)).toMatchObject({ id: 'p-SP' });
      expect(await getContextFolder(fork(orm), alice)).toMatchObject({ id: 'everything' });
      await expect(setContextFolder(fork(orm), bob, 'p-HID')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await getContextFolder(fork(orm), bob)).toMatchObject({ id: 'p-SP' });
      expect(await setContextFolder(fork(orm), bob, '')).toMatchObject({ id: 'everything' });
      expect(await getContextFolder(fork(orm), bob)).toMatchObject({ id: 'everything' });
      // A folder that goes away leaves Everything.
      const search = await createSavedSearch(fork(orm), bob, { name: 'Temp', query: '' });
      await setContextFolder(fork(orm), bob, search.folderId);
      expect(await getContextFolder(fork(orm), bob)).toMatchObject({
        id: search.folderId,
        type: 'savedSearch',
      });
      await deleteSavedSearch(fork(orm), bob, search.id);
      expect(await getContextFolder(fork(orm), bob)).toMatchObject({ id: 'everything' });
      await expect(setContextFolder(fork(orm), guest, 'everything')).rejects.toMatchObject({
        code: 'PERMISSION_DENIED',
      });
    });
  });
});
