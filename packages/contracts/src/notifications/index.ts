export * from './notification.contract.js';
export * from './notification-kinds.js';
export * from './webhook.contract.js';
