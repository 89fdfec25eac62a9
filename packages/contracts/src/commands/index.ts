export * from './command.contract.js';
