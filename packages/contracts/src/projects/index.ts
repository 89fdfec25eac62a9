export * from './project.contract.js';
export * from './project-all.contract.js';
