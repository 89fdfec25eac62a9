export * from './import.contract.js';
