import { execFile, execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveServer } from './live-server.js';

/**
 * The package as a user installs it: packed by pnpm (as `pnpm publish` would), unpacked into a
 * folder of its own beside only its declared dependencies, then loaded by Node against a live
 * server and type-checked with the README's example. Nothing of the workspace (the server, the
 * domain, the contracts) is reachable from there.
 */
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(packageDir, 'node_modules', '.bin', 'tsc');

/** Paths of the files under `dir`, relative to `root`, with `/`. */
function filesUnder(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? filesUnder(path, root)
      : [relative(root, path).split(sep).join('/')];
  });
}

describe('the packed package, installed apart from the workspace', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trackline-client-pack-'));
  const installed = join(dir, 'node_modules', '@trackline', 'client');
  let server: Awaited<ReturnType<typeof startLiveServer>>;

  beforeAll(async () => {
    server = await startLiveServer();
    execFileSync('pnpm', ['pack', '--pack-destination', dir], { cwd: packageDir, stdio: 'pipe' });
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz')) as string;
    mkdirSync(join(dir, 'node_modules', '@trackline'), { recursive: true });
    execFileSync('tar', ['-xzf', join(dir, tarball), '-C', join(dir, 'node_modules', '@trackline')]);
    renameSync(join(dir, 'node_modules', '@trackline', 'package'), installed);
    // Its declared dependencies, and nothing else.
    mkdirSync(join(dir, 'node_modules', '@trpc'));
    for (const name of ['client', 'server']) {
      symlinkSync(
        realpathSync(join(packageDir, 'node_modules', '@trpc', name)),
        join(dir, 'node_modules', '@trpc', name),
      );
    }
    writeFileSync(join(dir, 'package.json'), '{"type":"module","private":true}\n');
  }, 60_000);
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('declares only the tRPC packages as dependencies, and ships only dist and the README', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@trpc/client', '@trpc/server']);
    expect(manifest.peerDependencies).toBeUndefined();
    expect(manifest.optionalDependencies).toBeUndefined();
    expect(JSON.stringify(manifest.dependencies)).not.toMatch(/workspace:|catalog:/);
    const files = filesUnder(installed);
    expect(
      files.every((file) => /^(README\.md|package\.json|dist\/.+\.(js|d\.ts))$/.test(file)),
      files.join(', '),
    ).toBe(true);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/generated/app-router.d.ts');
    // No Node-only API in what runs: the same file runs in browsers.
    for (const file of files.filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(join(installed, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/\bBuffer\b|\bprocess\.|from ['"]node:|require\(/);
    }
  });

  it('runs in Node against a live server with nothing of the workspace installed', async () => {
    const script = join(dir, 'run.mjs');
    writeFileSync(
      script,
      `import { createTracklineClient, errorCodeOf } from '@trackline/client';
const client = createTracklineClient({ url: process.argv[2], credentials: { login: 'root', password: 'root-password' } });
const types = await client.linkTypes.list.query({});
const missing = await client.issues.view.query({ issue: 'NOPE-1' }).catch(errorCodeOf);
console.log(JSON.stringify({ types: types.map((t) => t.name), missing }));
`,
    );
    // Asynchronously: the server answers from this process.
    const { stdout } = await promisify(execFile)(process.execPath, [script, server.url], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({
      types: ['Depend', 'Duplicate', 'Relates', 'Subtask'],
      missing: 'NOT_FOUND',
    });
  });

  it("type-checks the README's example against the packed declarations", () => {
    const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(example).toContain('createTracklineClient');
    // Lines of our own after it: were the declarations unresolved (any), these would not fail.
    const checks = `
// @ts-expect-error: no such procedure
trackline.issues.nope;
// @ts-expect-error: total is a number
export const notANumber: string = page.total;
export const kind: 'enum' | 'state' | 'user' | 'version' | 'build' | 'ownedField' | 'string' | 'text' | 'integer' | 'float' | 'date' | 'period' | undefined = page.issues[0]?.fields[0]?.kind;
`;
    writeFileSync(join(dir, 'example.ts'), `${example}${checks}`);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          types: [],
          skipLibCheck: true,
        },
        files: ['example.ts'],
      }),
    );
    let output = '';
    try {
      execFileSync(tsc, ['-p', join(dir, 'tsconfig.json')], { cwd: dir, encoding: 'utf8' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  });
});
