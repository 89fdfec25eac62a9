import type { CommandVocabulary, VocabularyField } from '@trackline/domain';

const values = (...names: string[]) => names.map((name) => ({ name }));
const resolved = (...names: string[]) => names.map((name) => ({ name, resolved: true }));

export const TEST_FIELDS: VocabularyField[] = [
  {
    name: 'State',
    kind: 'state',
    multi: false,
    canBeEmpty: false,
    values: [
      ...values('Submitted', 'Open', 'In Progress', 'To be discussed'),
      ...resolved('Fixed', 'Verified', 'Duplicate', "Won't fix"),
    ],
  },
  {
    name: 'Priority',
    kind: 'enum',
    multi: false,
    canBeEmpty: false,
    values: values('Show-stopper', 'Critical', 'Major', 'Normal', 'Minor'),
  },
  {
    name: 'Type',
    kind: 'enum',
    multi: false,
    canBeEmpty: false,
    values: values('Bug', 'Feature', 'Task', 'Cosmetics'),
  },
  { name: 'Assignee', kind: 'user', multi: false, canBeEmpty: true, emptyText: 'Unassigned', values: [] },
  {
    name: 'Fix versions',
    kind: 'version',
    multi: true,
    canBeEmpty: true,
    values: values('1.0', '1.1', '2.0', '5.1'),
  },
  {
    name: 'Subsystem',
    kind: 'enum',
    multi: false,
    canBeEmpty: true,
    emptyText: 'No subsystem',
    values: values('Backend', 'UI', 'Documentation'),
  },
];

/**
 * A realistic vocabulary for tests: YouTrack's default fields, three users, three tags and the
 * four seed link types. Returns a new object each call, so tests can change it freely.
 */
export function testVocabulary(overrides: Partial<CommandVocabulary> = {}): CommandVocabulary {
  return {
    me: 'root',
    fields: TEST_FIELDS,
    users: [
      { login: 'root', fullName: 'Root Admin' },
      { login: 'john.doe', fullName: 'John Doe' },
      { login: 'jane', fullName: 'Jane Smith' },
    ],
    tags: [{ name: 'Todo' }, { name: 'regression' }, { name: 'fix it this week' }],
    linkTypes: [
      { name: 'Relates', outwardName: 'relates to', inwardName: 'relates to', directed: false },
      { name: 'Depend', outwardName: 'depends on', inwardName: 'is required for', directed: true },
      { name: 'Duplicate', outwardName: 'duplicates', inwardName: 'is duplicated by', directed: true },
      { name: 'Subtask', outwardName: 'parent for', inwardName: 'subtask of', directed: true },
    ],
    workTypes: [{ name: 'Development' }, { name: 'Testing' }, { name: 'Code Review' }],
    timeTracking: true,
    groups: [{ name: 'All Users' }, { name: 'secret-team' }, { name: 'QA Engineers' }],
    issueIds: ['PRJ-1', 'PRJ-2', 'PRJ-3', 'ABC-12'],
    can: {
      update: true,
      link: true,
      comment: true,
      tag: true,
      vote: true,
      star: true,
      delete: true,
      visibility: true,
      work: true,
    },
    ...overrides,
  };
}

/** The test vocabulary with some permissions taken away. */
export function vocabularyWithout(...missing: (keyof CommandVocabulary['can'])[]): CommandVocabulary {
  const vocab = testVocabulary();
  return { ...vocab, can: { ...vocab.can, ...Object.fromEntries(missing.map((key) => [key, false])) } };
}
