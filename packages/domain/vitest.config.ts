import { globSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const root = source('./');

/** A test file that opens a database names one of these (the test kit's or the ORM's entry points). */
const OPENS_A_DATABASE =
  /\b(?:createTestOrm(?:OnDisk)?|createTestDatabase|createMigratedTestDatabase|createScratch\w*|createOrm)\(/;

/**
 * The PostgreSQL pass (`TRACKLINE_TEST_DB=postgres`) runs only the files that open a database:
 * the others (parser, scanner, pure rules) would repeat the SQLite pass's work exactly.
 */
const include =
  process.env.TRACKLINE_TEST_DB === 'postgres'
    ? globSync('src/**/*.test.ts', { cwd: root }).filter((file) =>
        OPENS_A_DATABASE.test(readFileSync(source(`./${file}`), 'utf8')),
      )
    : ['src/**/*.test.ts'];

export default defineConfig({
  // The test kit reaches the domain by its package name; here both resolve to the sources.
  resolve: {
    alias: [
      { find: /^@trackline\/domain\/testing$/, replacement: source('./src/testing/index.ts') },
      { find: /^@trackline\/domain$/, replacement: source('./src/index.ts') },
    ],
  },
  test: {
    include,
    testTimeout: 20_000,
    // A scratch PostgreSQL database per file is created in a hook: on a loaded machine it passed 10 s.
    hookTimeout: 30_000,
    // The files share a worker's module graph (loaded once per worker, not once per file: it was
    // half of this package's run); each opens and closes its own databases.
    isolate: false,
    // Vitest's default in `run` mode is one worker fewer than the cores: one on a 2-core machine.
    maxWorkers: availableParallelism(),
  },
});
