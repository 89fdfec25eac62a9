import {
  createIssue,
  createNotificationWorker,
  createProject,
  createTag,
  executeCommand,
  getNotificationSettings,
  listSubscriptions,
  type Orm,
} from '@trackline/domain';
import { actorFor, fork, USER_PASSWORD, userWithRole } from '@trackline/domain/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type Browser, launchBrowser, screenshot } from './browser.js';
import { startConsoleServer } from './console-server.js';

/**
 * The inbox and the notification settings in a real Chromium (issue 39): the bell's unread count,
 * the inbox's entries with links to their issues, mark read (one, all), the settings' channels and
 * subscriptions saved through the typed client. Every screen axe-clean. On SQLite and PostgreSQL.
 */
let server: Awaited<ReturnType<typeof startConsoleServer>>;
let browser: Browser;
let page: Page;
let orm: Orm;
let issue: string;
let other: string;

/** The worker of a server process, run until it has nothing to do (no merge window). */
const deliver = () => createNotificationWorker(orm, { mergeWindowMs: 0 }).runUntilIdle();

async function checkScreen(name: string) {
  const violations = await axeViolations(page);
  expect(violations, `${name}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
  await screenshot(page, name);
}

beforeAll(async () => {
  // This file runs the notification worker itself (`deliver`): the server's own is off.
  server = await startConsoleServer({ TRACKLINE_NOTIFY_WORKER: 'off' });
  orm = server.orm;
  const root = await actorFor(orm, 'root');
  await createProject(fork(orm), root, { shortName: 'INB', name: 'Inbox' });
  const watcher = await userWithRole(orm, 'watcher', 'Developer', 'INB');
  await createTag(fork(orm), watcher, { name: 'follow' });
  for (const summary of ['Printing fails', 'Slow start']) {
    const created = await createIssue(fork(orm), root, { project: 'INB', summary });
    await executeCommand(fork(orm), watcher, [created.id], 'star');
    if (summary === 'Printing fails') issue = created.id;
    else other = created.id;
  }
  await deliver();
  await executeCommand(fork(orm), root, [issue], 'Priority Critical', 'Happens on every page.');
  await executeCommand(fork(orm), root, [other], 'State Open');
  await deliver();
  browser = await launchBrowser();
  page = browser.page;
  page.setDefaultTimeout(15_000);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the inbox and notification settings in Chromium', () => {
  it('shows the unread count on the bell and lists what the user was told, with links', async () => {
    await page.goto(`${server.url}/`);
    await page.getByLabel('Login').fill('watcher');
    await page.getByLabel('Password').fill(USER_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    // Two issues created (each told once) and a change of each.
    const bell = page.getByRole('link', { name: 'Inbox, 4 unread' });
    await bell.waitFor();
    await bell.click();
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    const entries = page.getByRole('list', { name: 'Notifications' }).locator('> li');
    await entries.first().waitFor();
    expect(await entries.count()).toBe(4);
    const newest = entries.first();
    expect(await newest.getByRole('heading', { level: 2 }).textContent()).toBe(`${other} Slow start`);
    await newest.getByText('State: Submitted → Open').waitFor();
    const printing = entries.nth(1);
    await printing.getByText('Priority: Normal → Critical').waitFor();
    await printing.getByText('Happens on every page.').waitFor();
    await checkScreen('n1-inbox');
    // A link goes to its issue.
    await printing.getByRole('link', { name: `${issue} Printing fails` }).click();
    await page.getByRole('heading', { level: 1, name: new RegExp(issue) }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
  });

  it('marks one entry read, then all, and the bell follows', async () => {
    await page
      .getByRole('button', { name: `Mark read: ${issue}` })
      .first()
      .click();
    await page.getByRole('link', { name: 'Inbox, 3 unread' }).waitFor();
    await page.getByLabel('Unread only').check();
    await page.getByText(/^3 unread$/).waitFor();
    expect(await page.getByRole('list', { name: 'Notifications' }).locator('> li').count()).toBe(3);
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByRole('link', { name: 'Inbox, nothing unread' }).waitFor();
    await page.getByText('Nothing here.').waitFor();
    await checkScreen('n2-inbox-read');
  });

  it('changes the channels and subscribes to a tag in the settings, saved on the server', async () => {
    await page.getByRole('link', { name: 'Notification settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notification settings' }).waitFor();
    const email = page.getByRole('group', { name: 'E-mail' });
    await email.getByText('This server sends no e-mail.').waitFor();
    await email.getByLabel('Digest', { exact: true }).check();
    await email.getByLabel('E-mail: digest every how many minutes').fill('30');
    await page.getByLabel('Tell me of my own changes too').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('group', { name: 'Tags' }).getByLabel('follow').check();
    await checkScreen('n3-settings');
    const watcher = await actorFor(orm, 'watcher');
    expect(await getNotificationSettings(fork(orm), watcher)).toEqual({
      email: { mode: 'digest', digestMinutes: 30 },
      inapp: { mode: 'each', digestMinutes: 60 },
      ownChanges: true,
    });
    await expect
      .poll(async () => listSubscriptions(fork(orm), watcher))
      .toEqual([{ kind: 'tag', name: 'follow', owner: 'watcher', shared: false }]);
    // A digest period out of range is refused before it is sent, and nothing changes.
    const minutes = email.getByLabel('E-mail: digest every how many minutes');
    await minutes.fill('2');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await minutes.evaluate((el) => (el as HTMLInputElement).validity.rangeUnderflow)).toBe(true);
    expect((await getNotificationSettings(fork(orm), watcher)).email.digestMinutes).toBe(30);
  });
});
