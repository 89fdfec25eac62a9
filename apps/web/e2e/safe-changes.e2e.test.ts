import { type Em, executeCommand } from '@trackline/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, startSession, tagsOf } from './session.js';

/**
 * Safe changes: a selection holds only issues on screen, so a command never reaches issues that
 * left the list; every delete asks first, naming what goes and whether it comes back; built-in
 * accounts offer no delete; an issue is deleted by a button or the `delete` command and the page
 * goes back to the list with a notice; the 500-issue limit shows in the preview.
 */

let s: Session;
let page: Page;

beforeAll(async () => {
  // 520 DEMO issues: a query over DEMO matches more than one command may change.
  s = await startSession({ issues: 520 });
  page = s.page;
  // Every OPS issue Open, so that a command moving two of them on takes them off the list.
  await executeCommand(s.orm.em.fork() as Em, s.root, ['OPS-1', 'OPS-2', 'OPS-3'], 'State Open');
});
afterAll(() => s?.close());

const confirmDialog = () => page.getByRole('alertdialog');

describe('safe changes', () => {
  it('drops issues that left the list from the selection: a later command does not reach them', async () => {
    await s.open(`/?q=${encodeURIComponent('project: OPS State: Open')}`);
    await page.locator('.count').filter({ hasText: '1–3 of 3 issues' }).waitFor();
    await page.getByLabel('Select OPS-3').check();
    await page.getByLabel('Select OPS-2').check();
    await page.getByRole('button', { name: 'Command for 2 selected…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Command for 2 selected issues' });
    await dialog.getByRole('combobox', { name: 'Command' }).fill('State {In Progress}');
    await dialog.getByRole('button', { name: /Apply/ }).click();
    // Both leave the list (no longer Open); the selection goes with them.
    await page
      .locator('.count')
      .filter({ hasText: /^1–1 of 1 issue/ })
      .waitFor();
    // One visible issue ticked, and the command box opened from the keyboard: the command is
    // for that one issue alone.
    await page.getByLabel('Select OPS-1').check();
    await page.keyboard.press('Control+k');
    const next = page.getByRole('dialog', { name: /^Command for/ });
    await next.getByRole('combobox', { name: 'Command' }).fill('tag hiddensel');
    await next.getByRole('button', { name: /Apply/ }).click();
    await next.waitFor({ state: 'detached' });
    await page
      .getByRole('status')
      .filter({ hasText: /Applied to/ })
      .waitFor();
    expect(await tagsOf(s, 'OPS-1')).toContain('hiddensel');
    // The issues that left the list are not changed.
    expect(await tagsOf(s, 'OPS-2')).not.toContain('hiddensel');
    expect(await tagsOf(s, 'OPS-3')).not.toContain('hiddensel');
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: /Applied to/ })
        .textContent(),
    ).toMatch(/^Applied to OPS-1\./);
    // And the page says so: one selected, not three.
    await page.getByLabel('Select OPS-1').uncheck();
    expect(await page.locator('.count').textContent()).not.toContain('selected');
    await page.getByRole('button', { name: 'Command for all 1…' }).waitFor();
  });

  it('shows the 500-issue limit in the preview, before Apply', async () => {
    await s.open(`/?q=${encodeURIComponent('project: DEMO')}`);
    await page.locator('.count').filter({ hasText: 'of 520 issues' }).waitFor();
    await page.getByRole('button', { name: 'Command for all 520…' }).click();
    const dialog = page.getByRole('dialog', { name: /Command for 520 issues/ });
    await dialog.getByRole('combobox', { name: 'Command' }).fill('tag many');
    await dialog
      .locator('.preview-error')
      .filter({ hasText: /520 issues.*at most 500/ })
      .waitFor();
    expect(await dialog.getByRole('button', { name: /Apply/ }).isDisabled()).toBe(true);
    await s.check('s1-command-over-limit');
    await page.keyboard.press('Escape');
  });

  it('asks before deleting a comment, and deletes it only when confirmed', async () => {
    await s.open('/issue/DEMO-3');
    await page.getByLabel('Add a comment').fill('To be deleted.');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const comment = page.locator('.comment', { hasText: 'To be deleted.' });
    await comment.waitFor();
    await comment.getByRole('button', { name: /Delete comment/ }).click();
    await confirmDialog()
      .filter({ hasText: /comment by/ })
      .waitFor();
    await s.check('s1-confirm-comment');
    await confirmDialog().getByRole('button', { name: 'Cancel' }).click();
    await comment.waitFor();
    await comment.getByRole('button', { name: /Delete comment/ }).click();
    await confirmDialog().getByRole('button', { name: 'Delete comment' }).click();
    await comment.waitFor({ state: 'detached' });
  });

  it('deletes an issue from its page with a button, after a confirmation, and shows the list with a notice', async () => {
    await s.open('/issue/DEMO-7');
    await page.getByRole('button', { name: 'Delete issue' }).click();
    const confirm = confirmDialog();
    await confirm.filter({ hasText: /DEMO-7/ }).waitFor();
    expect(await confirm.textContent()).toMatch(/cannot be undone/);
    await confirm.getByRole('button', { name: 'Delete DEMO-7' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Deleted DEMO-7/ })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(s.call('issues.view', { issue: 'DEMO-7' })).rejects.toThrow(/404/);
  });

  it('deletes an issue with the delete command and goes back to the list with a notice, not an error', async () => {
    await s.open('/issue/DEMO-8');
    await page.getByRole('button', { name: 'Command…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Command for DEMO-8' });
    await dialog.getByRole('combobox', { name: 'Command' }).fill('delete');
    await dialog.getByRole('button', { name: /Apply/ }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Deleted DEMO-8/ })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('offers no delete for built-in accounts, and asks before deleting a user', async () => {
    await s.call(
      'users.create',
      { login: 'bob', fullName: 'Bob Example', password: 'bob-password-1' },
      { mutation: true },
    );
    await s.open('/admin/users');
    await page.getByRole('link', { name: 'bob' }).waitFor();
    for (const login of ['root', 'guest']) {
      await page.getByRole('link', { name: login, exact: true }).waitFor();
      expect(await page.getByRole('button', { name: `Delete user ${login}` }).count()).toBe(0);
    }
    await page.getByRole('button', { name: 'Delete user bob' }).click();
    const confirm = confirmDialog();
    await confirm.filter({ hasText: /bob/ }).waitFor();
    expect(await confirm.textContent()).toMatch(/cannot be undone/);
    await s.check('s1-confirm-user');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('link', { name: 'bob' }).waitFor();
    await page.getByRole('button', { name: 'Delete user bob' }).click();
    await confirmDialog().getByRole('button', { name: 'Delete user' }).click();
    await page.getByRole('link', { name: 'bob' }).waitFor({ state: 'detached' });
    // A built-in account's own page offers no delete either.
    await s.open('/admin/users/guest');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
  });

  it('asks before moving a project to the trash, saying it can be restored', async () => {
    await s.call(
      'projects.create',
      { project: 'TMP', projectName: 'Temporary', description: '', projectLeadLogin: 'root' },
      { mutation: true },
    );
    await s.open('/admin');
    await page.getByRole('button', { name: 'Move to trash: TMP' }).click();
    const confirm = confirmDialog();
    await confirm.filter({ hasText: /TMP/ }).waitFor();
    expect(await confirm.textContent()).toMatch(/restore/i);
    await confirm.getByRole('button', { name: 'Move to trash' }).click();
    await page.getByRole('button', { name: 'Restore TMP' }).waitFor();
    await page.getByRole('button', { name: 'Purge TMP for good' }).click();
    expect(await confirmDialog().textContent()).toMatch(/cannot be undone/);
    await confirmDialog().getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Restore TMP' }).waitFor();
  });

  it('asks before deleting a group, a link type and a bundle value', async () => {
    await s.open('/admin/projects/OPS');
    await page.locator('summary', { hasText: 'Priority' }).click();
    await page.getByRole('button', { name: 'Remove Minor' }).click();
    await confirmDialog().filter({ hasText: /Minor/ }).waitFor();
    await confirmDialog().getByRole('button', { name: 'Cancel' }).click();
    await s.open('/admin/groups');
    await page.getByRole('button', { name: 'Delete group Developers' }).click();
    await confirmDialog()
      .filter({ hasText: /Developers/ })
      .waitFor();
    await confirmDialog().getByRole('button', { name: 'Cancel' }).click();
    await s.open('/admin/link-types');
    await page.getByRole('button', { name: 'Delete link type Relates' }).click();
    await confirmDialog()
      .filter({ hasText: /Relates/ })
      .waitFor();
    await confirmDialog().getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete link type Relates' }).waitFor();
  });
});
