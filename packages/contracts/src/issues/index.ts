export * from './compressed-id.js';
export * from './issue.contract.js';
