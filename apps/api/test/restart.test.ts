import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeScratchDir } from '@trackline/domain/testing';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the real entry point and resolves once it listens; collects its output. */
async function start(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    child.stdout?.on('data', () => {
      // The last start-up line: the console and docs addresses and how to log in come first.
      if (output.includes('log in as root')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

// SQLite-only on purpose: this suite is about the SQLite file (its directory is created, data
// survives a restart), so the PostgreSQL pass (`TRACKLINE_TEST_DB=postgres`) skips it. The
// entry point on PostgreSQL is covered by `multi-process.pg.test.ts`.
describe.skipIf(process.env.TRACKLINE_TEST_DB === 'postgres')('the real entry point on a SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trackline-restart-'));
  afterAll(() => removeScratchDir(dir));
  const db = join(dir, 'nested', 'trackline.sqlite');

  it('generates and prints a root password once, and keeps data across a restart', async () => {
    const consoleDir = join(dir, 'console');
    mkdirSync(consoleDir);
    writeFileSync(join(consoleDir, 'index.html'), '<!DOCTYPE html><title>console</title>');
    const first = await start({ TRACKLINE_DB: db, TRACKLINE_CONSOLE_DIR: consoleDir });
    const password = /generated password: (\S+)/.exec(first.output())?.[1];
    expect(password).toBeDefined();
    // The start-up lines name the console, the docs page and how to log in as root.
    expect(first.output()).toContain(
      `trackline: console ${first.url}/ · API docs ${first.url}/rest/docs · health ${first.url}/health`,
    );
    expect(first.output()).toContain('trackline: log in as root with the generated password printed above');
    const page = await fetch(`${first.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>console</title>');
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    const auth = { authorization: `Basic ${Buffer.from(`root:${password}`).toString('base64')}` };
    const created = await fetch(`${first.url}/rest/admin/project/KEEP?projectName=Kept`, {
      method: 'PUT',
      headers: auth,
    });
    expect(created.status).toBe(201);
    await stop(first.child);

    const second = await start({ TRACKLINE_DB: db });
    expect(second.output()).not.toContain('generated password');
    expect(second.output()).not.toContain('applied migrations');
    expect(second.output()).toContain('log in as root with the password set when this database was created');
    // No console folder where the default points (no TRACKLINE_CONSOLE_DIR): the line says so only
    // when the checkout's console is not built, so either form is fine here.
    expect(second.output()).toMatch(
      /trackline: console http:\/\/127\.0\.0\.1:\d+\/( \(not built: run pnpm build\))? /,
    );
    const read = await fetch(`${second.url}/rest/admin/project/KEEP`, {
      headers: { ...auth, accept: 'application/json' },
    });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: 'KEEP', name: 'Kept' });
    await stop(second.child);
  }, 150_000);

  it('uses ADMIN_PASSWORD on a new database and refuses an invalid configuration', async () => {
    const server = await start({
      TRACKLINE_DB: join(dir, 'second.sqlite'),
      ADMIN_PASSWORD: 'chosen-password',
    });
    expect(server.output()).not.toContain('generated password');
    expect(server.output()).toContain('log in as root with the password from ADMIN_PASSWORD');
    const ok = await fetch(`${server.url}/rest/admin/role`, {
      headers: { authorization: `Basic ${Buffer.from('root:chosen-password').toString('base64')}` },
    });
    expect(ok.status).toBe(200);
    await stop(server.child);
    await expect(start({ TRACKLINE_DB: join(dir, 'third.sqlite'), PORT: 'not-a-port' })).rejects.toThrow(
      /PORT/,
    );
  }, 150_000);
});
