import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProjectAssignees } from '../issues/fields/assignees.js';
import { listProjectFields } from '../issues/fields/project-fields.js';
import { getIssue } from '../issues/get-issue.js';
import { createTestDatabase } from '../testing/test-database.js';
import { actorFor } from '../testing/test-orm.js';
import type { Em } from './em.js';
import { migrate } from './migrate.js';
import type { Orm } from './open-orm.js';

/**
 * Migration 0006 (once named 0007) turns per-project fields into prototypes, bundles and attached fields: a
 * database written by the migrations before it keeps every issue's values, the project's values and assignees.
 */
describe('migration 0006 (custom fields as data)', () => {
  let orm: Orm;
  const fork = () => orm.em.fork() as Em;
  const run = (sql: string, params: unknown[] = []) =>
    fork().getConnection().execute<Record<string, unknown>[]>(sql, params);
  const at = '2026-01-01T00:00:00.000Z';

  beforeAll(async () => {
    orm = await createTestDatabase();
    await migrate(orm, { before: '0006' });
    // Root as the schema before 0006 holds it (today's seed writes tables that later migrations add).
    await run(
      "insert into users (login, login_key, full_name, type, created_at) values ('root', 'root', 'root', 'root', ?)",
      [at],
    );
    const [root] = await run("select id from users where login = 'root'");
    const rootId = Number(root?.id);
    await run(
      'insert into projects (short_name, short_name_key, name, name_key, description, lead_id, starting_number, next_number, created_at) ' +
        "values ('OLD', 'OLD', 'Old', 'old', '', ?, 1, 2, ?)",
      [rootId, at],
    );
    const [project] = await run("select id from projects where short_name = 'OLD'");
    const projectId = Number(project?.id);
    const fields: [string, string, boolean, string | null, string[]][] = [
      ['Priority', 'enum', false, null, ['Critical', 'Normal']],
      ['State', 'state', false, null, ['Open', 'Fixed']],
      ['Assignee', 'user', false, 'Unassigned', []],
      ['Subsystem', 'enum', false, 'No subsystem', ['UI']],
      ['Fix versions', 'version', true, 'Unscheduled', ['1.0', '2.0']],
    ];
    for (const [ordinal, [name, kind, multi, empty, values]] of fields.entries()) {
      await run(
        'insert into project_fields (project_id, name, name_key, kind, multi, can_be_empty, empty_text, default_value, ordinal) ' +
          'values (?, ?, ?, ?, ?, ?, ?, null, ?)',
        [projectId, name, name.toLowerCase(), kind, multi, empty !== null, empty, ordinal],
      );
      for (const [i, value] of values.entries()) {
        await run(
          'insert into field_values (field_id, name, name_key, description, ordinal, resolved) ' +
            'select id, ?, ?, ?, ?, ? from project_fields where project_id = ? and name = ?',
          [value, value.toLowerCase(), '', i, value === 'Fixed', projectId, name],
        );
      }
    }
    await run('insert into project_assignees (project_id, user_id) values (?, ?)', [projectId, rootId]);
    await run(
      'insert into issues (project_id, number_in_project, summary, description, reporter_id, created_at, updated_at, resolved_at) ' +
        "values (?, 1, 'kept', '', ?, ?, ?, ?)",
      [projectId, rootId, at, at, at],
    );
    const value = (field: string, name: string) =>
      'select i.id, pf.id, fv.id from issues i, project_fields pf join field_values fv on fv.field_id = pf.id ' +
      `where i.project_id = ${projectId} and pf.name = '${field}' and fv.name = '${name}'`;
    const insert = (slot: string) =>
      `insert into issue_field_values (issue_id, field_id, value_id, user_id, slot) select *, null, ${slot} from (`;
    await run(`${insert('0')}${value('Priority', 'Critical')}) x`);
    await run(`${insert('0')}${value('State', 'Fixed')}) x`);
    await run(`${insert('0')}${value('Subsystem', 'UI')}) x`);
    for (const v of ['1.0', '2.0']) {
      await run(
        'insert into issue_field_values (issue_id, field_id, value_id, user_id, slot) ' +
          `select i.id, pf.id, fv.id, null, fv.id from issues i, project_fields pf join field_values fv on fv.field_id = pf.id ` +
          `where i.project_id = ? and pf.name = 'Fix versions' and fv.name = ?`,
        [projectId, v],
      );
    }
    await run(
      'insert into issue_field_values (issue_id, field_id, value_id, user_id, slot) ' +
        "select i.id, pf.id, null, ?, 0 from issues i, project_fields pf where i.project_id = ? and pf.name = 'Assignee'",
      [rootId, projectId],
    );
    expect((await migrate(orm))[0]).toBe('0006_custom_fields.sql');
  });
  afterAll(() => orm.close(true));

  it('keeps every issue value, the project values and the assignees', async () => {
    const root = await actorFor(orm, 'root');
    const issue = await getIssue(fork(), root, 'OLD-1');
    expect(issue.fields.map((f) => [f.name, f.kind, f.values.map((v) => v.name)])).toEqual([
      ['Priority', 'enum', ['Critical']],
      ['State', 'state', ['Fixed']],
      ['Assignee', 'user', ['root']],
      ['Subsystem', 'ownedField', ['UI']],
      ['Fix versions', 'version', ['1.0', '2.0']],
    ]);
    const fields = await listProjectFields(fork(), root, 'OLD');
    expect(fields.find((f) => f.name === 'Fix versions')?.values.map((v) => v.name)).toEqual(['1.0', '2.0']);
    expect(fields.find((f) => f.name === 'State')?.values.find((v) => v.name === 'Fixed')?.resolved).toBe(
      true,
    );
    expect((await listProjectAssignees(fork(), root, 'OLD')).map((u) => u.login)).toEqual(['root']);
  });

  it('seeds the prototypes with default bundles, each project field with a bundle of its own', async () => {
    const prototypes = await run(
      'select name, kind, multi, auto_attached from custom_fields order by ordinal',
    );
    expect(prototypes.map((p) => [p.name, p.kind])).toEqual([
      ['Priority', 'enum'],
      ['Type', 'enum'],
      ['State', 'state'],
      ['Assignee', 'user'],
      ['Subsystem', 'ownedField'],
      ['Fix versions', 'version'],
    ]);
    const bundles = await run(
      'select b.name from bundles b join project_fields pf on pf.bundle_id = b.id order by pf.ordinal',
    );
    expect(bundles.map((b) => b.name)).toEqual([
      'OLD: Priority',
      'OLD: State',
      'OLD: Assignee',
      'OLD: Subsystem',
      'OLD: Fix versions',
    ]);
    const [states] = await run(
      "select count(*) as n from field_values fv join bundles b on b.id = fv.bundle_id where b.name = 'States'",
    );
    expect(Number(states?.n)).toBe(12);
  });
});
