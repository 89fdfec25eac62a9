/**
 * The test kit (`@trackline/domain/testing`): databases, seeded users and scenarios shared by
 * the domain, API and client suites. Built apart from the domain (`tsconfig.testing.json` into
 * `dist-testing/`), so nothing here ships in the production build; it reaches the domain
 * through the package name, so API tests share the one domain instance their server uses.
 */
export * from './attachments.js';
export * from './command-ops.js';
export * from './scratch-database.js';
export * from './test-database.js';
export * from './test-orm.js';
export * from './test-vocabulary.js';
export * from './vcs.js';
