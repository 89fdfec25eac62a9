import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, startSession, tagsOf } from './session.js';

/**
 * Everyday work: one-click star and vote with counts; a tag and a link added from the issue
 * page with completion; the sidebar up to date after a command; a history that tells links,
 * tags, comments and attachments with full names; New issue in the project in view with its
 * fields; saved searches renamed, shared and deleted, and "Assigned to me"; a date picker.
 */

let s: Session;
let page: Page;

type View = {
  votes: number;
  votedByMe: boolean;
  stars: number;
  starredByMe: boolean;
  links: { issue: { id: string } }[];
};

beforeAll(async () => {
  s = await startSession();
  page = s.page;
  await s.call('users.update', { login: 'root', fullName: 'Rosa Root' }, { mutation: true });
  await s.call('customFields.createPrototype', { name: 'Due date', type: 'date' }, { mutation: true });
  await s.call('customFields.attachProjectField', { project: 'DEMO', name: 'Due date' }, { mutation: true });
  await s.call(
    'commands.execute',
    { issues: ['DEMO-20', 'DEMO-21'], command: 'Assignee root' },
    { mutation: true },
  );
});
afterAll(() => s?.close());

const view = (issue: string) => s.call<View>('issues.view', { issue });
const issueHeading = (id: string) => page.getByRole('heading', { level: 1, name: new RegExp(id) });

describe('everyday work', () => {
  it('stars and votes with one click, with their counts', async () => {
    await s.open('/issue/DEMO-12');
    await issueHeading('DEMO-12').waitFor();
    const star = page.getByRole('button', { name: /^Star/ });
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    await star.click();
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await view('DEMO-12')).starredByMe).toBe(true);
    // The star is the button, not a second tag beside it.
    expect(await page.getByRole('list', { name: 'Tags' }).getByText('Star', { exact: true }).count()).toBe(0);
    const vote = page.getByRole('button', { name: /^Vote/ });
    expect(await vote.textContent()).toContain('0');
    await vote.click();
    await expect.poll(() => vote.textContent()).toContain('1');
    expect(await vote.getAttribute('aria-pressed')).toBe('true');
    expect((await view('DEMO-12')).votes).toBe(1);
    await vote.click();
    await expect.poll(() => vote.getAttribute('aria-pressed')).toBe('false');
    expect((await view('DEMO-12')).votes).toBe(0);
    await s.check('s6-star-vote');
  });

  it('adds a tag and a link from the issue page, with completion', async () => {
    await s.open('/issue/DEMO-12');
    await issueHeading('DEMO-12').waitFor();
    await page.getByRole('button', { name: 'Add tag' }).click();
    const tag = page.getByRole('combobox', { name: 'Tag' });
    await tag.fill('regr');
    // Completion from the caller's tags (regression exists on DEMO-5).
    expect(
      await page.locator(`datalist#${await tag.getAttribute('list')} option[value="regression"]`).count(),
    ).toBe(1);
    await tag.fill('regression');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Tags' }).getByText('regression').waitFor();
    expect(await tagsOf(s, 'DEMO-12')).toContain('regression');
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByLabel('Link type').selectOption({ label: 'depends on' });
    const other = page.getByRole('combobox', { name: 'Issue to link' });
    await other.fill('Crash on save');
    const list = `datalist#${await other.getAttribute('list')}`;
    await expect.poll(() => page.locator(`${list} option[value="DEMO-10"]`).count()).toBe(1);
    await other.fill('DEMO-10');
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    await page.locator('.links li', { hasText: 'DEMO-10' }).filter({ hasText: 'depends on' }).waitFor();
    expect((await view('DEMO-12')).links.map((l) => l.issue.id)).toContain('DEMO-10');
    await s.check('s6-tag-link');
  });

  it('refreshes the sidebar after a command', async () => {
    await s.open(`/?q=${encodeURIComponent('project: DEMO')}`);
    await page.locator('.count').filter({ hasText: 'of 60 issues' }).waitFor();
    await page.getByLabel('Select DEMO-60').check();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Command for DEMO-60' });
    await dialog.getByRole('combobox', { name: 'Command' }).fill('tag brandnew');
    await dialog.getByRole('button', { name: /Apply/ }).click();
    await page
      .getByRole('navigation', { name: 'Folders' })
      .getByRole('button', { name: /brandnew/ })
      .waitFor();
  });

  it('tells links, tags, comments and attachments in the history, by full name', async () => {
    await s.open('/issue/DEMO-12');
    await issueHeading('DEMO-12').waitFor();
    await page.getByLabel('Add a comment').fill('History, please.');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.locator('.comment', { hasText: 'History, please.' }).waitFor();
    await page
      .getByLabel('Attach files')
      .setInputFiles({ name: 'log.txt', mimeType: 'text/plain', buffer: Buffer.from('log') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('link', { name: 'log.txt' }).waitFor();
    const history = page.locator('.history');
    await history.locator('li', { hasText: 'depends on DEMO-10' }).waitFor();
    for (const text of ['regression', 'History, please.', 'log.txt', 'depends on DEMO-10']) {
      const entry = history.locator('li', { hasText: text }).first();
      await entry.waitFor();
      expect(await entry.textContent()).toContain('Rosa Root');
    }
    expect(await history.textContent()).not.toMatch(/\broot,/);
    await s.check('s6-history');
  });

  it('creates an issue in the project in view, with its fields', async () => {
    await s.open(`/?q=${encodeURIComponent('project: OPS')}`);
    await page.locator('.count').filter({ hasText: 'of 3 issues' }).waitFor();
    await page.getByRole('button', { name: 'New issue', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New issue' });
    expect(await dialog.getByLabel('Project').inputValue()).toBe('OPS');
    await dialog.getByLabel('Summary').fill('Renew the wildcard certificate');
    await dialog.getByRole('combobox', { name: 'Priority' }).selectOption('Critical');
    await dialog.getByRole('combobox', { name: 'Assignee' }).selectOption('root');
    await s.check('s6-new-issue');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await issueHeading('OPS-4').waitFor();
    const chip = (field: string) =>
      page
        .locator('.field-row', { has: page.locator('dt', { hasText: new RegExp(`^${field}$`) }) })
        .locator('.chip')
        .first();
    expect(await chip('Priority').textContent()).toBe('Critical');
    expect(await chip('Assignee').textContent()).toBe('Rosa Root');
  });

  it('renames, shares and deletes a saved search, and lists Assigned to me', async () => {
    await s.open('/');
    const folders = page.getByRole('navigation', { name: 'Folders' });
    await folders.getByRole('button', { name: /^Assigned to me/ }).click();
    // DEMO-20, DEMO-21 and the OPS issue created above.
    await page.locator('.count').filter({ hasText: '1–3 of 3 issues' }).waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('for: me #Unresolved');
    await folders.getByRole('button', { name: 'Rename Open in DEMO' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename saved search' });
    await rename.getByLabel('Name').fill('DEMO backlog');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await folders.getByRole('button', { name: /^DEMO backlog/ }).waitFor();
    await folders.getByRole('button', { name: 'Share DEMO backlog' }).click();
    await folders.getByRole('button', { name: 'Stop sharing DEMO backlog' }).waitFor();
    const searches = await s.call<{ name: string; shared: boolean }[]>('folders.savedSearches', {});
    expect(searches).toEqual([expect.objectContaining({ name: 'DEMO backlog', shared: true })]);
    await s.check('s6-saved-searches');
    await folders.getByRole('button', { name: 'Delete DEMO backlog' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete saved search' }).click();
    await folders.getByRole('button', { name: /^DEMO backlog/ }).waitFor({ state: 'detached' });
    expect(await s.call<unknown[]>('folders.savedSearches', {})).toEqual([]);
  });

  it('sets a date field with a date picker', async () => {
    await s.open('/issue/DEMO-12');
    await issueHeading('DEMO-12').waitFor();
    const due = page.getByLabel('Due date', { exact: true });
    expect(await due.getAttribute('type')).toBe('date');
    await due.fill('2027-03-15');
    await page.getByRole('button', { name: 'Set Due date' }).click();
    await expect
      .poll(async () => {
        const v = await s.call<{ fields: { name: string; values: { name: string }[] }[] }>('issues.view', {
          issue: 'DEMO-12',
        });
        return v.fields.find((f) => f.name === 'Due date')?.values[0]?.name;
      })
      .toBe(String(Date.UTC(2027, 2, 15)));
    expect(await due.inputValue()).toBe('2027-03-15');
  });
});
