import { describe, expect, it } from 'vitest';
import { importIssuesInputAsIs, inputAsIsOf, ZImportIssuesInput } from './import.contract.js';

/** An input as the XML reader builds it. */
const valid = () => ({
  project: 'IMP',
  issues: [
    {
      fields: [
        { name: 'numberInProject', values: ['1'] },
        { name: 'Fix versions', values: ['1.0', '2.0'] },
        { name: 'empty', values: [] },
      ],
      comments: [
        { author: 'root', text: 'a comment', created: '1' },
        { author: 'root', text: 'b', created: '2', updated: '3', markdown: 'true' },
      ],
    },
    { fields: [] },
  ],
});

type Mutable = Record<string, unknown> & { issues: Record<string, unknown>[] };
/** Variants of the valid input, each changed in one place: some still valid, most not. */
const variants: [string, (input: Mutable) => unknown][] = [
  ['as is', (i) => i],
  ['assigneeGroup', (i) => ({ ...i, assigneeGroup: 'Assignees' })],
  ['long assigneeGroup', (i) => ({ ...i, assigneeGroup: 'g'.repeat(201) })],
  ['test as a word', (i) => ({ ...i, test: 'true' })],
  ['test as a boolean', (i) => ({ ...i, test: false })],
  ['an unknown key', (i) => ({ ...i, other: 1 })],
  ['an undefined key', (i) => ({ ...i, assigneeGroup: undefined })],
  ['no issues', ({ issues: _, ...rest }) => rest],
  ['project with spaces', (i) => ({ ...i, project: ' IMP ' })],
  ['project of 50', (i) => ({ ...i, project: `P${'x'.repeat(49)}` })],
  ['project of 51', (i) => ({ ...i, project: `P${'x'.repeat(50)}` })],
  ['project starting with a digit', (i) => ({ ...i, project: '1MP' })],
  ['101 issues', (i) => ({ ...i, issues: Array.from({ length: 101 }, () => ({ fields: [] })) })],
  ['100 issues', (i) => ({ ...i, issues: Array.from({ length: 100 }, () => ({ fields: [] })) })],
  ['issue not an object', (i) => ({ ...i, issues: ['x'] })],
  ['issue with an unknown key', (i) => ({ ...i, issues: [{ fields: [], x: 1 }] })],
  ['issue without fields', (i) => ({ ...i, issues: [{ comments: [] }] })],
  ['field name of 201', (i) => ({ ...i, issues: [{ fields: [{ name: 'n'.repeat(201), values: [] }] }] })],
  ['field name of 200', (i) => ({ ...i, issues: [{ fields: [{ name: 'n'.repeat(200), values: [] }] }] })],
  ['value not a string', (i) => ({ ...i, issues: [{ fields: [{ name: 'a', values: [1] }] }] })],
  ['1001 values', (i) => ({ ...i, issues: [{ fields: [{ name: 'a', values: Array(1001).fill('v') }] }] })],
  ['501 fields', (i) => ({ ...i, issues: [{ fields: Array(501).fill({ name: 'a', values: [] }) }] })],
  [
    'an undefined value',
    (i) => ({
      ...i,
      issues: [
        {
          fields: [
            { name: 'a', values: Array.from({ length: 2 }, (_, k) => (k ? 'x' : undefined)) as unknown[] },
          ],
        },
      ],
    }),
  ],
  [
    'comment without created',
    (i) => ({ ...i, issues: [{ fields: [], comments: [{ author: 'a', text: 't' }] }] }),
  ],
  [
    'created of 31',
    (i) => ({
      ...i,
      issues: [{ fields: [], comments: [{ author: 'a', text: 't', created: '1'.repeat(31) }] }],
    }),
  ],
  [
    'markdown of 11',
    (i) => ({
      ...i,
      issues: [
        { fields: [], comments: [{ author: 'a', text: 't', created: '1', markdown: 'm'.repeat(11) }] },
      ],
    }),
  ],
  ['comments not an array', (i) => ({ ...i, issues: [{ fields: [], comments: 'x' }] })],
  ['an array as the input', () => []],
  [
    'a class instance as an issue',
    (i) => ({
      ...i,
      issues: [
        new (class {
          fields = [];
        })(),
      ],
    }),
  ],
];

describe('importIssuesInputAsIs', () => {
  it('is the check of the import schema', () => {
    expect(inputAsIsOf(ZImportIssuesInput)).toBe(importIssuesInputAsIs);
  });

  it.each(variants)('%s: taken as it is only when the schema answers exactly that input', (_, change) => {
    const input = change(valid() as Mutable);
    const asIs = importIssuesInputAsIs(input);
    const parsed = ZImportIssuesInput.safeParse(input);
    if (asIs !== null) {
      expect(asIs).toBe(input);
      expect(parsed.success).toBe(true);
      expect(parsed.data).toEqual(input);
    }
  });

  it('takes the reader-shaped inputs as they are, and leaves the rest to the schema', () => {
    const taken = variants.filter(([, change]) => importIssuesInputAsIs(change(valid() as Mutable)) !== null);
    expect(taken.map(([name]) => name)).toEqual([
      'as is',
      'assigneeGroup',
      'project of 50',
      '100 issues',
      'field name of 200',
    ]);
  });
});
