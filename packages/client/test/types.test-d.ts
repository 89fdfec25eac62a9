import { describe, expectTypeOf, it } from 'vitest';
import type { RouterInputs, RouterOutputs, TracklineClient } from '../src/index.js';

describe('inference from the router type', () => {
  it('infers outputs', () => {
    expectTypeOf<RouterOutputs['projects']['get']>().toEqualTypeOf<{
      id: string;
      name: string;
      lead: string;
      description: string;
      startingNumber: number;
      assigneesUrl: string;
      subsystemsUrl: string;
      buildsUrl: string;
      versionsUrl: string;
    }>();
    expectTypeOf<RouterOutputs['linkTypes']['count']>().toEqualTypeOf<{ value: number }>();
  });

  it('infers inputs, including query-string booleans', () => {
    expectTypeOf<RouterInputs['linkTypes']['create']['directed']>().toEqualTypeOf<
      boolean | 'true' | 'false' | 'True' | 'False' | 'TRUE' | 'FALSE' | '1' | '0' | undefined
    >();
  });

  it('rejects unknown procedures and wrong input types', () => {
    const client = {} as TracklineClient;
    // @ts-expect-error: no such procedure
    client.projects.nope;
    // @ts-expect-error: startingNumber is a number
    client.projects.create.mutate({ project: 'A', projectName: 'A', startingNumber: 'one' });
  });
});
