export * from './scope.js';
export * from './permissions.js';
