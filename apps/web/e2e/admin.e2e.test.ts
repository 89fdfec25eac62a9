import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, type Session, startSession } from './session.js';

/**
 * The administration people do: a custom field created and attached to projects; bundle values
 * renamed and reordered; a user's name, e-mail and password edited, and the user banned; one's
 * own profile and password; a group's members; a project's grants; time tracking per project.
 */

let s: Session;
let page: Page;

type Field = { name: string };
type Bundle = { values: { name: string }[] };

beforeAll(async () => {
  s = await startSession();
  page = s.page;
  await s.call(
    'users.create',
    { login: 'alice', fullName: 'Alice Example', password: 'alice-password-1' },
    { mutation: true },
  );
});
afterAll(() => s?.close());

const logInStatus = async (login: string, password: string) =>
  (
    await fetch(`${s.server.url}/rest/user/login`, {
      method: 'POST',
      body: new URLSearchParams({ login, password }),
    })
  ).status;
/** The values of DEMO's Priority bundle, in order. */
const priorities = async () => {
  const field = await s.call<{ param: { name: string; value: string }[] }>('customFields.getProjectField', {
    project: 'DEMO',
    name: 'Priority',
  });
  const bundle = field.param.find((p) => p.name === 'bundle')?.value;
  return (await s.call<Bundle>('bundles.get', { bundleType: 'bundle', bundle })).values.map((v) => v.name);
};

describe('administration', () => {
  it('creates a custom field and attaches it to projects', async () => {
    await s.open('/admin/fields');
    const create = page.getByRole('region', { name: 'New field' });
    await create.getByLabel('Name').fill('Severity');
    await create.getByLabel('Type').selectOption('enum[1]');
    await create.getByRole('button', { name: 'Create field' }).click();
    const attach = page.getByRole('region', { name: 'Attach a field to a project' });
    await attach.getByLabel('Field').selectOption('Severity');
    for (const project of ['DEMO', 'OPS']) {
      await attach.getByLabel('Project').selectOption(project);
      await attach.getByRole('button', { name: 'Attach' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Attached Severity to ${project}.` })
        .waitFor();
    }
    await s.check('s7-admin-fields');
    for (const project of ['DEMO', 'OPS']) {
      const fields = await s.call<Field[]>('customFields.listProjectFields', { project });
      expect(fields.map((f) => f.name)).toContain('Severity');
    }
    // And a project's own screen attaches one too.
    await s.call('customFields.createPrototype', { name: 'Browser', type: 'string' }, { mutation: true });
    await s.open('/admin/projects/OPS');
    await page.getByLabel('Add a field').selectOption('Browser');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.locator('summary', { hasText: 'Browser' }).waitFor();
  });

  it('renames and reorders bundle values', async () => {
    await s.open('/admin/projects/DEMO');
    await page.locator('summary', { hasText: 'Priority' }).click();
    await page.getByRole('button', { name: 'Rename Minor' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename Minor' });
    await rename.getByLabel('New name').fill('Low');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('button', { name: 'Rename Low' }).waitFor();
    await page.getByRole('button', { name: 'Move Major up' }).click();
    await expect.poll(priorities).toEqual(['Show-stopper', 'Major', 'Critical', 'Normal', 'Low']);
    await page.getByRole('button', { name: 'Move Major down' }).click();
    await expect.poll(priorities).toEqual(['Show-stopper', 'Critical', 'Major', 'Normal', 'Low']);
    // Issues holding the value show the new name (DEMO-5 was Minor).
    const view = await s.call<{ fields: { name: string; values: { name: string }[] }[] }>('issues.view', {
      issue: 'DEMO-5',
    });
    expect(view.fields.find((f) => f.name === 'Priority')?.values[0]?.name).toBe('Low');
    await s.check('s7-bundle-values');
  });

  it('edits a user: name, e-mail, password, and bans them', async () => {
    await s.open('/admin/users/alice');
    const account = page.getByRole('region', { name: 'Account' });
    await account.getByLabel('Full name').fill('Alice Admin-Edited');
    await account.getByLabel('E-mail').fill('alice@example.org');
    await account.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: 'Alice Admin-Edited' }).waitFor();
    const password = page.getByRole('region', { name: 'Password' });
    await password.getByLabel('New password').fill('alice-password-2');
    await password.getByRole('button', { name: 'Set password' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /password/i })
      .waitFor();
    expect(await logInStatus('alice', 'alice-password-2')).toBe(200);
    await page.getByRole('button', { name: 'Ban alice' }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toMatch(/cannot log in/);
    await confirm.getByRole('button', { name: 'Ban' }).click();
    await page.getByRole('button', { name: 'Lift the ban on alice' }).waitFor();
    await page.getByText('Banned', { exact: true }).waitFor();
    expect(await logInStatus('alice', 'alice-password-2')).toBe(401);
    await s.check('s7-admin-user');
    await page.getByRole('button', { name: 'Lift the ban on alice' }).click();
    await page.getByRole('button', { name: 'Ban alice' }).waitFor();
    expect(await logInStatus('alice', 'alice-password-2')).toBe(200);
    const stored = await s.call<{ fullName: string; email: string; banned: boolean }>('users.account', {
      login: 'alice',
    });
    expect(stored).toMatchObject({
      fullName: 'Alice Admin-Edited',
      email: 'alice@example.org',
      banned: false,
    });
  });

  it('shows and changes the members of a group', async () => {
    await s.open('/admin/groups');
    await page.getByRole('button', { name: 'Developers', exact: true }).click();
    const members = page.getByRole('list', { name: 'Members of Developers' });
    await page.getByLabel('Add member (login)').fill('alice');
    await page.getByRole('button', { name: 'Add member' }).click();
    await members.getByText(/alice/).waitFor();
    await s.check('s7-group-members');
    await page.getByRole('button', { name: 'Remove alice from Developers' }).click();
    await members.getByText(/alice/).waitFor({ state: 'detached' });
  });

  it('lists and changes a project’s grants, and switches time tracking on', async () => {
    await s.open('/admin/projects/DEMO');
    const grants = page.getByRole('table', { name: 'Roles held in DEMO' });
    await grants.waitFor();
    await page.getByLabel('Login', { exact: true }).fill('alice');
    await page.getByRole('button', { name: 'Grant' }).click();
    await grants.getByRole('row', { name: /alice.*Developer/ }).waitFor();
    await page.getByRole('button', { name: 'Revoke Developer in DEMO from alice' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await grants.getByRole('row', { name: /alice/ }).waitFor({ state: 'detached' });
    const tracking = page.getByRole('checkbox', { name: 'Track time in DEMO' });
    expect(await tracking.isChecked()).toBe(false);
    await tracking.check();
    await expect
      .poll(
        async () =>
          (await s.call<{ enabled: boolean }>('timeTracking.projectSettings', { project: 'DEMO' })).enabled,
      )
      .toBe(true);
    await s.check('s7-project-admin');
  });

  it('edits one’s own profile and password', async () => {
    await s.open('/');
    await page.getByRole('link', { name: 'Your profile' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your profile' }).waitFor();
    await page.getByLabel('Full name').fill('Rosa Root');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('link', { name: 'Your profile' }).filter({ hasText: 'Rosa Root' }).waitFor();
    await s.check('s7-profile');
    await page.getByLabel('Current password').fill(ROOT_PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('root-password-2');
    await page.getByLabel('Repeat the new password').fill('root-password-2');
    await page.getByRole('button', { name: 'Change password' }).click();
    // Every session ends with a new password: the login form says why.
    await page.getByRole('heading', { name: 'Log in to Trackline' }).waitFor();
    await page.getByText(/Password changed/).waitFor();
    await s.logIn('root', 'root-password-2');
  });
});
