export * from './folder.contract.js';
