export * from './user.contract.js';
