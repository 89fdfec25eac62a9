export * from './errors.js';
export * from './media-type.js';
export * from './query-bool.js';
export * from './route-meta.js';
export * from './small-bodies.js';
export * from './text-checks.js';
export * from './text-fields.js';
export * from './timestamps.js';
