import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, startSession } from './session.js';

/**
 * Markdown in descriptions and comments, rendered by markdown-it (raw HTML off) and sanitised by
 * DOMPurify: formatting shows, links carry rel="noopener noreferrer", and no payload runs a
 * script, loads a resource or keeps a `javascript:` address; a Preview tab shows a comment before
 * it is sent. The page's CSP reports nothing on the way.
 */

let s: Session;
let page: Page;

const DESCRIPTION = [
  'Fails on **Chrome 131** and _Firefox_, see `app.js`:',
  '',
  '1. Open the form',
  '2. Paste a long password',
  '3. Press Save',
  '',
  '- [x] reproduced',
  '',
  '> the log says it timed out',
  '',
  'Details on [the tracker](https://example.com/bug?id=1) or https://example.org.',
].join('\n');

/** Payloads a hostile reporter might write; each tries to run `window.__xss = n` or to load something. */
const PAYLOADS = [
  '<script>window.__xss = 1</script>',
  '<img src=x onerror="window.__xss = 2">',
  '[click me](javascript:window.__xss=3)',
  '[mixed case](JaVaScRiPt:window.__xss=4)',
  '[entity](&#106;avascript:window.__xss=5)',
  '<a href="javascript:window.__xss=6">raw link</a>',
  '[data](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9Nzwvc2NyaXB0Pg==)',
  '![tracking pixel](https://evil.example/pixel.png)',
  '<iframe src="https://evil.example/"></iframe>',
  '<javascript:window.__xss=8>',
  '[vb](vbscript:msgbox(9))',
  '<svg onload="window.__xss=10"></svg>',
  '<style>body{display:none}</style>',
  '[title](https://example.com "x\\" onmouseover=\\"window.__xss=11")',
].join('\n\n');

beforeAll(async () => {
  s = await startSession();
  page = s.page;
  await s.call('issues.update', { issue: 'DEMO-10', description: DESCRIPTION }, { mutation: true });
  await s.call('issues.update', { issue: 'DEMO-11', description: PAYLOADS }, { mutation: true });
  await s.call('commands.execute', { issues: ['DEMO-11'], comment: PAYLOADS }, { mutation: true });
});
afterAll(() => s?.close());

describe('Markdown', () => {
  it('renders a description: emphasis, lists, code, quotes and links', async () => {
    await s.open('/issue/DEMO-10');
    const description = page.locator('.description');
    await description.locator('strong', { hasText: 'Chrome 131' }).waitFor();
    expect(await description.locator('em', { hasText: 'Firefox' }).count()).toBe(1);
    expect(await description.locator('code', { hasText: 'app.js' }).count()).toBe(1);
    expect(await description.locator('ol > li').count()).toBe(3);
    expect(await description.locator('blockquote').count()).toBe(1);
    const links = description.locator('a');
    expect(await links.count()).toBe(2);
    for (const link of await links.all()) expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await description.getByRole('link', { name: 'the tracker' }).getAttribute('href')).toBe(
      'https://example.com/bug?id=1',
    );
    expect(await description.textContent()).not.toContain('**');
    await s.check('s5-markdown-description');
  });

  it('previews a comment while it is written, then shows it rendered', async () => {
    await s.open('/issue/DEMO-10');
    await page.getByLabel('Add a comment').fill('Works **now** with `--flag`.');
    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.getByRole('tabpanel', { name: 'Preview' });
    await preview.locator('strong', { hasText: 'now' }).waitFor();
    await s.check('s5-comment-preview');
    await page.getByRole('tab', { name: 'Write' }).click();
    expect(await page.getByLabel('Add a comment').inputValue()).toBe('Works **now** with `--flag`.');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.locator('.comment .comment-text strong', { hasText: 'now' }).waitFor();
    await page.locator('.comment .comment-text code', { hasText: '--flag' }).waitFor();
  });

  it('runs no payload, loads nothing and keeps no script address, in descriptions and comments', async () => {
    await s.open('/issue/DEMO-11');
    await page.locator('.comment .comment-text').first().waitFor();
    await page.locator('.description').waitFor();
    // Hover and click every link the payloads left (none should run anything).
    for (const link of await page.locator('.markdown a').all()) {
      const href = (await link.getAttribute('href')) ?? '';
      expect(href).not.toMatch(/^\s*(javascript|vbscript|data):/i);
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      await link.hover();
    }
    for (const selector of [
      'script',
      'img',
      'iframe',
      'svg',
      'style',
      '[onerror]',
      '[onload]',
      '[onmouseover]',
    ])
      expect(await page.locator(`.markdown ${selector}`).count(), selector).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    // Raw HTML shows as typed.
    expect(await page.locator('.description').textContent()).toContain('<script>window.__xss = 1</script>');
    await s.check('s5-markdown-payloads');
  });

  it('met no CSP violation and no page error', () => {
    expect(s.browser.cspViolations).toEqual([]);
    expect(s.browser.pageErrors).toEqual([]);
  });
});
