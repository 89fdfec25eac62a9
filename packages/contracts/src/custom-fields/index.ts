export * from './bundle.contract.js';
export * from './custom-field.contract.js';
export * from './project-bundles.contract.js';
