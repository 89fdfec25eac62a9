import { describe, expect, it } from 'vitest';
import { findInputProblem } from './input-check.js';

/** An import-shaped input: many issues, fields and values, none of them bad. */
const importInput = (bad?: { issue: number; field: number; value: string }) => ({
  project: 'IMP',
  issues: Array.from({ length: 20 }, (_, i) => ({
    fields: Array.from({ length: 5 }, (_, f) => ({
      name: `field${f}`,
      values: [bad && bad.issue === i && bad.field === f ? bad.value : `value ${i} ${f} é 😀`],
    })),
    comments: [{ author: 'root', text: 'a comment', created: '1' }],
  })),
});

describe('findInputProblem', () => {
  it('finds nothing in well-formed input of any size (the fast walk)', () => {
    expect(findInputProblem(importInput())).toBeNull();
    expect(findInputProblem({ a: [1, true, null, { b: 'x' }] })).toBeNull();
  });

  it('names the path of a lone surrogate or a NUL deep in an import', () => {
    const low = findInputProblem(importInput({ issue: 7, field: 3, value: 'bad \udc00 text' }));
    expect(low?.message).toMatch(/issues\.7\.fields\.3\.values\.0.*well-formed Unicode/);
    const lone = findInputProblem(importInput({ issue: 7, field: 3, value: 'bad \ud800' }));
    expect(lone?.message).toMatch(/issues\.7\.fields\.3\.values\.0.*well-formed Unicode/);
    const nul = findInputProblem(importInput({ issue: 2, field: 0, value: 'a\u0000b' }));
    expect(nul?.message).toMatch(/issues\.2\.fields\.0\.values\.0.*NUL/);
  });

  it('reports the first problem in input order, and bad parameter names', () => {
    expect(findInputProblem({ a: 'x\u0000', b: '\udfff' })?.message).toMatch(/a.*NUL/);
    expect(findInputProblem({ 'k\ud800': 'v' })?.message).toMatch(/parameter names.*well-formed/);
  });

  it('refuses nesting past the limit, and accepts it at the limit', () => {
    const nest = (levels: number): unknown => (levels === 1 ? {} : { x: nest(levels - 1) });
    expect(findInputProblem(nest(4), 4)).toBeNull();
    expect(findInputProblem(nest(5), 4)?.message).toMatch(/deeper than 4 levels/);
  });
});
