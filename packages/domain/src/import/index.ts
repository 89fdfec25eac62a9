export * from '../issues/import-report.js';
export * from './import-issues.js';
export * from './import-links.js';
export * from './import-users.js';
