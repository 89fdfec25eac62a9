import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The server's V8 flags (`apps/api/node-flags.json`, docs/operations.md "Memory") reach it by every
 * documented way of starting it: `./trackline start` reads the file, `pnpm start` writes them out,
 * the benchmarks read the file, and cluster workers inherit the primary's flags.
 */
const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const flags = JSON.parse(read('apps/api/node-flags.json')) as string[];

describe('the server node flags', () => {
  it('keep the young generation small and the old one close to its live size', () => {
    expect(flags).toContain('--max-semi-space-size=4');
    expect(flags).toContain('--heap-growing-percent=50');
  });

  it('are passed by ./trackline start (from the file) and by pnpm start (written out)', () => {
    expect(read('trackline')).toMatch(
      /exec node \$\(node -p "require\('\.\/apps\/api\/node-flags\.json'\)\.join\(' '\)"\) apps\/api\/dist\/main\.js/,
    );
    const start =
      (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start ?? '';
    expect(start).toContain(`node ${flags.join(' ')} apps/api/dist/main.js`);
  });

  it('are passed by the benchmarks that start the server', () => {
    expect(read('apps/api/bench/bench-support.mjs')).toContain('[...NODE_FLAGS, ...nodeArgs, MAIN]');
    expect(read('apps/api/bench/run.mjs')).toContain("[...NODE_FLAGS, join(root, 'apps/api/dist/main.js')]");
  });
});
