// Builds the benchmark database through the domain's own use cases (so every row is real):
// 100 projects (50 of them with 200 issues each: 10,000 issues), 500 users, tags, links.
import {
  createIssue,
  createOrm,
  createPermanentToken,
  createProject,
  createVcsIntegration,
  grantRole,
  insertUser,
  loadActor,
  migrate,
  seed,
  User,
} from '@trackline/domain';

/** `target`: a SQLite file name, or a database config (`{ kind: 'postgresql', url }`). */
export async function buildDatabase(
  target,
  { projects = 100, issueProjects = 50, issuesPerProject = 200, users = 500 } = {},
) {
  const orm = await createOrm(typeof target === 'string' ? { kind: 'sqlite', file: target } : target);
  await migrate(orm);
  await seed(orm, { adminPassword: 'bench-password' });
  const fork = () => orm.em.fork();
  const rootUser = await fork().findOneOrFail(User, { loginKey: 'root' });
  const root = await loadActor(fork(), rootUser);
  for (let u = 1; u <= users; u++) {
    await insertUser(fork(), {
      login: `user${u}`,
      fullName: `User Number ${u}`,
      email: `user${u}@example.com`,
    });
  }
  for (let p = 1; p <= projects; p++) {
    const shortName = `P${String(p).padStart(3, '0')}`;
    await createProject(fork(), root, { shortName, name: `Project ${p}` });
    // Ten developers per project, granted in the project (they become candidate assignees).
    for (let k = 0; k < 10; k++)
      await grantRole(fork(), root, `user${((p * 10 + k) % users) + 1}`, 'Developer', shortName);
  }
  for (let p = 1; p <= issueProjects; p++) {
    const shortName = `P${String(p).padStart(3, '0')}`;
    const em = fork();
    for (let i = 1; i <= issuesPerProject; i++) {
      await createIssue(em, root, {
        project: shortName,
        summary: `Issue ${i} of ${shortName}: crash on save #${i % 17}`,
      });
      if (i % 50 === 0) em.clear();
    }
  }
  const { token } = await createPermanentToken(fork(), root, 'bench');
  // Varied callers: ten tokens of root (reads that need global permissions), and one token each
  // for 49 developers, developer j working in project j (see the grant formula above), plus root.
  const rootTokens = [];
  for (let k = 1; k <= 10; k++)
    rootTokens.push((await createPermanentToken(fork(), root, `bench-${k}`)).token);
  const readers = [{ token, projects: Array.from({ length: issueProjects }, (_, i) => i + 1) }];
  for (let j = 1; j < Math.min(50, issueProjects + 1); j++) {
    const login = `user${10 * j + 1 + (j % 10)}`;
    const user = await fork().findOneOrFail(User, { loginKey: login });
    const actor = await loadActor(fork(), user);
    readers.push({ token: (await createPermanentToken(fork(), actor, 'bench')).token, projects: [j] });
  }
  const { apiKey } = await createVcsIntegration(fork(), root, {
    name: 'bench',
    host: 'github',
    repository: 'bench/repo',
    projects: ['P001'],
    committersRole: 'Developer',
    // Synthetic pushes name no pusher: measure applying commands, as before item 13.
    requirePusherMatch: false,
  });
  await orm.close(true);
  return { token, apiKey, rootTokens, readers };
}
