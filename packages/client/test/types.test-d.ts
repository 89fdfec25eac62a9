import { describe, expectTypeOf, it } from 'vitest';
import type {
  CommandAssist,
  IssueFieldValue,
  IssueView,
  LegacyIssue,
  RouterInputs,
  RouterOutputs,
  Suggestion,
  TracklineClient,
} from '../src/index.js';

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

  it('types the issue view, the command answer and the assist parts without optional parts', () => {
    expectTypeOf<RouterOutputs['commands']['execute']>().toEqualTypeOf<{
      issues: IssueView[];
      deleted: string[];
    }>();
    expectTypeOf<IssueView['resolved']>().toEqualTypeOf<number | null>();
    expectTypeOf<IssueFieldValue['color']>().toEqualTypeOf<{ bg: string; fg: string } | null>();
    expectTypeOf<IssueView['fields'][number]['kind']>().toEqualTypeOf<
      | 'enum'
      | 'state'
      | 'user'
      | 'version'
      | 'build'
      | 'ownedField'
      | 'string'
      | 'text'
      | 'integer'
      | 'float'
      | 'date'
      | 'period'
    >();
    expectTypeOf<RouterOutputs['commands']['suggest']['suggest']['items']>().toEqualTypeOf<Suggestion[]>();
    expectTypeOf<RouterOutputs['commands']['underline']>().toEqualTypeOf<{
      underline: { ranges: { start: number; end: number; length: number; style: string }[] };
    }>();
    expectTypeOf<CommandAssist['commands']['command'][number]>().toEqualTypeOf<{
      desc: string;
      description: string;
      error: boolean;
    }>();
    expectTypeOf<LegacyIssue['field'][number]['name']>().toEqualTypeOf<string>();
  });

  it('rejects unknown procedures and wrong input types', () => {
    const client = {} as TracklineClient;
    // @ts-expect-error: no such procedure
    client.projects.nope;
    // @ts-expect-error: startingNumber is a number
    client.projects.create.mutate({ project: 'A', projectName: 'A', startingNumber: 'one' });
  });
});
