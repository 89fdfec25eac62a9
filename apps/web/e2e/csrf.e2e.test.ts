import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from '@trackline/api';
import { createIssue, createProject, Issue, IssueComment, type Orm } from '@trackline/domain';
import {
  actorFor,
  createTestOrm,
  fork,
  ROOT_PASSWORD,
  USER_PASSWORD,
  userWithRole,
} from '@trackline/domain/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from './browser.js';
import { CONSOLE_DIR } from './console-server.js';

/**
 * Issue 37, item 6, in a real Chromium with two origins on one host: Trackline on one port of
 * 127.0.0.1, pages of other origins on two other ports. The session cookie (SameSite=Lax) goes
 * with requests those pages make the browser send (another port of the host is the same site):
 * a form post, a no-cors fetch with a text/plain body, a login form. Such a change is refused
 * unless its origin is listed in TRACKLINE_ALLOWED_ORIGINS; the console itself keeps working.
 */

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** A page of another origin that makes the browser post to `target` as soon as it loads. */
function attackerPages(target: () => string) {
  const page = (body: string) =>
    `<!doctype html><html><head><title>attacker</title></head><body>${body}</body></html>`;
  const autoForm = (action: string, fields: Record<string, string>) =>
    page(
      `<form id="f" method="post" action="${target()}${action}">` +
        Object.entries(fields)
          .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
          .join('') +
        '</form><script>document.getElementById("f").submit()</script>',
    );
  return createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://attacker');
    const name = url.searchParams.get('name') ?? 'x';
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/issue')
      return void res.end(autoForm(`/rest/issue?project=CS&summary=forged-${name}`, { description: 'csrf' }));
    if (url.pathname === '/comment')
      return void res.end(autoForm('/rest/issue/CS-1/execute', { comment: `forged-comment-${name}` }));
    if (url.pathname === '/fetch')
      return void res.end(
        page(
          `<script>fetch(${JSON.stringify(`${target()}/rest/issue/CS-1/execute`)}, { method: 'POST', mode: 'no-cors', ` +
            `credentials: 'include', headers: { 'content-type': 'text/plain' }, body: 'comment=forged-fetch-${name}' })` +
            ".finally(() => { document.title = 'done'; });</script>",
        ),
      );
    if (url.pathname === '/login')
      return void res.end(autoForm('/rest/user/login', { login: 'mallory', password: USER_PASSWORD }));
    res.statusCode = 404;
    res.end(page('nothing'));
  });
}

describe('cross-site request forgery in Chromium (two origins on one host)', () => {
  let orm: Orm;
  let trackline: Server;
  let tracklineUrl = '';
  const attacker = attackerPages(() => tracklineUrl);
  const friend = attackerPages(() => tracklineUrl);
  let attackerUrl = '';
  let friendUrl = '';
  let browser: Browser;
  let page: Page;

  const summaries = async () => (await fork(orm).find(Issue, {})).map((i) => i.summary);
  const comments = async () => (await fork(orm).find(IssueComment, {})).map((c) => c.text);
  /** The login of the console's session, asked from the console's own page. */
  const signedIn = async () => {
    await page.goto(`${tracklineUrl}/`);
    return page.evaluate(async () => {
      const res = await fetch('/rest/user/current', { headers: { accept: 'application/json' } });
      return res.ok ? ((await res.json()) as { login: string }).login : `status ${res.status}`;
    });
  };
  /** Opens the other origin's page, which posts to Trackline at once, and waits for the answer. */
  const visit = async (base: string, path: string) => {
    await page.goto(`${base}${path}`);
    if (path.startsWith('/fetch')) await page.waitForFunction(() => document.title === 'done');
    else {
      await page.waitForURL((url) => url.origin === tracklineUrl);
      await page.waitForLoadState();
    }
  };

  beforeAll(async () => {
    orm = await createTestOrm();
    const root = await actorFor(orm, 'root');
    await createProject(fork(orm), root, { shortName: 'CS', name: 'Cross-site' });
    await createIssue(fork(orm), root, { project: 'CS', summary: 'target' });
    await userWithRole(orm, 'mallory', 'Developer', 'CS');
    attackerUrl = await listen(attacker);
    friendUrl = await listen(friend);
    trackline = createServer({
      orm,
      consoleDir: CONSOLE_DIR,
      allowedOrigins: [friendUrl],
      logError: (error) => console.error('server error:', error),
    });
    trackline.keepAliveTimeout = 60_000;
    tracklineUrl = await listen(trackline);
    browser = await launchBrowser();
    page = browser.page;
    page.setDefaultTimeout(15_000);
    // root logs in to the console: the browser now holds its session cookie for 127.0.0.1.
    await page.goto(`${tracklineUrl}/`);
    await page.getByLabel('Login').fill('root');
    await page.getByLabel('Password').fill(ROOT_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('navigation', { name: 'Folders' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([trackline, attacker, friend].map((s) => (s.listening ? close(s) : undefined)));
    await orm?.close(true);
  });

  it('a form post and a no-cors fetch from another port create nothing as the logged-in user', async () => {
    await visit(attackerUrl, '/issue?name=a');
    expect(await page.locator('body').textContent()).toContain('Cross-site request refused');
    await visit(attackerUrl, '/comment?name=a');
    await visit(attackerUrl, '/fetch?name=a');
    expect(await summaries()).not.toContain('forged-a');
    expect((await comments()).filter((c) => c.startsWith('forged'))).toEqual([]);
  });

  it('an origin listed in TRACKLINE_ALLOWED_ORIGINS may (the cookie does reach the server from another port)', async () => {
    await visit(friendUrl, '/issue?name=friend');
    expect(await summaries()).toContain('forged-friend');
  });

  it('the console keeps working: its own form posts and typed-client calls', async () => {
    await page.goto(`${tracklineUrl}/`);
    const status = await page.evaluate(async () => {
      const form = await fetch('/rest/issue/CS-1/execute', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'comment=from-the-console',
      });
      const trpc = await fetch('/trpc/issues.create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-trackline-client': 'typed' },
        body: JSON.stringify({ project: 'CS', summary: 'from the typed client' }),
      });
      return [form.status, trpc.status];
    });
    expect(status).toEqual([200, 200]);
    expect(await comments()).toContain('from-the-console');
    expect(await summaries()).toContain('from the typed client');
  });

  it('a login form on another origin does not switch the console to the attacker’s account', async () => {
    expect(await signedIn()).toBe('root');
    await visit(attackerUrl, '/login');
    expect(await signedIn()).toBe('root');
  });
});
