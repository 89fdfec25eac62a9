export * from './attachment.contract.js';
export * from './comment.contract.js';
export * from './compressed-id.js';
export * from './issue.contract.js';
export * from './issue-legacy.contract.js';
export * from './issue-view.contract.js';
export * from './links-changes.contract.js';
export * from './work-item.contract.js';
