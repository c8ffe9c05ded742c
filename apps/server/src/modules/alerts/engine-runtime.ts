import { alertEngine } from '../../engine/alert-engine.js';

interface CachedState {
  version: number;
  state: unknown;
  json: string;
}
/** The engine's in-memory part; a named field of the app context. */
export interface EngineRuntime {
  /** A hint only: used when its version equals the locked row's, otherwise reloaded. */
  cache: Map<string, CachedState>;
  initialJson: string;
}
export const createEngineRuntime = (): EngineRuntime => ({
  cache: new Map(),
  initialJson: JSON.stringify(alertEngine.initialState()),
});
