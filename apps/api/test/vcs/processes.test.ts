import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createOrm,
  createVcsIntegration,
  loadActor,
  migrate,
  type Orm,
  seed,
  User,
  VcsChange,
  VcsDelivery,
  VcsEffect,
} from '@trackline/domain';
import { removeScratchDir } from '@trackline/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fork, issueState, resultLines, setUpScenario, sign, waitForDelivery } from './vcs-harness.js';

/**
 * The real entry point (`dist/main.js`) in child processes on one SQLite file: killed between
 * storing and applying, killed in the middle of a delivery, and two processes receiving the
 * same pushes. The database is prepared here, in the test process, before any child starts.
 */
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const SECRET = 'process-secret';
/** What a drill's deliberate crash writes before it kills its process (`webhooks/fault-injection.ts`). */
const FAULT_LINE = 'trackline: VCS fault injection: killing the process mid-delivery';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `exited`: the exit code, or the signal that ended the process (so a failure says which). */
type Child = {
  process: ChildProcess;
  url: string;
  exited: Promise<number | string | null>;
  output(): string;
};

async function start(db: string, env: Record<string, string> = {}): Promise<Child> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      TRACKLINE_DB: db,
      TRACKLINE_RATE_LIMIT: 'off',
      VCS_POLL_MS: '50',
      ...env,
    },
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    const check = () => {
      if (!output.includes('listening on')) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      // A fault-injected child may finish its drill before it prints "listening".
      if (output.includes('listening on') || output.includes(FAULT_LINE)) resolve();
      else reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return { process: child, url: `http://127.0.0.1:${port}`, exited, output: () => output };
}

async function kill(child: Child) {
  child.process.kill('SIGKILL');
  await child.exited;
}

/** A migrated, seeded database file with the scenario and one GitHub integration; its apiKey. */
async function prepare(db: string): Promise<string> {
  const orm = await createOrm({ kind: 'sqlite', file: db });
  await migrate(orm);
  await seed(orm, { adminPassword: 'root-password' });
  await setUpScenario(orm);
  const em = fork(orm);
  const root = await loadActor(em, await em.findOneOrFail(User, { loginKey: 'root' }));
  const { apiKey } = await createVcsIntegration(fork(orm), root, {
    name: 'webapp',
    host: 'github',
    repository: 'trackline/webapp',
    projects: ['TL'],
    committersRole: 'Committers',
    secret: SECRET,
    // The fixtures push other people's commits; the pusher rule has its own suite (item 13).
    requirePusherMatch: false,
  });
  await orm.close(true);
  return apiKey;
}

const pushBody = (commits: [string, string][], ref = 'refs/heads/main') =>
  JSON.stringify({
    ref,
    repository: { full_name: 'trackline/webapp' },
    commits: commits.map(([id, message]) => ({
      id,
      message,
      timestamp: '2024-03-15T08:00:00Z',
      url: `https://github.com/trackline/webapp/commit/${id}`,
      author: { name: 'Alice', email: 'alice@example.com' },
    })),
  });

const send = (child: Child, apiKey: string, body: string, delivery: string) =>
  call(child.url, 'POST', `/rest/vcsHooksReceiver/github?apiKey=${apiKey}`, {
    auth: null,
    body,
    headers: {
      'content-type': 'application/json',
      'X-GitHub-Event': 'push',
      'X-GitHub-Delivery': delivery,
      'X-Hub-Signature-256': sign('sha256', body, SECRET),
    },
  });

/** Reads the file with an ORM of our own (WAL lets us read beside a running child). */
async function inspect<T>(db: string, read: (orm: Orm) => Promise<T>): Promise<T> {
  const orm = await createOrm({ kind: 'sqlite', file: db });
  try {
    return await read(orm);
  } finally {
    await orm.close(true);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'trackline-vcs-processes-'));
afterAll(() => removeScratchDir(dir));

describe('a killed process loses nothing and applies nothing twice', () => {
  const db = join(dir, 'crash.sqlite');
  let apiKey = '';
  const commits: [string, string][] = [1, 2, 3].map((n) => [
    `${n}`.repeat(40),
    `Step ${n}\n\n#TL-1 tag step${n}\n#TL-2 vote`,
  ]);
  const shas = { $in: commits.map(([sha]) => sha) };
  beforeAll(async () => {
    apiKey = await prepare(db);
  });

  it('stored with the worker off, the process killed, then a drill exits mid-delivery, then a normal start finishes', async () => {
    // 1. Store only, then SIGKILL: the delivery must survive, untouched.
    const storing = await start(db, { VCS_WORKER: 'off' });
    const res = await send(storing, apiKey, pushBody(commits), 'crash-1');
    expect(res.status, res.text).toBe(202);
    const delivery = res.json().delivery as number;
    await kill(storing);
    expect(
      await inspect(db, async (orm) => [
        (await fork(orm).findOneOrFail(VcsDelivery, { id: delivery })).status,
        await fork(orm).count(VcsChange, {}),
      ]),
    ).toEqual(['pending', 0]);

    // 2. A process that kills itself (SIGKILL, no cleanup) after committing two of the six units.
    const dying = await start(db, { VCS_FAULT_EXIT_AFTER_UNITS: '2', VCS_LEASE_MS: '1000' });
    expect(await dying.exited, dying.output()).toBe('SIGKILL');
    expect(dying.output()).toContain(FAULT_LINE);
    expect(
      await inspect(db, async (orm) => ({
        status: (await fork(orm).findOneOrFail(VcsDelivery, { id: delivery })).status,
        changes: await fork(orm).count(VcsChange, { commitSha: shas }),
        effects: await fork(orm).count(VcsEffect, { commitSha: shas }),
      })),
    ).toEqual({ status: 'processing', changes: 2, effects: 2 });

    // 3. A normal start takes the delivery over once the dead process's lease has run out.
    const normal = await start(db);
    const report = await waitForDelivery(normal.url, 'webapp', delivery, 15_000);
    expect(report).toMatchObject({ status: 'done', attempts: 2 });
    expect(resultLines(report)).toEqual(
      [1, 2, 3].flatMap((n) => [
        'TL-1 comment: applied as alice',
        `TL-1 tag step${n}: applied as alice`,
        'TL-2 comment: applied as alice',
        'TL-2 vote: applied as alice',
      ]),
    );
    await kill(normal);
    await inspect(db, async (orm) => {
      expect(await fork(orm).count(VcsChange, { commitSha: shas })).toBe(6);
      expect(await fork(orm).count(VcsEffect, { commitSha: shas })).toBe(6);
      const tl1 = await issueState(orm, 'TL-1');
      expect(tl1.tags).toEqual(['alice:step1', 'alice:step2', 'alice:step3']);
      expect(tl1.comments).toHaveLength(3);
      expect((await issueState(orm, 'TL-2')).comments).toHaveLength(3);
    });
  });
});

describe('two processes on one database file', () => {
  const db = join(dir, 'two.sqlite');
  let apiKey = '';
  let children: Child[] = [];
  beforeAll(async () => {
    apiKey = await prepare(db);
    children = [await start(db), await start(db)];
  });
  afterAll(async () => {
    for (const child of children) await kill(child);
  });

  it('receive the same delivery at once: stored once; overlapping pushes: applied once', async () => {
    const [a, b] = children as [Child, Child];
    const commits: [string, string][] = Array.from({ length: 10 }, (_, i) => [
      `e${String(i).padStart(2, '0')}`.padEnd(40, '0'),
      `#TL-3 tag twin${i}\n#TL-1`,
    ]);
    const same = pushBody(commits);
    const [first, second] = await Promise.all([send(a, apiKey, same, 'twin'), send(b, apiKey, same, 'twin')]);
    expect([first.status, second.status].sort()).toEqual([200, 202]);
    expect(first.json().delivery).toBe(second.json().delivery);
    // The same commits again, as other deliveries (another branch), to each process at once.
    const other = await Promise.all([
      send(a, apiKey, pushBody(commits, 'refs/heads/dev'), 'twin-dev'),
      send(b, apiKey, pushBody([...commits].reverse(), 'refs/heads/qa'), 'twin-qa'),
    ]);
    const ids = [first.json().delivery, ...other.map((r) => r.json().delivery)] as number[];
    for (const id of ids) expect((await waitForDelivery(a.url, 'webapp', id, 20_000)).status).toBe('done');
    const shas = { $in: commits.map(([sha]) => sha) };
    await inspect(db, async (orm) => {
      expect(await fork(orm).count(VcsDelivery, {})).toBe(3);
      expect(await fork(orm).count(VcsChange, { commitSha: shas })).toBe(20);
      expect(await fork(orm).count(VcsEffect, { commitSha: shas })).toBe(10);
      const tl3 = await issueState(orm, 'TL-3');
      expect(tl3.tags).toHaveLength(10);
      expect(tl3.comments).toHaveLength(10);
      expect((await issueState(orm, 'TL-1')).comments).toHaveLength(10);
    });
  });
});
