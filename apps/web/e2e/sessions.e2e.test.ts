import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, startSession } from './session.js';

/**
 * Sessions and failures: a session that ends sends the page to the login form and back to the
 * same URL; a server out of reach is said plainly, with Retry, and the page recovers by itself;
 * what the caller may not do is hidden or disabled with the reason; admin screens say "no access";
 * wrong URLs answer a not-found page; a page past the end clamps; an empty project offers its
 * first issue; titles name the page; errors read without internal prefixes.
 */

let s: Session;
let page: Page;

beforeAll(async () => {
  s = await startSession();
  page = s.page;
  await s.call(
    'users.create',
    { login: 'rita', fullName: 'Rita Reporter', password: 'rita-password-1' },
    { mutation: true },
  );
  await s.call('users.grantRole', { login: 'rita', role: 'Reporter', project: 'DEMO' }, { mutation: true });
  await s.call(
    'projects.create',
    { project: 'EMPTY', projectName: 'Nothing yet', description: '', projectLeadLogin: 'root' },
    { mutation: true },
  );
});
afterAll(() => s?.close());

const loginForm = () => page.getByRole('heading', { name: 'Log in to Trackline' });

describe('sessions and failures', () => {
  it('sends an ended session to the login form, and back to the same page after logging in', async () => {
    await s.open('/issue/DEMO-5');
    await page.getByRole('heading', { level: 1, name: /DEMO-5/ }).waitFor();
    // The session ends (expired, revoked): the next call answers 401.
    await s.browser.context.clearCookies();
    await page.getByLabel('Add a comment').fill('Typed while the session ended.');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await loginForm().waitFor();
    expect(await page.getByRole('button', { name: 'Log out' }).count()).toBe(0);
    await page.getByText(/session has ended/i).waitFor();
    await s.check('s3-session-ended');
    await s.logIn();
    await page.getByRole('heading', { level: 1, name: /DEMO-5/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/issue/DEMO-5');
    // A query failing the same way (a navigation inside the page).
    await s.browser.context.clearCookies();
    await page.getByRole('link', { name: 'Demo project' }).click();
    await loginForm().waitFor();
    await s.logIn();
    await page.locator('.count').filter({ hasText: '1–50 of 60 issues' }).waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('project: DEMO');
  });

  it('says plainly when the server is out of reach, offers Retry, and recovers by itself', async () => {
    await s.open('/');
    await page
      .locator('.count')
      .filter({ hasText: /of 63 issues/ })
      .waitFor();
    await page.route('**/trpc/**', (route) => route.abort('connectionrefused'));
    await page.route('**/health', (route) => route.abort('connectionrefused'));
    await page
      .getByRole('navigation', { name: 'Folders' })
      .getByRole('button', { name: /Demo project/ })
      .click();
    const down = page.getByRole('alert').filter({ hasText: /cannot reach the server/i });
    await down.waitFor();
    expect(await page.getByText('Failed to fetch').count()).toBe(0);
    expect(await page.getByText('No issues').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Command for all 0/ }).count()).toBe(0);
    await down.getByRole('button', { name: 'Retry now' }).waitFor();
    await s.check('s3-server-down');
    await page.unroute('**/trpc/**');
    await page.unroute('**/health');
    // Back without a click: the page tries again by itself.
    await page.locator('.count').filter({ hasText: '1–50 of 60 issues' }).waitFor({ timeout: 20_000 });
    await down.waitFor({ state: 'detached' });
  });

  it('clamps a page past the end, answers wrong URLs with a not-found page, and names every page in its title', async () => {
    await s.open(`/?q=${encodeURIComponent('project: DEMO')}&page=999`);
    await page.locator('.count').filter({ hasText: '51–60 of 60 issues' }).waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await page.title()).toBe('project: DEMO — Issues — Trackline');
    await s.open('/');
    await expect.poll(() => page.title()).toBe('Issues — Trackline');
    await s.open('/issue/DEMO-5');
    await page.getByRole('heading', { level: 1, name: /DEMO-5/ }).waitFor();
    expect(await page.title()).toMatch(/^DEMO-5 .+ — Trackline$/);
    for (const path of ['/no/such/page', '/admin/nope']) {
      await s.open(path);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      expect(await page.title()).toBe('Page not found — Trackline');
      await page.getByRole('link', { name: 'Go to the issues' }).waitFor();
    }
    await s.check('s3-not-found');
    await s.open('/admin/users');
    await expect.poll(() => page.title()).toBe('Users — Administration — Trackline');
  });

  it('offers to create the first issue of an empty project, in that project', async () => {
    await s.open(`/?q=${encodeURIComponent('project: EMPTY')}`);
    await page.getByText(/No issues in EMPTY yet/).waitFor();
    await s.check('s3-empty-project');
    await page.getByRole('button', { name: 'Create the first issue' }).click();
    const dialog = page.getByRole('dialog', { name: 'New issue' });
    expect(await dialog.getByLabel('Project').inputValue()).toBe('EMPTY');
    await dialog.getByLabel('Summary').fill('The very first');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { level: 1, name: /EMPTY-1/ }).waitFor();
  });

  it('shows errors without internal prefixes', async () => {
    await s.open(`/?q=${encodeURIComponent('State: Nonsense')}`);
    const error = page.locator('.issues-main').getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).not.toMatch(/^(filter|query|command):/);
    await s.open('/issue/DEMO-5');
    await page.getByRole('heading', { level: 1, name: /DEMO-5/ }).waitFor();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Command for DEMO-5' });
    await dialog.getByRole('combobox', { name: 'Command' }).fill('Priority Nonsense');
    await page.keyboard.press('Control+Enter');
    const refused = dialog.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).not.toMatch(/^(filter|query|command):/);
    await page.keyboard.press('Escape');
  });

  it('hides or disables with the reason what a Reporter may not do, and says no access on admin screens', async () => {
    await s.open('/');
    await page.getByRole('button', { name: 'Log out' }).click();
    await s.logIn('rita', 'rita-password-1');
    await s.open('/issue/DEMO-5');
    await page.getByRole('heading', { level: 1, name: /DEMO-5/ }).waitFor();
    const state = page.getByRole('combobox', { name: 'State' });
    expect(await state.isDisabled()).toBe(true);
    const reason = await state.evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
    expect(reason).toMatch(/Update issue/);
    expect(await page.getByRole('button', { name: 'Edit summary and description' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add work' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete issue' }).count()).toBe(0);
    // What a Reporter may do stays: comments and attachments.
    await page.getByLabel('Add a comment').waitFor();
    await page.getByRole('button', { name: 'Upload' }).waitFor();
    await s.check('s3-reporter-issue');
    expect(await page.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    for (const path of ['/admin', '/admin/users', '/admin/groups', '/admin/projects/DEMO']) {
      await s.open(path);
      await page.getByRole('heading', { level: 1, name: 'No access' }).waitFor();
      expect(await page.getByRole('table').count()).toBe(0);
    }
    await s.check('s3-no-access');
  });
});
