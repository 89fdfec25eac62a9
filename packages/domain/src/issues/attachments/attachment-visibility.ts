import { type Actor, projectsWith } from '../../auth/actor.js';
import { placeholders } from '../../orm/sql-fragments.js';

/**
 * Who sees an attachment recorded with a visibility group (the original's `group` of
 * `POST /rest/import/{issue}/attachment`): as for an issue restricted to a group
 * (docs/visibility.md), its author, the group's members and holders of READ_HIDDEN_STUFF in the
 * issue's project (Project Admin, Admin); every reader of the issue sees the attachments without
 * one. The group is stored by name (the group's own spelling when it exists at import) and
 * compared exactly with the names of the caller's groups: a name no group holds shows the file to
 * its author and those administrators only.
 */
export function visibleAttachmentsSql(actor: Actor, alias = 'a'): { sql: string; params: number[] } {
  const hidden = projectsWith(actor, 'READ_HIDDEN_STUFF');
  if (hidden === 'all') return { sql: '1 = 1', params: [] };
  const groups = [...(actor.groups ?? [])];
  const or = [`${alias}.group_name is null`, `${alias}.author_id = ?`];
  const params: number[] = [actor.userId];
  if (groups.length) {
    or.push(
      `${alias}.group_name in (select g.name from user_groups g where g.id in (${placeholders(groups)}))`,
    );
    params.push(...groups);
  }
  if (hidden.length) {
    or.push(
      `(select h.project_id from issues h where h.id = ${alias}.issue_id) in (${placeholders(hidden)})`,
    );
    params.push(...hidden);
  }
  return { sql: `(${or.join(' or ')})`, params };
}
