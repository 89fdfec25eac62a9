import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTracklineClient,
  errorCodeOf,
  fieldIssuesOf,
  fieldValues,
  type TracklineClient,
} from '../src/index.js';
import { startLiveServer } from './live-server.js';

describe('typed client against a live server', () => {
  let server: Awaited<ReturnType<typeof startLiveServer>>;
  let root: TracklineClient;
  beforeAll(async () => {
    server = await startLiveServer();
    root = createTracklineClient({
      url: server.url,
      credentials: { login: 'root', password: 'root-password' },
    });
  });
  afterAll(() => server.close());

  it('reads the seeded link types', async () => {
    const types = await root.linkTypes.list.query({});
    expect(types.map((t) => t.name)).toEqual(['Depend', 'Duplicate', 'Relates', 'Subtask']);
    expect(types.find((t) => t.name === 'Subtask')).toMatchObject({
      outwardName: 'parent for',
      aggregation: true,
    });
  });

  it('creates a project and reads it back, batching two queries', async () => {
    const created = await root.projects.create.mutate({ project: 'CLI', projectName: 'Client project' });
    expect(created).toMatchObject({ id: 'CLI', lead: 'root', startingNumber: 1 });
    const [one, list] = await Promise.all([
      root.projects.get.query({ project: 'CLI' }),
      root.projects.list.query({}),
    ]);
    expect(one.name).toBe('Client project');
    expect(list.map((p) => p.id)).toContain('CLI');
  });

  it('surfaces domain error codes', async () => {
    await expect(root.roles.get.query({ role: 'Nope' })).rejects.toSatisfy(
      (e) => errorCodeOf(e) === 'NOT_FOUND',
    );
    await root.roles.create.mutate({ role: 'Twice' });
    await expect(root.roles.create.mutate({ role: 'twice' })).rejects.toSatisfy(
      (e) => errorCodeOf(e) === 'ALREADY_EXISTS',
    );
  });

  it('authenticates with a permanent token it created, and fails after revoking it', async () => {
    const { token } = await root.users.createToken.mutate({ name: 'ci' });
    const viaToken = createTracklineClient({ url: server.url, credentials: { token } });
    expect((await viaToken.roles.get.query({ role: 'Admin' })).name).toBe('Admin');
    await root.users.revokeToken.mutate({ name: 'ci' });
    await expect(viaToken.roles.get.query({ role: 'Admin' })).rejects.toSatisfy(
      (e) => errorCodeOf(e) === 'UNAUTHENTICATED',
    );
  });

  it('sends a password outside ASCII as UTF-8 (Basic, as the server decodes it)', async () => {
    await root.users.create.mutate({ login: 'utf8', fullName: 'Ünïcode', password: 'pässwörd-ßé-1' });
    const utf8 = createTracklineClient({
      url: server.url,
      credentials: { login: 'utf8', password: 'pässwörd-ßé-1' },
    });
    expect((await utf8.userProfiles.me.query({})).login).toBe('utf8');
  });

  it('reads typed issue views, and a command answers the changed issues', async () => {
    await root.projects.create.mutate({ project: 'TV', projectName: 'Typed views' });
    await root.issues.create.mutate({ project: 'TV', summary: 'typed' });
    const { issues } = await root.commands.execute.mutate({
      issues: ['TV-1'],
      command: 'Priority Critical',
      comment: 'now',
    });
    expect(issues.map((i) => [i.id, fieldValues(i, 'priority')[0]?.name, i.comments[0]?.text])).toEqual([
      ['TV-1', 'Critical', 'now'],
    ]);
    const page = await root.issues.list.query({ filter: 'project: TV' });
    expect(page.total).toBe(1);
    expect(page.issues[0]?.summary).toBe('typed');
    const assist = await root.commands.suggest.query({ issueIds: 'TV-1', command: 'Priority Cri' });
    expect(assist.suggest.items.map((i) => i.o)).toContain('Critical');
  });

  it('names the refused fields of a bad call', async () => {
    const error = await root.commands.execute
      .mutate({ issues: ['TV-1'], command: 'Priority Nonsense' })
      .catch((e: unknown) => e);
    expect(errorCodeOf(error)).toBe('VALIDATION_FAILED');
    expect(fieldIssuesOf(error).map((i) => i.field)).toEqual(['command']);
  });

  it('refuses anonymous callers', async () => {
    const anonymous = createTracklineClient({ url: server.url });
    await expect(anonymous.projects.list.query({})).rejects.toSatisfy(
      (e) => errorCodeOf(e) === 'UNAUTHENTICATED',
    );
  });
});
