export * from './hook-payloads.js';
export * from './vcs.contract.js';
