import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, and the folders no source check reads (builds, installs, results). */
export const workspaceRoot = fileURLToPath(new URL('../../../', import.meta.url));
const BUILT = ['node_modules', 'dist', 'dist-testing', '.turbo', 'bench-results', 'test-results'];

/**
 * Every TypeScript source under `apps/` and `packages/` (hidden folders and `BUILT` left out, and
 * any folder named in `skip`); tests only when `tests` is true.
 */
export function workspaceSources(options: { tests: boolean; skip?: readonly string[] }): string[] {
  const skip = new Set([...BUILT, ...(options.skip ?? [])]);
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      if (skip.has(name) || name.startsWith('.')) return [];
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      if (!/\.(ts|tsx|mts)$/.test(name)) return [];
      return options.tests || !/\.test\.tsx?$/.test(name) ? [path] : [];
    });
  return ['apps', 'packages'].flatMap((top) => walk(join(workspaceRoot, top)));
}
