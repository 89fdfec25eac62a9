export * from './role.contract.js';
