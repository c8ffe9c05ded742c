import { type EngineState, initialState, step } from './engine.js';
import type { EngineInput, StepResult, WearerProfile } from './types.js';

/** The pure engine as the runner sees it: states are plain JSON loaded from engine_state. */
export interface AlertEngine {
  initialState(): unknown;
  step(profile: WearerProfile, state: unknown, input: EngineInput): StepResult<unknown>;
}

export const alertEngine: AlertEngine = {
  initialState,
  // step() normalises whatever it is given (missing fields start fresh), so stored JSON is safe.
  step: (profile, state, input) => step(profile, state as EngineState, input),
};
