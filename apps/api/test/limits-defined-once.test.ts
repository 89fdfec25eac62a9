import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  MAX_COMMENT_LENGTH,
  MAX_QUERY_LENGTH,
  MAX_SUMMARY_LENGTH,
  MAX_TEXT_LENGTH,
} from '@trackline/contracts';
import { describe, expect, it } from 'vitest';
import { workspaceRoot, workspaceSources } from './workspace-sources.js';

/**
 * The wire's size limits live in `packages/contracts/src/common/limits.ts` and nowhere else: a
 * second copy drifts (a command once accepted comments of 100,000 characters where the REST route
 * stopped at 64,000). Sources other than tests may not write the limits' values out.
 */
const HOME = join(workspaceRoot, 'packages/contracts/src/common/limits.ts');

/** The text limits written out: `64_000` / `64000`, and `.max(2000` / `.max(1000)` of a query, command or summary. */
const WRITTEN_OUT = [/\b64_?000\b/, /\b100_000\b.*(comment|text|characters)/i, /max\(2000\b/, /name\(1000\)/];

describe('limits defined once', () => {
  it('the comment limit is the text limit, and the values the docs quote', () => {
    expect(MAX_COMMENT_LENGTH).toBe(MAX_TEXT_LENGTH);
    expect([MAX_TEXT_LENGTH, MAX_QUERY_LENGTH, MAX_SUMMARY_LENGTH]).toEqual([64_000, 2000, 1000]);
  });

  it('no source but limits.ts writes a text limit out', () => {
    const files = workspaceSources({ tests: false, skip: ['bench', 'e2e'] }).filter((f) => f !== HOME);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          WRITTEN_OUT.some((re) => re.test(line))
            ? [`${relative(workspaceRoot, file)}:${i + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
