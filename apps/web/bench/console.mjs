// The console measured in headless Chromium against the real server (apps/api/dist/main.js) on a
// SQLite file of 10,000 issues (100 projects, 500 users: apps/api/bench/seed-data.mjs). Prints one
// JSON object (its only stdout) for apps/api/bench/run.mjs. Needs `pnpm build` and Chromium.
//
// - first screen: a fresh page load (browser cache emptied) of `/` as a logged-in user until the
//   first page of 50 issues is rendered (the app's `trackline:issues-rendered` mark);
// - keystroke to rendered suggestion: in the command box of one issue, from the key press to the
//   completion list rendered for the new text (a MutationObserver on its `data-for`);
// - a page of 50 issues: from pressing `]` on the list to the next page rendered.
// Baselines measured in the same run, from the same page: the bare tRPC call behind each
// (`fetch` of the same procedure, no React), so the ratios say what the console adds.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApi } from '../../api/bench/bench-support.mjs';
import { buildDatabase } from '../../api/bench/seed-data.mjs';
import { launchBrowser } from '../e2e/browser.ts';

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 10);
const TYPED = 'Priority Critical tag console-bench for me State Open ';
const log = (...args) => console.error('console bench:', ...args);

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (v) => +v.toFixed(1);
  return {
    n: sorted.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    max: round(sorted.at(-1)),
    mean: round(values.reduce((a, b) => a + b, 0) / values.length),
  };
};

const dir = mkdtempSync(join(tmpdir(), 'trackline-bench-console-'));
// BENCH_CONSOLE_DB keeps the database between runs (built when the file is missing).
const file = process.env.BENCH_CONSOLE_DB ?? join(dir, 'bench.sqlite');
let api;
let browser;
try {
  // ISSUES_PER_PROJECT (200 by default: 10,000 in all) is smaller only while debugging this script.
  const perProject = Number(process.env.BENCH_CONSOLE_ISSUES_PER_PROJECT ?? 200);
  if (!existsSync(file)) {
    log(`building the database (100 projects, 500 users, ${50 * perProject} issues)...`);
    const started = Date.now();
    await buildDatabase(file, { issuesPerProject: perProject });
    log(`database ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  api = await startApi(file, {
    env: {
      NODE_ENV: 'production',
      TRACKLINE_CONSOLE_DIR: fileURLToPath(new URL('../dist', import.meta.url)),
    },
  });
  browser = await launchBrowser();
  const { page, context } = browser;
  page.setDefaultTimeout(30_000);
  const login = await fetch(`${api.url}/rest/user/login`, {
    method: 'POST',
    body: new URLSearchParams({ login: 'root', password: 'bench-password' }),
  });
  const session = /JSESSIONID=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  if (!session) throw new Error(`login failed: ${login.status}`);
  await context.addCookies([
    { name: 'JSESSIONID', value: session, url: api.url, httpOnly: true, sameSite: 'Lax' },
  ]);
  const cdp = await context.newCDPSession(page);

  // First screen, cold (browser cache emptied before every load) and warm.
  const firstScreen = async (cold) => {
    if (cold) await cdp.send('Network.clearBrowserCache');
    await page.goto(`${api.url}/`, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => performance.getEntriesByName('trackline:issues-rendered').length > 0,
      null,
      { polling: 5 },
    );
    return page.evaluate(() => performance.getEntriesByName('trackline:issues-rendered')[0].startTime);
  };
  await firstScreen(true); // warm-up: the server compiles its paths, the browser its code cache
  const cold = [];
  const warm = [];
  for (let i = 0; i < RUNS; i++) {
    cold.push(await firstScreen(true));
    warm.push(await firstScreen(false));
  }
  const rows = await page.locator('.issue-row').count();
  if (rows !== 50) throw new Error(`the first screen shows ${rows} issues, not 50`);
  const total = await page.locator('.count').textContent();
  log(`first screen: ${total}`);
  // Baseline: the list's own tRPC call from the page.
  const listCall = [];
  for (let i = 0; i < RUNS; i++) {
    listCall.push(
      await page.evaluate(async () => {
        const input = encodeURIComponent(JSON.stringify({ 0: { filter: '', after: 0, max: 50 } }));
        const t = performance.now();
        const res = await fetch(`/trpc/issues.list?batch=1&input=${input}`);
        await res.json();
        return performance.now() - t;
      }),
    );
  }

  if (process.env.BENCH_CONSOLE_TRACE) {
    page.on('requestfinished', (r) => {
      const t = r.timing();
      log(
        `${r.url().replace(api.url, '').slice(0, 90)} start ${t.startTime.toFixed(0)} ttfb ${t.responseStart.toFixed(0)} end ${t.responseEnd.toFixed(0)}`,
      );
    });
  }
  // A page of 50: `]` from the list, to the next page rendered (pages 2..21, then back).
  await page.locator('.issue-link').first().focus();
  const paging = [];
  const pages = Math.min(20, Math.ceil((50 * perProject) / 50) - 1);
  for (let n = 1; n <= pages; n++) {
    const took = await page.evaluate(
      (after) =>
        new Promise((resolve, reject) => {
          setTimeout(() => reject(new Error(`page after ${after} not rendered in 10 s`)), 10_000);
          performance.clearMarks('trackline:issues-rendered');
          const observer = new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) {
              if (entry.detail?.after === after) {
                observer.disconnect();
                resolve(entry.startTime - start);
              }
            }
          });
          observer.observe({ type: 'mark' });
          const start = performance.now();
          document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: ']', bubbles: true }));
        }),
      n * 50,
    );
    paging.push(took);
  }
  const pageCall = [];
  for (let n = 1; n <= pages; n++) {
    pageCall.push(
      await page.evaluate(async (after) => {
        const input = encodeURIComponent(JSON.stringify({ 0: { filter: '', after, max: 50 } }));
        const t = performance.now();
        await (await fetch(`/trpc/issues.list?batch=1&input=${input}`)).json();
        return performance.now() - t;
      }, n * 50),
    );
  }

  // Keystroke to rendered suggestion, in the command box of one issue.
  const issue = `P001-${Math.min(17, perProject)}`;
  await page.goto(`${api.url}/issue/${issue}`);
  await page.getByRole('heading', { level: 1, name: new RegExp(issue) }).waitFor();
  await page.getByRole('button', { name: 'Command…' }).click();
  const input = page.getByRole('combobox', { name: 'Command' });
  await input.waitFor();
  const keystroke = async (char) =>
    page.evaluate(
      (c) =>
        new Promise((resolve, reject) => {
          const field = document.querySelector('.command-input input');
          const list = document.querySelector('.command-input [role="listbox"]');
          const want = field.value + c;
          let start = 0;
          const done = () => {
            if (list.getAttribute('data-for') === want) {
              observer.disconnect();
              resolve(performance.now() - start);
              return true;
            }
            return false;
          };
          const observer = new MutationObserver(done);
          setTimeout(
            () =>
              reject(
                new Error(`no completions for "${want}" in 10 s (shown: "${list.getAttribute('data-for')}")`),
              ),
            10_000,
          );
          observer.observe(list, { attributes: true, childList: true, subtree: true });
          start = performance.now();
          // What a key press does to a React input: the value, then an input event.
          const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
          setter.call(field, want);
          field.setSelectionRange(want.length, want.length);
          field.dispatchEvent(new Event('input', { bubbles: true }));
        }),
      char,
    );
  // Warm-up: the vocabulary of the issue's project is built once.
  for (const c of 'Priority ') await keystroke(c);
  await input.fill('');
  const keys = [];
  for (let round = 0; round < 3; round++) {
    await input.fill('');
    for (const c of TYPED) keys.push(await keystroke(c));
  }
  const assistCall = [];
  for (let i = 1; i <= TYPED.length; i++) {
    assistCall.push(
      await page.evaluate(
        async ([id, text]) => {
          const input = encodeURIComponent(
            JSON.stringify({ 0: { issueIds: id, command: text, caret: text.length, optionsLimit: 12 } }),
          );
          const t = performance.now();
          await (await fetch(`/trpc/commands.underlineAndSuggestAndCommands?batch=1&input=${input}`)).json();
          return performance.now() - t;
        },
        [issue, TYPED.slice(0, i)],
      ),
    );
  }

  const result = {
    issues: 50 * perProject,
    runs: RUNS,
    firstScreenMs: { cold: stats(cold), warm: stats(warm), target: 1000 },
    firstScreenListCallMs: stats(listCall),
    pageOf50Ms: { rendered: stats(paging), target: 100 },
    pageOf50CallMs: stats(pageCall),
    keystrokeToSuggestionMs: { rendered: stats(keys), target: 30 },
    keystrokeAssistCallMs: stats(assistCall),
  };
  result.ratios = {
    firstScreenColdP95ToTarget: +(result.firstScreenMs.cold.p95 / 1000).toFixed(3),
    pageOf50P95ToTarget: +(result.pageOf50Ms.rendered.p95 / 100).toFixed(3),
    keystrokeP95ToTarget: +(result.keystrokeToSuggestionMs.rendered.p95 / 30).toFixed(3),
    pageOf50RenderedToCall: +(result.pageOf50Ms.rendered.p50 / result.pageOf50CallMs.p50).toFixed(2),
    keystrokeRenderedToCall: +(
      result.keystrokeToSuggestionMs.rendered.p50 / result.keystrokeAssistCallMs.p50
    ).toFixed(2),
  };
  if (browser.cspViolations.length || browser.pageErrors.length)
    throw new Error(`page errors: ${[...browser.cspViolations, ...browser.pageErrors].join('; ')}`);
  console.log(JSON.stringify(result));
} finally {
  await browser?.close();
  api?.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
