import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * Headless Chromium for the end-to-end tests and the browser benchmark: Debian's `chromium`
 * (`./trackline test` installs it when missing), driven by playwright-core. A missing browser
 * fails the suite with the command that installs it: these tests are never skipped.
 */
export const CHROMIUM = process.env.TRACKLINE_CHROMIUM ?? '/usr/bin/chromium';

/** Flags for a closed network: no background traffic, no first-run, no GPU, no sandbox (root). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where screenshots go (gitignored): apps/web/test-results/screenshots. */
export const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));

export type Browser = {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
  cspViolations: string[];
  pageErrors: string[];
};

/** A fresh browser profile (its own --user-data-dir) with one page. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}. Install it (as root): apt-get update && apt-get install -y chromium ` +
        '(./trackline test does this by itself), or set TRACKLINE_CHROMIUM.',
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'trackline-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 860 },
    acceptDownloads: true,
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply)/i.test(message.text()))
      cspViolations.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  return {
    context,
    page,
    cspViolations,
    pageErrors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type AxeViolation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
};

/**
 * Runs axe-core on the page as it is now (WCAG 2.x A and AA rules and best practices) and
 * answers every violation, whatever its impact (minor and moderate ones included). axe is evaluated through the DevTools protocol,
 * which the page's CSP (own scripts only) does not govern: the page itself stays unchanged.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate('typeof window.axe');
  if (loaded === 'undefined') await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    `window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))`,
  )) as AxeViolation[];
  return violations;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
