export * from './link-type.contract.js';
