export * from './errors.js';
export * from './query.js';
export * from './route-meta.js';
