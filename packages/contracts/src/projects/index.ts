export * from './project.contract.js';
