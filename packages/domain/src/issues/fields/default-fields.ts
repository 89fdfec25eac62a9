import type { FieldKind } from '../../model/field.entity.js';

export type DefaultField = {
  name: string;
  kind: FieldKind;
  multi: boolean;
  canBeEmpty: boolean;
  emptyText: string | null;
  defaultValue: string | null;
  values: { name: string; resolved?: boolean }[];
};

const values = (names: string[]) => names.map((name) => ({ name }));

/**
 * The fields every new project gets (the legacy YouTrack defaults), as migration 0007 seeds
 * them into `custom_fields` and their default bundles. Kept here for the phrases a command
 * may already mean (`link-phrases.ts`); new projects attach what `custom_fields` says.
 */
export const DEFAULT_FIELDS: readonly DefaultField[] = [
  {
    name: 'Priority',
    kind: 'enum',
    multi: false,
    canBeEmpty: false,
    emptyText: null,
    defaultValue: 'Normal',
    values: values(['Show-stopper', 'Critical', 'Major', 'Normal', 'Minor']),
  },
  {
    name: 'Type',
    kind: 'enum',
    multi: false,
    canBeEmpty: false,
    emptyText: null,
    defaultValue: 'Bug',
    values: values([
      'Bug',
      'Feature',
      'Task',
      'Cosmetics',
      'Exception',
      'Usability Problem',
      'Performance Problem',
    ]),
  },
  {
    name: 'State',
    kind: 'state',
    multi: false,
    canBeEmpty: false,
    emptyText: null,
    defaultValue: 'Submitted',
    values: [
      ...values(['Submitted', 'Open', 'In Progress', 'To be discussed', 'Reopened']),
      ...['Fixed', 'Verified', 'Duplicate', "Won't fix", 'Incomplete', 'Obsolete', "Can't Reproduce"].map(
        (name) => ({
          name,
          resolved: true,
        }),
      ),
    ],
  },
  {
    name: 'Assignee',
    kind: 'user',
    multi: false,
    canBeEmpty: true,
    emptyText: 'Unassigned',
    defaultValue: null,
    values: [],
  },
  {
    name: 'Subsystem',
    kind: 'ownedField',
    multi: false,
    canBeEmpty: true,
    emptyText: 'No subsystem',
    defaultValue: null,
    values: [],
  },
  {
    name: 'Fix versions',
    kind: 'version',
    multi: true,
    canBeEmpty: true,
    emptyText: 'Unscheduled',
    defaultValue: null,
    values: [],
  },
];
