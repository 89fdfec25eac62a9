export * from './bundle.contract.js';
export * from './custom-field.contract.js';
