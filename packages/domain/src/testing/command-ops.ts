import type { CommandOp } from '@trackline/domain';

const range = { start: 0, end: 0 };

/** CommandOp builders for tests (the parser produces these from text). */
export const op = {
  set: (field: string, value: string | null): CommandOp => ({
    kind: 'set',
    field,
    value,
    range,
    description: `${field} ${value ?? 'empty'}`,
  }),
  add: (field: string, value: string): CommandOp => ({
    kind: 'add',
    field,
    value,
    range,
    description: `add ${value}`,
  }),
  remove: (field: string, value: string): CommandOp => ({
    kind: 'remove',
    field,
    value,
    range,
    description: `remove ${value}`,
  }),
  tag: (tag: string): CommandOp => ({ kind: 'tag', tag, range, description: `tag ${tag}` }),
  untag: (tag: string): CommandOp => ({ kind: 'untag', tag, range, description: `untag ${tag}` }),
  star: (login = 'me'): CommandOp => ({ kind: 'star', login, range, description: `star ${login}` }),
  unstar: (login = 'me'): CommandOp => ({ kind: 'unstar', login, range, description: `unstar ${login}` }),
  vote: (): CommandOp => ({ kind: 'vote', range, description: 'vote' }),
  unvote: (): CommandOp => ({ kind: 'unvote', range, description: 'unvote' }),
  comment: (): CommandOp => ({ kind: 'comment', range, description: 'comment' }),
  delete: (): CommandOp => ({ kind: 'delete', range, description: 'delete' }),
  work: (minutes: number, workType: string | null = null, text = ''): CommandOp => ({
    kind: 'work',
    minutes,
    workType,
    date: null,
    text,
    range,
    description: `work ${minutes}`,
  }),
  visibleTo: (group: string): CommandOp => ({
    kind: 'visibleTo',
    group,
    range,
    description: `visible to ${group}`,
  }),
  removeVisibleTo: (group: string): CommandOp => ({
    kind: 'removeVisibleTo',
    group,
    range,
    description: `remove visible to ${group}`,
  }),
  link: (linkType: string, issueId: string, outward = true): CommandOp => ({
    kind: 'link',
    linkType,
    outward,
    issueId,
    range,
    description: `${linkType} ${issueId}`,
  }),
  unlink: (linkType: string, issueId: string, outward = true): CommandOp => ({
    kind: 'unlink',
    linkType,
    outward,
    issueId,
    range,
    description: `remove ${linkType} ${issueId}`,
  }),
};
