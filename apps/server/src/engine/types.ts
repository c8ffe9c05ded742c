import type {
  AlertLevel,
  AlertType,
  DeviceEventType,
  FallCause,
  SleepStageCode,
  StressLevel,
} from '@wearable/domain';

/**
 * The alert engine's contract. The engine is pure: step(profile, state, input) returns the
 * next state and the effects; the runner (modules/alerts/engine-turn.ts) loads the state, stores readings,
 * alerts and the new state in one transaction, and sends notifications. The state is plain
 * JSON so it survives a restart.
 */

/** What the engine knows about a wearer (loaded by the runner; settings from the database). */
export interface WearerProfile {
  wearerId: string;
  organizationId: string;
  groupId: string | null;
  /** Whole years, or null when the birth date is unknown (engine then assumes 40). */
  age: number | null;
  /** Heart-rate measurement duty cycle of the bracelet, minutes (1, 3, 5 or 10). */
  dutyCycleMinutes: number;
  /** IANA zone of the organisation, for schedules and the sleep window. */
  timeZone: string;
  /** The wearer's alert settings (type defined with the engine, stored as JSON). */
  settings: unknown;
  /**
   * The organisation's recovery window (AlertPolicy.recoveryMinutes, minutes): an open threshold
   * alert closes only after its condition has been clear this long.
   */
  recoveryMinutes: number;
}

export type EngineInput =
  | {
      kind: 'reading';
      at: Date;
      heartRate?: number;
      skinTemperature?: number;
      worn?: boolean;
      sleepStage?: SleepStageCode;
      stressLevel?: StressLevel;
      steps?: number;
      battery?: number;
      /** Latest WBGT of the wearer's gateway at this time, if known (C). */
      wbgt?: number;
    }
  /** A device event; a FALL may say why it was sent (an impact, or man-down with its minutes). */
  | { kind: 'event'; at: Date; type: DeviceEventType; cause?: FallCause }
  /** Time passes with no data (disconnection, non-wearing timers). Sent by the runner every minute. */
  | { kind: 'tick'; at: Date }
  /** Staff confirmed the open alert of this type. */
  | { kind: 'confirm'; at: Date; alertType: AlertType };

/** Why an alert fired: shown in the console. */
export interface AlertCause {
  rule: string;
  /** The values that made it fire, e.g. { heartRate: 192, upperBound: 180 }. */
  values: Record<string, number | string | boolean | null>;
  /** The window the rule looked at. */
  windowStart: string;
  windowEnd: string;
}

export type EngineEffect =
  | {
      kind: 'open';
      alertType: AlertType;
      level: AlertLevel;
      at: Date;
      cause: AlertCause;
      /** False outside the wearer's schedule (recorded, not notified); EMERGENCY always true. */
      notify: boolean;
    }
  | { kind: 'close'; alertType: AlertType; at: Date; reason: 'recovered' | 'confirmed' };

export interface StepResult<S> {
  state: S;
  effects: EngineEffect[];
}
