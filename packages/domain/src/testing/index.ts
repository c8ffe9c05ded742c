export * from './identity.js';
export * from './motion-traces.js';
