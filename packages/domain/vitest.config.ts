import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The test kit reaches the domain by its package name; here both resolve to the sources.
  resolve: {
    alias: [
      { find: /^@trackline\/domain\/testing$/, replacement: source('./src/testing/index.ts') },
      { find: /^@trackline\/domain$/, replacement: source('./src/index.ts') },
    ],
  },
  test: { include: ['src/**/*.test.ts'], testTimeout: 20_000 },
});
