import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The files that run a second time in the PostgreSQL pass with every test server made of two
 * hosts on the one database behind a load balancer (`TRACKLINE_TEST_HOSTS=2`, test/two-hosts.ts):
 * attachments and their quotas, sessions and tokens, the login throttle, caches after admin
 * changes, VCS hooks, search after writes, notifications (e-mail, unsubscribe links, webhooks), and
 * the write mix. State one host keeps for itself fails them.
 */
const TWO_HOST_FILES = [
  'test/attachments.rest.test.ts',
  'test/compat/multipart.compat.test.ts',
  'test/security/issue-20/06-attachment-quotas.test.ts',
  'test/security/issue-20/07-delete-issue-during-upload.test.ts',
  'test/security/issue-20/08-upload-all-or-nothing.test.ts',
  'test/security/issue-20/09-attachment-names.test.ts',
  'test/auth.rest.test.ts',
  'test/security/03-no-response-replay.test.ts',
  'test/security/06-sessions.test.ts',
  'test/security/02-parallel-login-lockout.test.ts',
  'test/security/issue-20/13-parallel-right-password.test.ts',
  'test/security/issue-20/14-security-log.test.ts',
  'test/admin.rest.test.ts',
  'test/security/05-permission-escalation.test.ts',
  'test/security/issue-20/04-truncate-epoch.pg.test.ts',
  'test/vcs/receiver.rest.test.ts',
  'test/vcs/admin.rest.test.ts',
  'test/issues.rest.test.ts',
  'test/folders.rest.test.ts',
  'test/concurrency.rest.test.ts',
  'test/notifications.email.test.ts',
  'test/webhooks.rest.test.ts',
  'test/write-mix.soak.test.ts',
];

const include = ['test/**/*.test.ts', 'src/**/*.test.ts'];

export default defineConfig({
  // The test server (src/testing) reaches the API by its package name; here it is the sources.
  resolve: {
    alias: [
      { find: /^@trackline\/api$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Every file opens its own database and server and closes them, and the in-memory caches of
    // the API are kept per database: files can share a worker's module graph, so it is loaded
    // once per worker instead of once per file (it was a quarter of this package's run).
    isolate: false,
    // Vitest's default in `run` mode is one worker fewer than the cores: one on a 2-core machine.
    maxWorkers: availableParallelism(),
    projects:
      process.env.TRACKLINE_TEST_DB === 'postgres'
        ? [
            { extends: true, test: { name: 'one-host', include } },
            {
              extends: true,
              test: { name: 'two-hosts', include: TWO_HOST_FILES, env: { TRACKLINE_TEST_HOSTS: '2' } },
            },
          ]
        : [{ extends: true, test: { name: 'one-host', include } }],
  },
});
