export * from './errors.js';
export * from './media-type.js';
export * from './query.js';
export * from './route-meta.js';
