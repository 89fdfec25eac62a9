import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './browser.js';
import { type Session, startSession } from './session.js';

/**
 * The layout from a phone (390x844) to a desktop (1440x900): no page scrolls sideways (the page's
 * scrollWidth stays within the window) on the list, the issue page, the command dialog and every
 * administration screen; on a phone the folders are a drawer, the top bar fits, and the issue's
 * fields come before its comments. Each screen passes axe and is photographed at both sizes.
 */

let s: Session;
let page: Page;

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;

const LONG = 'A-very-long-unbroken-word-that-a-narrow-screen-must-wrap-'.repeat(4);

beforeAll(async () => {
  s = await startSession();
  page = s.page;
  await s.call(
    'commands.execute',
    { issues: ['DEMO-1'], comment: `Seen on the nightly build. ${LONG}` },
    { mutation: true },
  );
  await s.call('issues.update', { issue: 'DEMO-2', summary: `Summary ${LONG}` }, { mutation: true });
});
afterAll(() => s?.close());

const horizontalOverflow = () =>
  page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));

async function fits(name: string) {
  const { scrollWidth, innerWidth } = await horizontalOverflow();
  expect(scrollWidth, `${name}: ${scrollWidth} px wide in a ${innerWidth} px window`).toBeLessThanOrEqual(
    innerWidth,
  );
  await s.check(name);
}

const SCREENS: { name: string; path: string; ready: (p: Page) => Promise<unknown> }[] = [
  {
    name: 'list',
    path: '/',
    ready: (p) =>
      p
        .locator('.count')
        .filter({ hasText: /of 63 issues/ })
        .waitFor(),
  },
  {
    name: 'issue',
    path: '/issue/DEMO-1',
    ready: (p) => p.locator('.comment', { hasText: 'nightly build' }).waitFor(),
  },
  {
    name: 'issue-long-summary',
    path: '/issue/DEMO-2',
    ready: (p) => p.getByRole('heading', { level: 1, name: /DEMO-2/ }).waitFor(),
  },
  { name: 'admin-projects', path: '/admin', ready: (p) => p.getByRole('link', { name: 'DEMO' }).waitFor() },
  {
    name: 'admin-project',
    path: '/admin/projects/DEMO',
    ready: (p) => p.getByRole('heading', { name: 'Project DEMO' }).waitFor(),
  },
  {
    name: 'admin-fields',
    path: '/admin/fields',
    ready: (p) => p.getByRole('heading', { name: 'Fields', level: 1 }).waitFor(),
  },
  {
    name: 'admin-users',
    path: '/admin/users',
    ready: (p) => p.getByRole('link', { name: 'root', exact: true }).waitFor(),
  },
  {
    name: 'admin-user',
    path: '/admin/users/root',
    ready: (p) => p.getByRole('heading', { level: 1 }).waitFor(),
  },
  {
    name: 'admin-groups',
    path: '/admin/groups',
    ready: (p) => p.getByRole('button', { name: 'Developers', exact: true }).waitFor(),
  },
  {
    name: 'admin-roles',
    path: '/admin/roles',
    ready: (p) => p.getByRole('button', { name: 'Developer', exact: true }).waitFor(),
  },
  {
    name: 'admin-link-types',
    path: '/admin/link-types',
    ready: (p) => p.getByRole('cell', { name: 'Relates', exact: true }).waitFor(),
  },
  {
    name: 'admin-vcs',
    path: '/admin/vcs',
    ready: (p) => p.getByRole('heading', { name: 'VCS integrations', level: 1 }).waitFor(),
  },
  {
    name: 'profile',
    path: '/profile',
    ready: (p) => p.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor(),
  },
  {
    name: 'not-found',
    path: '/no/such/page',
    ready: (p) => p.getByRole('heading', { name: 'Page not found' }).waitFor(),
  },
];

describe.each(SIZES)('at $width x $height', (size) => {
  beforeAll(async () => {
    await page.setViewportSize({ width: size.width, height: size.height });
  });

  it('no screen scrolls sideways, and each passes axe', async () => {
    for (const screen of SCREENS) {
      await s.open(screen.path);
      await screen.ready(page);
      await fits(`s4-${size.name}-${screen.name}`);
    }
    // An admin screen with its nested parts open (a bundle's values, a group's roles).
    await s.open('/admin/projects/DEMO');
    await page.locator('summary', { hasText: 'Priority' }).click();
    await page.getByRole('combobox', { name: 'Colour of Major' }).waitFor();
    await fits(`s4-${size.name}-admin-project-bundle`);
    await s.open('/admin/groups');
    await page.getByRole('button', { name: 'Developers', exact: true }).click();
    await page.getByRole('list', { name: 'Members of Developers' }).waitFor();
    await fits(`s4-${size.name}-admin-group-open`);
    await s.open('/admin/roles');
    await page.getByRole('button', { name: 'Developer', exact: true }).click();
    await page.getByRole('group', { name: 'Permissions of Developer' }).waitFor();
    await fits(`s4-${size.name}-admin-role-open`);
  });

  it('fits the command dialog, with its completions open', async () => {
    await s.open(`/?q=${encodeURIComponent('project: DEMO')}`);
    await page.locator('.count').filter({ hasText: 'of 60 issues' }).waitFor();
    await page.getByRole('button', { name: /^Command for all/ }).click();
    const dialog = page.getByRole('dialog', { name: /Command for 60/ });
    await page.keyboard.type('Priority ');
    await dialog.getByRole('option').first().waitFor();
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= size.width).toBe(true);
    await fits(`s4-${size.name}-command`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
  });

  it('keeps the top bar on the screen, Log out included', async () => {
    await s.open('/');
    const logOut = await page.getByRole('button', { name: 'Log out' }).boundingBox();
    expect(logOut && logOut.x + logOut.width <= size.width).toBe(true);
  });
});

describe('on a phone', () => {
  beforeAll(async () => {
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it('shows the folders as a drawer, closed until asked for', async () => {
    await s.open('/');
    await page
      .locator('.count')
      .filter({ hasText: /of 63 issues/ })
      .waitFor();
    const folders = page.getByRole('navigation', { name: 'Folders' });
    expect(await folders.isVisible()).toBe(false);
    // The first issue is on the first screen, not below the folders.
    const first = await page.locator('.issue-row').first().boundingBox();
    expect(first && first.y < 844).toBe(true);
    const toggle = page.getByRole('button', { name: 'Folders', exact: true });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await folders.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 's4-phone-drawer');
    await folders.getByRole('button', { name: /Demo project/ }).click();
    await page.locator('.count').filter({ hasText: 'of 60 issues' }).waitFor();
    // Picking a folder closes the drawer.
    await folders.waitFor({ state: 'hidden' });
    // Summaries have the row's width and are not cut (no ellipsis on a summary this long).
    const link = page.locator('.issue-link').first();
    expect((await link.boundingBox())?.width ?? 0).toBeGreaterThan(300);
    expect(await link.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });

  it('puts the fields above the comments on the issue page', async () => {
    await s.open('/issue/DEMO-1');
    await page.locator('.comment', { hasText: 'nightly build' }).waitFor();
    const fields = await page.getByRole('complementary', { name: 'Fields' }).boundingBox();
    const comments = await page.getByRole('heading', { name: /^Comments/ }).boundingBox();
    expect(fields && comments && fields.y < comments.y).toBe(true);
  });
});
