export * from './user.contract.js';
export * from './user-profile.contract.js';
