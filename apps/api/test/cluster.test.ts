import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeScratchDir } from '@trackline/domain/testing';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const PASSWORD = 'cluster-password';
const AUTH = { authorization: `Basic ${Buffer.from(`root:${PASSWORD}`).toString('base64')}` };

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolves once `test` holds for the output so far (checked on every chunk), or fails after `ms`. */
function waitFor(
  output: () => string,
  test: (text: string) => boolean,
  ms: number,
  onData: (f: () => void) => void,
) {
  return new Promise<void>((resolve, reject) => {
    if (test(output())) return resolve();
    const timer = setTimeout(() => reject(new Error(`timed out; output so far:\n${output()}`)), ms);
    onData(() => {
      if (test(output())) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

const listening = (text: string) =>
  [...text.matchAll(/listening on http:\/\/127\.0\.0\.1:(\d+) .*pid (\d+)\)/g)].map((m) => ({
    port: Number(m[1]),
    pid: Number(m[2]),
  }));

// SQLite-only (the entry point's process handling is the same on PostgreSQL, where
// multi-process.pg.test.ts runs two processes on one database).
describe.skipIf(process.env.TRACKLINE_TEST_DB === 'postgres')(
  'TRACKLINE_PROCESSES: several processes on one port',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'trackline-cluster-'));
    afterAll(() => removeScratchDir(dir));

    it('serves from every process, replaces one that dies, and stops all on SIGTERM', async () => {
      const primary = spawn(process.execPath, [MAIN], {
        env: {
          ...process.env,
          TRACKLINE_DB: join(dir, 'cluster.sqlite'),
          TRACKLINE_PROCESSES: '2',
          PORT: '0',
          HOST: '127.0.0.1',
          ADMIN_PASSWORD: PASSWORD,
          TRACKLINE_RATE_LIMIT: 'off',
          // Twenty parallel Basic checks of one credential: this is about processes, not the throttle.
          TRACKLINE_LOGIN_THROTTLE: 'off',
        },
      });
      let output = '';
      const listeners: (() => void)[] = [];
      const onData = (f: () => void) => listeners.push(f);
      const collect = (chunk: Buffer) => {
        output += chunk;
        for (const f of listeners) f();
      };
      primary.stdout.on('data', collect);
      primary.stderr.on('data', collect);
      const exited = new Promise<number | null>((resolve) => primary.on('exit', (code) => resolve(code)));
      try {
        await waitFor(
          () => output,
          (t) => listening(t).length >= 2,
          60_000,
          onData,
        );
        const [first, second] = listening(output);
        if (!first || !second) throw new Error('two processes should listen');
        expect(second.port).toBe(first.port);
        expect(second.pid).not.toBe(first.pid);
        expect(output.match(/generated password|applied migrations/g) ?? []).toHaveLength(1);
        const url = `http://127.0.0.1:${first.port}/rest/admin/role`;
        const statuses = await Promise.all(
          Array.from({ length: 20 }, () => fetch(url, { headers: AUTH }).then((r) => r.status)),
        );
        expect(new Set(statuses)).toEqual(new Set([200]));

        // A process that dies is replaced; the port keeps answering meanwhile.
        process.kill(first.pid, 'SIGKILL');
        await waitFor(
          () => output,
          (t) => listening(t).length >= 3,
          60_000,
          onData,
        );
        expect(output).toContain(`server process ${first.pid} exited (SIGKILL); starting another`);
        expect((await fetch(url, { headers: AUTH })).status).toBe(200);

        const workers = listening(output)
          .map((l) => l.pid)
          .filter((pid) => pid !== first.pid);
        primary.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(output).toContain('all server processes stopped');
        for (const pid of workers) expect(alive(pid)).toBe(false);
      } finally {
        if (primary.exitCode === null) primary.kill('SIGKILL');
      }
    }, 180_000);
  },
);
