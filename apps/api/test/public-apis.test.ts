import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { workspaceRoot, workspaceSources } from './workspace-sources.js';

/**
 * Libraries are used through their public API or replaced whole, never patched or read from
 * outside: a minor release of tRPC, zod, trpc-to-openapi or MikroORM must not be able to break
 * a transport silently. Every TypeScript source of the workspace (tests included) is checked.
 */
const FORBIDDEN: [RegExp, string][] = [
  [/from ['"][^'"]*unstable-core-do-not-import[^'"]*['"]/, "imports a library's private entry point"],
  [/from ['"]@trpc\/server\/dist\//, "imports a file inside @trpc/server's build"],
  [/from ['"]zod\/v4\/core['"]/, "imports zod's internal core (zod's classes are its public API)"],
  [/\._def\b/, "reads a library's private definition (`_def`)"],
  [/\._zod\b/, "reads zod's private internals (`_zod`)"],
  [/\.getExecutor\(\)/, "uses Kysely's internal executor (`connection().execute` is the public way)"],
];

describe('public APIs only', () => {
  const files = workspaceSources({ tests: true });

  it('finds the sources', () => expect(files.length).toBeGreaterThan(100));

  it('no source imports a private path of a library or reads its private fields', () => {
    const self = fileURLToPath(import.meta.url);
    const found = files
      .filter((file) => file !== self)
      .flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        return FORBIDDEN.filter(([pattern]) => pattern.test(text)).map(
          ([, why]) => `${relative(workspaceRoot, file)}: ${why}`,
        );
      });
    expect(found).toEqual([]);
  });
});
