import type { Em } from '../../orm/em.js';
import type { IProject } from '../../projects/project.entity.js';
import type { IUser } from '../../users/user.entity.js';
import { type FieldKind, FieldValue, ProjectAssignee, ProjectField } from './field.entity.js';

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

/** The fields every new project gets (the legacy YouTrack defaults). */
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
    kind: 'enum',
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

/**
 * Adds the default fields, their values and the lead as the first assignee to a new
 * project. Only `em.create`: the caller's flush writes them with the project, atomically.
 */
export function createDefaultFields(em: Em, project: IProject, lead: IUser): void {
  DEFAULT_FIELDS.forEach((def, ordinal) => {
    const field = em.create(ProjectField, {
      project,
      name: def.name,
      nameKey: def.name.toLowerCase(),
      kind: def.kind,
      multi: def.multi,
      canBeEmpty: def.canBeEmpty,
      emptyText: def.emptyText,
      defaultValue: def.defaultValue,
      ordinal,
    });
    def.values.forEach((value, index) => {
      em.create(FieldValue, {
        field,
        name: value.name,
        nameKey: value.name.toLowerCase(),
        description: '',
        ordinal: index,
        resolved: value.resolved ?? false,
      });
    });
  });
  em.create(ProjectAssignee, { project, user: lead });
}
