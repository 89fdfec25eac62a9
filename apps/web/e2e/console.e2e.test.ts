import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type Browser, launchBrowser, screenshot } from './browser.js';
import { startConsoleServer } from './console-server.js';
import { seedTracker } from './seed.js';

/**
 * The console in a real headless Chromium, as a person uses it: log in, search with completion,
 * open an issue, a command completed from the keyboard, a command on a selection, a comment,
 * an attachment up and down, a project and a user made as administrator, log out. Every screen
 * is checked with axe-core (no violation of any impact) and photographed into
 * test-results/screenshots. On SQLite and, in the PostgreSQL pass, on PostgreSQL.
 */

let server: Awaited<ReturnType<typeof startConsoleServer>>;
let browser: Browser;
let page: Page;

const ROOT_PASSWORD = 'root-password';

/** Axe on the screen as it is, and a picture of it. */
async function checkScreen(name: string) {
  const violations = await axeViolations(page);
  expect(violations, `${name}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
  await screenshot(page, name);
}

const text = async (selector: string) => (await page.locator(selector).first().textContent()) ?? '';

/** The chip of a field in the issue page's fields panel. */
const fieldChip = (field: string) =>
  page
    .locator('.field-row', { has: page.locator('dt', { hasText: new RegExp(`^${field}$`) }) })
    .locator('.chip')
    .first();

beforeAll(async () => {
  server = await startConsoleServer();
  await seedTracker(server.orm);
  browser = await launchBrowser();
  page = browser.page;
  page.setDefaultTimeout(15_000);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the web console in Chromium', () => {
  it('serves the page with a CSP that allows only its own scripts, and shows the login form', async () => {
    const response = await page.goto(`${server.url}/`);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    // No inline script in the page: every script is a file of this origin.
    expect(await page.locator('script:not([src])').count()).toBe(0);
    await page.getByRole('heading', { name: 'Log in to Trackline' }).waitFor();
    await checkScreen('01-login');
  });

  it('refuses a wrong password, then logs in with the form (a session cookie)', async () => {
    await page.getByLabel('Login').fill('root');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /Incorrect login or password/ })
      .waitFor();
    await page.getByLabel('Password').fill(ROOT_PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Folders' }).waitFor();
    const cookies = await browser.context.cookies();
    expect(cookies.find((c) => c.name === 'JSESSIONID')?.httpOnly).toBe(true);
    expect(await page.getByRole('link', { name: 'API docs' }).getAttribute('href')).toBe('/rest/docs');
  });

  it('searches with completion and highlighting, and pages with the keyboard and the mouse', async () => {
    await page
      .locator('.count')
      .filter({ hasText: /of 63 issues/ })
      .waitFor();
    const search = page.getByRole('combobox', { name: 'Search issues' });
    await search.click();
    await search.pressSequentially('proj');
    const list = page.getByRole('listbox', { name: 'Search issues: completions' });
    await list
      .getByRole('option', { name: /^project/ })
      .first()
      .waitFor();
    await page.keyboard.press('Tab');
    expect(await search.inputValue()).toBe('project: ');
    await search.pressSequentially('DE');
    await list.getByRole('option', { name: /DEMO/ }).first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await search.inputValue()).toBe('project: DEMO ');
    // Highlighting: the attribute reads as a field.
    await page.locator('.search-box .assist-mirror .hl-field', { hasText: 'project' }).waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.count').filter({ hasText: '1–50 of 60 issues' }).waitFor();
    expect(page.url()).toContain('q=project%3A+DEMO');
    await checkScreen('02-issues');
    // Paging: `]` from the list, the Previous button with the mouse.
    await page.locator('.issue-link').first().focus();
    await page.keyboard.press(']');
    await page.locator('.count').filter({ hasText: '51–60 of 60 issues' }).waitFor();
    // Coloured chips from the bundle colours (Critical is the palette's red; DEMO-1 is on page 2).
    const critical = page.locator('.issue-row[data-issue="DEMO-1"] .chip', { hasText: 'Critical' });
    expect(await critical.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(142, 22, 0)');
    await screenshot(page, '02b-issues-page-2');
    await page.getByRole('button', { name: '← Previous' }).click();
    await page.locator('.count').filter({ hasText: '1–50 of 60 issues' }).waitFor();
    // Folder counts in the sidebar.
    await page
      .getByRole('button', { name: /Open in DEMO/ })
      .locator('.folder-count')
      .filter({ hasText: /^\d+ issues$/ })
      .waitFor();
  });

  it('opens an issue', async () => {
    await page.getByRole('link', { name: /DEMO-13 / }).click();
    await page.getByRole('heading', { level: 1, name: /DEMO-13/ }).waitFor();
    expect(await text('.description')).toBe('Steps to reproduce 13.');
    expect(await fieldChip('Priority').textContent()).toBe('Normal');
    await checkScreen('03-issue');
  });

  it('runs a command completed from the keyboard and shows the field change at once', async () => {
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Command for DEMO-13' });
    await dialog.waitFor();
    const command = dialog.getByRole('combobox', { name: 'Command' });
    await command.pressSequentially('Priority Cri');
    await dialog
      .getByRole('option', { name: /Critical/ })
      .first()
      .waitFor();
    await page.keyboard.press('Tab');
    expect(await command.inputValue()).toBe('Priority Critical ');
    await dialog
      .locator('.preview')
      .filter({ hasText: /Critical/ })
      .waitFor();
    await command.pressSequentially('tag ui');
    await dialog.locator('.preview').filter({ hasText: /ui/ }).waitFor();
    await checkScreen('04-command-box');
    await page.keyboard.press('Control+Enter');
    await dialog.waitFor({ state: 'detached' });
    await fieldChip('Priority').filter({ hasText: 'Critical' }).waitFor();
    expect(await fieldChip('Priority').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(142, 22, 0)',
    );
    await page.getByRole('list', { name: 'Tags' }).getByText('ui').waitFor();
    // An unknown word is underlined and named, and nothing is applied.
    await page.keyboard.press('Control+k');
    await command.pressSequentially('Priority Nonsense');
    await dialog.locator('.assist-mirror .hl-error').first().waitFor();
    await page.keyboard.press('Control+Enter');
    await dialog.getByRole('alert').waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await fieldChip('Priority').textContent()).toBe('Critical');
  });

  it('sets a field with its value picker', async () => {
    await page.getByRole('combobox', { name: 'State' }).selectOption('Open');
    await fieldChip('State').filter({ hasText: 'Open' }).waitFor();
  });

  it('adds, edits and deletes a comment', async () => {
    await page.getByLabel('Add a comment').fill('Reproduced on the nightly build.');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const comment = page.locator('.comment', { hasText: 'Reproduced on the nightly build.' });
    await comment.waitFor();
    await comment.getByRole('button', { name: /Edit comment/ }).click();
    await page.getByLabel('Edit the comment').fill('Reproduced on the nightly build, twice.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.comment', { hasText: 'twice.' }).locator('text=(edited)').waitFor();
    await page.getByLabel('Add a comment').fill('For developers only.');
    await page.getByLabel('Visible to').selectOption('Developers');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page
      .locator('.comment', { hasText: 'For developers only.' })
      .locator('.visibility', { hasText: 'Developers' })
      .waitFor();
    await page
      .locator('.comment', { hasText: 'For developers only.' })
      .getByRole('button', { name: /Delete comment/ })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete comment' }).click();
    await page.locator('.comment', { hasText: 'For developers only.' }).waitFor({ state: 'detached' });
    await checkScreen('05-issue-after-changes');
  });

  it('uploads an attachment and downloads the same bytes', async () => {
    const content = `Trace of DEMO-13\n${'x'.repeat(2000)}\nünïcödé\n`;
    await page
      .getByLabel('Attach files')
      .setInputFiles({ name: 'trace.txt', mimeType: 'text/plain', buffer: Buffer.from(content) });
    await page.getByRole('button', { name: 'Upload' }).click();
    const link = page.getByRole('link', { name: 'trace.txt' });
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('trace.txt');
    expect(readFileSync(await download.path(), 'utf8')).toBe(content);
  });

  it('applies a command to a selection made from the keyboard', async () => {
    await page.goto(`${server.url}/?q=${encodeURIComponent('project: DEMO')}`);
    await page.locator('.count').filter({ hasText: '1–50 of 60 issues' }).waitFor();
    // Rows 1 and 2 of the list (newest first: DEMO-60, DEMO-59).
    await page.locator('.issue-link').first().focus();
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.locator('.count').filter({ hasText: '2 selected' }).waitFor();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Command for 2 selected issues' });
    const command = dialog.getByRole('combobox', { name: 'Command' });
    await command.pressSequentially('In Prog');
    await dialog
      .getByRole('option', { name: /In Progress/ })
      .first()
      .waitFor();
    await page.keyboard.press('Tab');
    expect(await command.inputValue()).toBe('In Progress ');
    await dialog.getByLabel('Comment', { exact: true }).fill('Both in progress now.');
    await dialog.getByRole('button', { name: /Apply/ }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Applied to DEMO-60, DEMO-59/ })
      .waitFor();
    for (const id of ['DEMO-60', 'DEMO-59']) {
      await page.locator(`.issue-row[data-issue="${id}"] .chip`, { hasText: 'In Progress' }).waitFor();
    }
    expect(
      await page.locator('.issue-row[data-issue="DEMO-58"] .chip', { hasText: 'In Progress' }).count(),
    ).toBe(0);
    await checkScreen('06-selection-applied');
  });

  it('creates a project and a user as an administrator, on screens that pass axe', async () => {
    await page.getByRole('link', { name: 'Administration' }).click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await page.getByLabel('Short name').fill('WEB');
    await page.getByLabel('Name', { exact: true }).fill('Web site');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('link', { name: 'WEB' }).waitFor();
    await checkScreen('07-admin-projects');
    await page.getByRole('link', { name: 'WEB' }).click();
    await page.getByRole('heading', { name: 'Project WEB' }).waitFor();
    await page.locator('summary', { hasText: 'Priority' }).click();
    await page.getByRole('combobox', { name: 'Colour of Major' }).selectOption({ label: 'Orange' });
    // The chip takes the colour once the change is saved and the bundle read again.
    const major = page.locator('tr', { hasText: 'Major' }).locator('.chip');
    await expect
      .poll(() => major.evaluate((el) => getComputedStyle(el).backgroundColor))
      .toBe('rgb(206, 103, 0)');
    await checkScreen('08-admin-project');

    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('Login').fill('alice');
    await page.getByLabel('Full name').fill('Alice Example');
    await page.getByLabel('E-mail').fill('alice@example.com');
    await page.getByLabel('Password').fill('alice-password-1');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('link', { name: 'alice' }).waitFor();
    await checkScreen('09-admin-users');
    await page.getByRole('link', { name: 'alice' }).click();
    await page.getByRole('heading', { name: 'Alice Example' }).waitFor();
    await checkScreen('10-admin-user');

    for (const [link, heading, name] of [
      ['Fields', 'Fields', '11-admin-fields'],
      ['Groups', 'Groups', '12-admin-groups'],
      ['Roles', 'Roles', '13-admin-roles'],
      ['Link types', 'Link types', '14-admin-link-types'],
      ['VCS integrations', 'VCS integrations', '15-admin-vcs'],
    ] as const) {
      await page
        .getByRole('navigation', { name: 'Administration' })
        .getByRole('link', { name: link })
        .click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await checkScreen(name);
    }
  });

  it('lets the new user log in with the password set for them', async () => {
    // From outside the browser: its own session stays root's.
    const res = await fetch(`${server.url}/rest/user/login`, {
      method: 'POST',
      body: new URLSearchParams({ login: 'alice', password: 'alice-password-1' }),
    });
    expect(res.status).toBe(200);
  });

  it('logs out: the session ends and the login form shows, also after a reload', async () => {
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in to Trackline' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Log in to Trackline' }).waitFor();
  });

  it('met no CSP violation and no page error on the way', () => {
    expect(browser.cspViolations).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
