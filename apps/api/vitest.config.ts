import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The test server (src/testing) reaches the API by its package name; here it is the sources.
  resolve: {
    alias: [
      { find: /^@trackline\/api$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Every file opens its own database and server and closes them, and the in-memory caches of
    // the API are kept per database: files can share a worker's module graph, so it is loaded
    // once per worker instead of once per file (it was a quarter of this package's run).
    isolate: false,
    // Vitest's default in `run` mode is one worker fewer than the cores: one on a 2-core machine.
    maxWorkers: availableParallelism(),
  },
});
