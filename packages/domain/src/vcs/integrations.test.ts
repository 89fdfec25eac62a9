import type { CreateVcsIntegrationInput } from '@trackline/contracts';
import {
  createIntegration,
  createTestOrm,
  fork,
  githubPush,
  hookRequest,
  setUpVcsScenario,
  userWithRole,
} from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor.js';
import { sha256Hex } from '../auth/secrets.js';
import { VcsChange, VcsDelivery, VcsIntegration } from '../model/vcs.entity.js';
import type { Orm } from '../orm/open-orm.js';
import { deleteProject } from '../projects/projects.js';
import { purgeProject } from '../projects/trash.js';
import { listSystemUsers } from '../users/users.js';
import { listVcsDeliveries } from './deliveries.js';
import {
  createVcsIntegration,
  deleteVcsIntegration,
  findIntegrationByApiKey,
  getVcsIntegration,
  listVcsIntegrations,
  updateVcsIntegration,
} from './integrations.js';
import { receiveHook } from './receive-hook.js';
import { createVcsWorker } from './worker.js';

let orm: Orm;
let root: Actor;
let developer: Actor;

beforeAll(async () => {
  orm = await createTestOrm();
  root = await setUpVcsScenario(orm);
  developer = await userWithRole(orm, 'dev', 'Developer');
});
afterAll(() => orm.close(true));

const input: CreateVcsIntegrationInput = {
  name: 'admin-test',
  host: 'gitlab',
  repository: 'group/app',
  projects: ['tl', 'OT'],
  committersRole: 'committers',
};

describe('VCS integration administration', () => {
  it('creates an integration: the apiKey is returned once and only its hash is stored', async () => {
    const { view, apiKey } = await createVcsIntegration(fork(orm), root, {
      ...input,
      branches: 'main',
      secret: 's3cret',
    });
    expect(apiKey).toMatch(/^vcs_[A-Za-z0-9_-]{32}$/);
    expect(view).toMatchObject({
      projects: [{ shortName: 'OT' }, { shortName: 'TL' }],
      committersRole: 'Committers',
      serviceUser: 'vcs@admin-test',
    });
    const row = await fork(orm).findOneOrFail(VcsIntegration, { nameKey: 'admin-test' });
    expect(row.apiKeyHash).toBe(sha256Hex(apiKey));
    expect(JSON.stringify(row)).not.toContain(apiKey);
    expect((await findIntegrationByApiKey(fork(orm), 'gitlab', apiKey)).id).toBe(row.id);
    expect((await listSystemUsers(fork(orm), root)).map((u) => `${u.login}:${u.type}`)).toContain(
      'vcs@admin-test:service',
    );
  });

  it.each([
    ['a duplicate name', { ...input, name: 'ADMIN-TEST' }, 'VCS integration [ ADMIN-TEST ] already exists.'],
    ['an unknown project', { ...input, name: 'x1', projects: ['TL', 'NOPE'] }, 'Project [ NOPE ] not found.'],
    ['an unknown role', { ...input, name: 'x2', committersRole: 'Nobody' }, 'Role [ Nobody ] not found.'],
    ['no project', { ...input, name: 'x3', projects: [] }, 'projects: must name at least one project'],
  ])('refuses %s', async (_name, bad, message) => {
    await expect(createVcsIntegration(fork(orm), root, bad)).rejects.toThrow(message);
  });

  it('needs ADMIN_VCS_INTEGRATION for everything', async () => {
    const refused = 'You have no rights to administer vcs integrations (ADMIN_VCS_INTEGRATION).';
    await expect(createVcsIntegration(fork(orm), developer, { ...input, name: 'x4' })).rejects.toThrow(
      refused,
    );
    await expect(listVcsIntegrations(fork(orm), developer)).rejects.toThrow(refused);
    await expect(getVcsIntegration(fork(orm), developer, 'admin-test')).rejects.toThrow(refused);
    await expect(
      updateVcsIntegration(fork(orm), developer, { name: 'admin-test', branches: '' }),
    ).rejects.toThrow(refused);
    await expect(deleteVcsIntegration(fork(orm), developer, 'admin-test')).rejects.toThrow(refused);
    await expect(listVcsDeliveries(fork(orm), developer, 'admin-test')).rejects.toThrow(refused);
  });

  it('updates settings; a regenerated apiKey replaces the old one', async () => {
    const before = await getVcsIntegration(fork(orm), root, 'admin-test');
    const { view, apiKey } = await updateVcsIntegration(fork(orm), root, {
      name: 'admin-test',
      projects: ['TL'],
      branches: 'main release/*',
      secret: '',
      regenerateApiKey: true,
    });
    expect(view).toMatchObject({
      projects: [{ shortName: 'TL' }],
      integration: { branches: 'main release/*', secret: null },
    });
    if (!apiKey) throw new Error('no new key');
    expect(view.integration.apiKeyHash).not.toBe(before.integration.apiKeyHash);
    await expect(findIntegrationByApiKey(fork(orm), 'gitlab', apiKey)).resolves.toMatchObject({
      name: 'admin-test',
    });
  });

  it('deleting keeps recorded changes and comments; a project deletion removes its links and changes', async () => {
    const { integration, apiKey } = await createIntegration(orm, root, { name: 'doomed' });
    const receipt = await receiveHook(
      fork(orm),
      integration,
      hookRequest('github', githubPush([['9'.repeat(40), '#TL-1', 'alice@example.com']])),
    );
    await createVcsWorker(orm).runUntilIdle();
    expect(receipt.status).toBe(202);
    expect(await deleteVcsIntegration(fork(orm), root, 'doomed')).toBe(
      'VCS integration [ doomed ] was successfully deleted.',
    );
    await expect(findIntegrationByApiKey(fork(orm), 'github', apiKey)).rejects.toThrow('Unknown apiKey.');
    expect(await fork(orm).count(VcsDelivery, { integration: integration.id })).toBe(0);
    expect(await fork(orm).findOneOrFail(VcsChange, { commitSha: '9'.repeat(40) })).toMatchObject({
      integration: null,
    });

    // A deleted project is in the trash: the integration marks it, its changes stay until the purge.
    await deleteProject(fork(orm), root, 'TL');
    expect((await getVcsIntegration(fork(orm), root, 'admin-test')).projects).toEqual([
      expect.objectContaining({ shortName: 'TL', deleted: true }),
    ]);
    expect(await fork(orm).count(VcsChange, {})).toBeGreaterThan(0);
    await purgeProject(fork(orm), root, 'TL');
    expect(await fork(orm).count(VcsChange, {})).toBe(0);
    expect((await getVcsIntegration(fork(orm), root, 'admin-test')).projects).toEqual([]);
  });
});
