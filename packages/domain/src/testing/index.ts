export * from './identity.js';
export * from './motion-traces.js';
export * from './map-answers.js';
