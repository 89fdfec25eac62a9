import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, startSession } from './session.js';

/**
 * The keyboard: the command field has the focus whichever way the dialog opens; Ctrl+Enter
 * applies; the list's shortcuts work wherever the focus is outside a text field; `?` lists them;
 * the search box takes the highlighted completion on Enter, closes its list on submit, offers `me`
 * for user fields only and no built-in account, and drops the last error as a new query is typed;
 * Back returns the focus to the issue opened; a skip link leads to the fields panel.
 */

let s: Session;
let page: Page;

beforeAll(async () => {
  s = await startSession();
  page = s.page;
});
afterAll(() => s?.close());

const DEMO = `/?q=${encodeURIComponent('project: DEMO')}`;
const activeName = () =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el
      ? `${el.tagName.toLowerCase()}|${el.getAttribute('aria-label') ?? ''}|${el.textContent ?? ''}`
      : '';
  });
const focusedIssue = () =>
  page.evaluate(() => document.activeElement?.closest('.issue-row')?.getAttribute('data-issue') ?? null);
const listReady = () => page.locator('.count').filter({ hasText: '1–50 of 60 issues' }).waitFor();

/** Opens the command dialog some way, types at once, and checks the text went to the command field. */
async function typesIntoCommand(open: () => Promise<void>, title: RegExp) {
  await open();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  await page.keyboard.type('Priority');
  expect(await dialog.getByRole('combobox', { name: 'Command' }).inputValue()).toBe('Priority');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

describe('the keyboard', () => {
  it('focuses the command field from every entry point', async () => {
    await s.open(DEMO);
    await listReady();
    await typesIntoCommand(
      () => page.getByRole('button', { name: /^Command for all/ }).click(),
      /Command for 60/,
    );
    // From the page itself (the focus on the body, as after a reload).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await typesIntoCommand(() => page.keyboard.press('Control+k'), /Command for 60/);
    await typesIntoCommand(() => page.keyboard.press('Control+Alt+j'), /Command for 60/);
    await s.open('/issue/DEMO-3');
    await page.getByRole('heading', { level: 1, name: /DEMO-3/ }).waitFor();
    await typesIntoCommand(
      () => page.getByRole('button', { name: 'Command…' }).click(),
      /Command for DEMO-3/,
    );
    await typesIntoCommand(() => page.keyboard.press('Control+k'), /Command for DEMO-3/);
  });

  it('applies with Ctrl+Enter, even with a completion highlighted', async () => {
    await s.open('/issue/DEMO-3');
    await page.getByRole('heading', { level: 1, name: /DEMO-3/ }).waitFor();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Command for DEMO-3' });
    await dialog.waitFor();
    await page.keyboard.type('Priority Major');
    await dialog.locator('.preview').filter({ hasText: /Major/ }).waitFor();
    await page.keyboard.press('Control+Enter');
    await dialog.waitFor({ state: 'detached' });
    await page
      .locator('.field-row', { has: page.locator('dt', { hasText: /^Priority$/ }) })
      .locator('.chip', { hasText: 'Major' })
      .waitFor();
  });

  it('runs the list shortcuts with the focus anywhere outside a text field', async () => {
    await s.open(DEMO);
    await listReady();
    // After a load the focus is on the body: j moves to the second row.
    await page.keyboard.press('j');
    expect(await focusedIssue()).toBe('DEMO-59');
    await page.keyboard.press('k');
    expect(await focusedIssue()).toBe('DEMO-60');
    await page.keyboard.press('x');
    await page.locator('.count').filter({ hasText: '1 selected' }).waitFor();
    await page.keyboard.press('x');
    // A click on the page's background leaves the focus outside the list: the keys still work.
    await page.locator('.toolbar .count').click();
    await page.keyboard.press(']');
    await page.locator('.count').filter({ hasText: '51–60 of 60 issues' }).waitFor();
    await page.locator('.toolbar .count').click();
    await page.keyboard.press('[');
    await listReady();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('/');
    expect(await activeName()).toMatch(/^input/);
    expect(
      await page
        .getByRole('combobox', { name: 'Search issues' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    // In a text field the keys are text.
    await page.keyboard.type('jk');
    expect(await page.getByRole('combobox', { name: 'Search issues' }).inputValue()).toBe('project: DEMOjk');
  });

  it('returns the focus to the issue opened after Back', async () => {
    await s.open(DEMO);
    await listReady();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await focusedIssue()).toBe('DEMO-58');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: /DEMO-58/ }).waitFor();
    await page.goBack();
    await listReady();
    await expect.poll(focusedIssue).toBe('DEMO-58');
    // And the keys go on from there.
    await page.keyboard.press('j');
    expect(await focusedIssue()).toBe('DEMO-57');
  });

  it('lists the shortcuts on ?', async () => {
    await s.open(DEMO);
    await listReady();
    await page.keyboard.press('Shift+?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const key of ['/', 'j', 'k', 'x', 'Enter', '[', ']', 'Ctrl+K', 'Ctrl+Enter', '?'])
      await help.locator('kbd', { hasText: key }).first().waitFor();
    await s.check('s2-shortcuts');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });

  it('takes the highlighted completion on Enter, and closes the list when the search is sent', async () => {
    await s.open('/');
    const search = page.getByRole('combobox', { name: 'Search issues' });
    await search.click();
    await search.pressSequentially('State: In');
    const list = page.getByRole('listbox', { name: 'Search issues: completions' });
    await list.getByRole('option', { name: /In Progress/, selected: true }).waitFor();
    await page.keyboard.press('Enter');
    expect(await search.inputValue()).toBe('State: {In Progress} ');
    expect(new URL(page.url()).search).toBe('');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('State: {In Progress}');
    await page
      .locator('.count')
      .filter({ hasText: /of \d+ issues?|No issues/ })
      .waitFor();
    // Answers still on their way do not open the list again over the results.
    await page.waitForTimeout(300);
    expect(await list.isHidden()).toBe(true);
    expect(await search.getAttribute('aria-expanded')).toBe('false');
  });

  it('offers me for user fields only, and no built-in account', async () => {
    await s.open('/');
    const search = page.getByRole('combobox', { name: 'Search issues' });
    const list = page.getByRole('listbox', { name: 'Search issues: completions' });
    const options = async () =>
      (await list.getByRole('option').locator('.assist-option').allTextContents()).map((t) => t.trim());
    await search.click();
    await search.fill('');
    await search.pressSequentially('State: ');
    await list.getByRole('option').first().waitFor();
    expect(await options()).not.toContain('me');
    await search.fill('');
    await search.pressSequentially('Assignee: ');
    await list.getByRole('option', { name: /^me/ }).waitFor();
    const assignees = await options();
    expect(assignees).toContain('root');
    for (const builtIn of ['deleted_user', 'guest', 'system_user']) expect(assignees).not.toContain(builtIn);
    // The command box too.
    await page.keyboard.press('Escape');
    await s.open('/issue/DEMO-3');
    await page.getByRole('heading', { level: 1, name: /DEMO-3/ }).waitFor();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Command for DEMO-3' });
    await page.keyboard.type('Assignee ');
    const commandOptions = dialog.getByRole('listbox');
    await commandOptions.getByRole('option').first().waitFor();
    const offered = (
      await commandOptions.getByRole('option').locator('.assist-option').allTextContents()
    ).map((t) => t.trim());
    for (const builtIn of ['deleted_user', 'guest', 'system_user']) expect(offered).not.toContain(builtIn);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
  });

  it('drops the last error as a new query is typed', async () => {
    await s.open('/');
    const search = page.getByRole('combobox', { name: 'Search issues' });
    await search.click();
    await search.fill('State: Nonsense');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    const error = page.locator('.issues-main').getByRole('alert');
    await error.waitFor();
    await search.pressSequentially('x');
    await error.waitFor({ state: 'detached' });
  });

  it('leads to the fields panel with a skip link', async () => {
    await s.open('/issue/DEMO-3');
    await page.getByRole('heading', { level: 1, name: /DEMO-3/ }).waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await activeName()).toMatch(/Skip to fields/);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('.fields-panel') !== null))
      .toBe(true);
    // The next Tab is a field's picker.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => {
        const el = document.activeElement;
        return (
          el?.closest('.fields-panel') !== null && ['SELECT', 'INPUT', 'BUTTON'].includes(el?.tagName ?? '')
        );
      }),
    ).toBe(true);
  });
});
