// Lighthouse (the npm package's CLI, driven through its chrome-launcher with CHROME_PATH: Debian's
// Chromium, nothing downloaded) on the console's issue list and issue page, as a phone (Lighthouse's
// default mobile emulation) and as a desktop (`--preset=desktop`), logged in with a session cookie.
// Scores Accessibility and Best Practices; exits 1 when one is below 95. Reports go to
// apps/web/test-results/lighthouse/ (gitignored); the summary is printed as a table.
//
//   pnpm --filter @trackline/web lighthouse        (needs `pnpm build` and /usr/bin/chromium)
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CHROMIUM } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { seedTracker } from '../e2e/seed.ts';

const run = promisify(execFile);
const OUT = fileURLToPath(new URL('../test-results/lighthouse/', import.meta.url));
const BIN = fileURLToPath(new URL('../node_modules/.bin/lighthouse', import.meta.url));
const MIN = 95;
const PAGES = [
  { name: 'list', path: '/' },
  { name: 'issue', path: '/issue/DEMO-13' },
];
const FORMS = [
  { name: 'mobile', flags: [] },
  { name: 'desktop', flags: ['--preset=desktop'] },
];
// The browser flags of the end-to-end tests (a closed network: no background traffic).
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
].join(' ');

mkdirSync(OUT, { recursive: true });
const server = await startConsoleServer();
const rows = [];
try {
  await seedTracker(server.orm);
  const login = await fetch(`${server.url}/rest/user/login`, {
    method: 'POST',
    body: new URLSearchParams({ login: 'root', password: 'root-password' }),
  });
  const session = /JSESSIONID=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  if (!session) throw new Error(`login failed: ${login.status}`);
  for (const page of PAGES) {
    for (const form of FORMS) {
      const report = join(OUT, `${page.name}-${form.name}.json`);
      await run(
        BIN,
        [
          `${server.url}${page.path}`,
          '--only-categories=accessibility,best-practices',
          // The page as Lighthouse saw it, to check it is the logged-in page (saved beside the report).
          '--only-audits=final-screenshot',
          `--chrome-flags=${CHROME_FLAGS}`,
          `--extra-headers=${JSON.stringify({ Cookie: `JSESSIONID=${session}` })}`,
          '--output=json',
          `--output-path=${report}`,
          '--quiet',
          ...form.flags,
        ],
        { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024 },
      );
      const result = JSON.parse(readFileSync(report, 'utf8'));
      const shot = result.audits['final-screenshot']?.details?.data;
      if (typeof shot === 'string')
        writeFileSync(
          join(OUT, `${page.name}-${form.name}.jpg`),
          Buffer.from(shot.split(',')[1] ?? '', 'base64'),
        );
      const score = (id) => Math.round((result.categories[id]?.score ?? 0) * 100);
      const failing = Object.values(result.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
        .map((a) => a.id);
      rows.push({
        page: page.name,
        form: form.name,
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        failing: failing.join(' '),
      });
    }
  }
} finally {
  await server.close();
}
console.table(rows);
const low = rows.filter((r) => r.accessibility < MIN || r.bestPractices < MIN);
if (low.length > 0) {
  console.error(`lighthouse: below ${MIN}: ${low.map((r) => `${r.page}/${r.form}`).join(', ')}`);
  process.exit(1);
}
