export * from './notification-kinds.js';
