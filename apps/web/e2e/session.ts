import type { Actor, Orm } from '@trackline/domain';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations, type Browser, launchBrowser, screenshot } from './browser.js';
import { startConsoleServer } from './console-server.js';
import { seedTracker } from './seed.js';

export const ROOT_PASSWORD = 'root-password';

export type Session = {
  server: Awaited<ReturnType<typeof startConsoleServer>>;
  browser: Browser;
  page: Page;
  root: Actor;
  orm: Orm;
  /** Opens a console path (`/`, `/issue/DEMO-1`…) and waits for the page's main landmark. */
  open(path: string): Promise<void>;
  /** Logs in with the form on the current page. */
  logIn(login?: string, password?: string): Promise<void>;
  /** Axe on the screen as it is (no violation of any impact) and a picture of it. */
  check(name: string): Promise<void>;
  /** A tRPC call from outside the browser, as `login` (HTTP Basic). */
  call<T>(
    path: string,
    input: unknown,
    options?: { login?: string; password?: string; mutation?: boolean },
  ): Promise<T>;
  close(): Promise<void>;
};

/**
 * One end-to-end session: the real server on a fresh seeded database (seedTracker, `issues` in
 * DEMO), a fresh Chromium, logged in as root unless `loggedIn` is false.
 */
export async function startSession(
  options: { issues?: number; loggedIn?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<Session> {
  const server = await startConsoleServer();
  const root = await seedTracker(server.orm, options.issues === undefined ? {} : { issues: options.issues });
  const browser = await launchBrowser();
  const page = browser.page;
  page.setDefaultTimeout(15_000);
  if (options.viewport) await page.setViewportSize(options.viewport);
  const session: Session = {
    server,
    browser,
    page,
    root,
    orm: server.orm,
    async open(path) {
      await page.goto(`${server.url}${path}`);
      await page.locator('main').first().waitFor();
    },
    async logIn(login = 'root', password = ROOT_PASSWORD) {
      await page.getByLabel('Login').fill(login);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('button', { name: 'Log out' }).waitFor();
    },
    async check(name) {
      const violations = await axeViolations(page);
      expect(violations, `${name}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
      await screenshot(page, name);
    },
    async call<T>(
      path: string,
      input: unknown,
      opts: { login?: string; password?: string; mutation?: boolean } = {},
    ): Promise<T> {
      const auth = `Basic ${Buffer.from(`${opts.login ?? 'root'}:${opts.password ?? ROOT_PASSWORD}`).toString('base64')}`;
      const url = opts.mutation
        ? `${server.url}/trpc/${path}`
        : `${server.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;
      const res = await fetch(url, {
        method: opts.mutation ? 'POST' : 'GET',
        headers: { authorization: auth, 'content-type': 'application/json' },
        ...(opts.mutation ? { body: JSON.stringify(input) } : {}),
      });
      const body = (await res.json()) as { result?: { data: T }; error?: unknown };
      if (!res.ok || !body.result) throw new Error(`${path}: ${res.status} ${JSON.stringify(body.error)}`);
      return body.result.data;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
  if (options.loggedIn !== false) {
    await session.open('/');
    await session.logIn();
  }
  return session;
}

/** The names of an issue's tags, read from outside the browser. */
export async function tagsOf(session: Session, issue: string): Promise<string[]> {
  const view = await session.call<{ tags: { name: string }[] }>('issues.view', { issue });
  return view.tags.map((t) => t.name);
}
