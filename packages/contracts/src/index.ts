export * from './common/index.js';
export * from './link-types/index.js';
export * from './permissions.js';
export * from './projects/index.js';
export * from './roles/index.js';
export * from './users/index.js';
