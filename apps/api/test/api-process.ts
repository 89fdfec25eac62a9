import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A real API process (`dist/main.js`), as in a scaled-out deployment. */
export type ApiProcess = { child: ChildProcess; url: string; output: () => string };

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** Starts `dist/main.js` on `databaseUrl` and a free port; resolves with the port it printed once listening. */
export function startApi(databaseUrl: string, env: Record<string, string> = {}): Promise<ApiProcess> {
  return startApiWith({ DATABASE_URL: databaseUrl, ...env });
}

/**
 * Starts `dist/main.js` with these settings (the database's among them) and a free port. Detached:
 * in a process group of its own with its search processes, so that `killApiGroup` kills them all
 * at once, as a crash of the machine's server would.
 */
export function startApiWith(
  env: Record<string, string>,
  options: { detached?: boolean } = {},
): Promise<ApiProcess> {
  const child = spawn(process.execPath, [MAIN], {
    // One server process each (on PostgreSQL the default would be one per core): the processes a
    // test starts are the point.
    env: {
      ...process.env,
      TRACKLINE_PROCESSES: '1',
      PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    },
    detached: options.detached ?? false,
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${port}`, output: () => output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

export function stopApi(api: ApiProcess): Promise<void> {
  if (api.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    api.child.once('exit', () => resolve());
    api.child.kill('SIGTERM');
  });
}

/** kill -9 of a detached server and every process of its group (its search processes, its indexer). */
export function killApiGroup(api: ApiProcess): Promise<void> {
  if (api.child.exitCode !== null || api.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    api.child.once('exit', () => resolve());
    process.kill(-(api.child.pid as number), 'SIGKILL');
  });
}
