import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Raw reads name their row type by a cast (`readRows<{ id: number }>(em, 'select …')`) that
 * nothing checks; typed reads (`orm/typed-query.ts` over `model/database.ts`) take it from the
 * schema the entities describe. New code writes typed reads. These files still hold raw ones
 * (the search compiler's dynamic SQL, tables outside the entities such as `issue_search`, and
 * reads not converted yet): the list may only shrink.
 */
const RAW_READS_LEFT = new Set([
  'issues/find-issues.ts',
  'issues/issue-view.ts',
  'issues/search/compile/lookups.ts',
  'issues/search/search-engine.ts',
  'issues/search/search-issues.ts',
  'issues/search/search-vocabulary.ts',
  'orm/epoch-cache.ts',
]);

const src = fileURLToPath(new URL('../', import.meta.url));
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('typed SQL', () => {
  it('no file outside the shrinking list casts the rows of a raw read', () => {
    const RAW = /\b(readRows|readRow|returningRows)</;
    const found = sources(src)
      .map((file) => relative(src, file))
      .filter((file) => !['orm/statements.ts', 'orm/typed-query.ts'].includes(file))
      .filter((file) => RAW.test(readFileSync(join(src, file), 'utf8')));
    expect(found.filter((file) => !RAW_READS_LEFT.has(file))).toEqual([]);
    // A converted file leaves the list, so the list cannot hide a new raw read there later.
    expect([...RAW_READS_LEFT].filter((file) => !found.includes(file))).toEqual([]);
  });
});
