export * from './scope.js';
export * from './permissions.js';
export * from './grants.js';
