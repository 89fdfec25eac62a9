export * from './group.contract.js';
export * from './login-rules.js';
export * from './user.contract.js';
export * from './user-admin.contract.js';
export * from './user-profile.contract.js';
