import { ALERT_LEVEL_OF } from '@wearable/domain';
import type { EngineInput, StepResult, WearerProfile } from './types.js';

/** The pure engine as the runner sees it (engine.ts implements it). */
export interface AlertEngine {
  initialState(): unknown;
  step(profile: WearerProfile, state: unknown, input: EngineInput): StepResult<unknown>;
}

/**
 * INTERIM until engine/engine.ts lands: SOS and fall events open EMERGENCY alerts, confirm
 * closes them. Replaced by the real engine in one line.
 */
interface InterimState {
  open: string[];
}
export const alertEngine: AlertEngine = {
  initialState: (): InterimState => ({ open: [] }),
  step(_profile, raw, input) {
    const state = raw as InterimState;
    if (input.kind === 'event' && (input.type === 'SOS' || input.type === 'FALL')) {
      const alertType = input.type === 'SOS' ? 'SOS_CALL' : 'DETECT_FALL_DOWN';
      if (state.open.includes(alertType)) return { state, effects: [] };
      const at = input.at.toISOString();
      return {
        state: { open: [...state.open, alertType] },
        effects: [
          {
            kind: 'open',
            alertType,
            level: ALERT_LEVEL_OF[alertType],
            at: input.at,
            cause: { rule: `device event ${input.type}`, values: {}, windowStart: at, windowEnd: at },
            notify: true,
          },
        ],
      };
    }
    if (input.kind === 'confirm' && state.open.includes(input.alertType)) {
      return {
        state: { open: state.open.filter((t) => t !== input.alertType) },
        effects: [{ kind: 'close', alertType: input.alertType, at: input.at, reason: 'confirmed' }],
      };
    }
    return { state, effects: [] };
  },
};
