import {
  ALERT_POLICY_DEFAULTS,
  type AlertSettingsInput,
  type AlertType,
  type DeviceEventType,
  type FallCause,
} from '@wearable/domain';
import { initialState, step, type EngineState } from '../engine.js';
import type { EngineEffect, EngineInput, WearerProfile } from '../types.js';

/**
 * Scripted engine scenarios for tests: a clock that starts at `start` and a list of timed
 * inputs, e.g. `scenario(start).every(1, 'min', { heartRate: 190 }).for(10)`.
 */
export type ReadingFields = Omit<Extract<EngineInput, { kind: 'reading' }>, 'kind' | 'at'>;
type Unit = 'min' | 's';
const MS: Record<Unit, number> = { min: 60_000, s: 1_000 };

export class Scenario {
  readonly inputs: EngineInput[] = [];
  private t: number;

  constructor(start: Date) {
    this.t = start.getTime();
  }

  get now(): Date {
    return new Date(this.t);
  }

  reading(fields: ReadingFields = {}): this {
    this.inputs.push({ kind: 'reading', at: this.now, ...fields });
    return this;
  }
  event(type: DeviceEventType, cause?: FallCause): this {
    this.inputs.push({ kind: 'event', at: this.now, type, ...(cause ? { cause } : {}) });
    return this;
  }
  tick(): this {
    this.inputs.push({ kind: 'tick', at: this.now });
    return this;
  }
  confirm(alertType: AlertType): this {
    this.inputs.push({ kind: 'confirm', at: this.now, alertType });
    return this;
  }
  /** Any input at an explicit time (out-of-order readings). */
  at(at: Date, input: ReadingFields): this {
    this.inputs.push({ kind: 'reading', at, ...input });
    return this;
  }
  wait(amount: number, unit: Unit = 'min'): this {
    this.t += amount * MS[unit];
    return this;
  }
  /** Applies a fragment (a function of the scenario) `times` times. */
  then(fragment: (s: Scenario) => Scenario, times = 1): this {
    for (let i = 0; i < times; i++) fragment(this);
    return this;
  }
  /**
   * Repeats a reading (or a tick) every `interval` units; `.for(d)` emits them at
   * now, now + interval, ... strictly before now + d, then moves the clock to now + d.
   */
  every(
    interval: number,
    unit: Unit,
    what: ReadingFields | 'tick',
  ): { for: (duration: number) => Scenario } {
    return {
      for: (duration: number) => {
        const end = this.t + duration * MS[unit];
        for (let at = this.t; at < end; at += interval * MS[unit]) {
          this.t = at;
          if (what === 'tick') this.tick();
          else this.reading(what);
        }
        this.t = end;
        return this;
      },
    };
  }
}

export const scenario = (start: Date): Scenario => new Scenario(start);

/** Saturday 2026-11-21 23:00 in Tokyo: inside the default sleep window and schedule. */
export const SATURDAY_NIGHT = new Date('2026-11-21T14:00:00Z');

export function wearer(
  overrides: Partial<Omit<WearerProfile, 'settings'>> & { settings?: AlertSettingsInput } = {},
): WearerProfile {
  return {
    wearerId: 'wearer-1',
    organizationId: 'org-1',
    groupId: null,
    age: 40,
    dutyCycleMinutes: 1,
    timeZone: 'Asia/Tokyo',
    settings: {},
    recoveryMinutes: ALERT_POLICY_DEFAULTS.recoveryMinutes,
    ...overrides,
  };
}

export interface RunResult {
  effects: EngineEffect[];
  state: EngineState;
  opens: (type?: AlertType) => Extract<EngineEffect, { kind: 'open' }>[];
  closes: (type?: AlertType) => Extract<EngineEffect, { kind: 'close' }>[];
}

export interface RunOptions {
  state?: EngineState;
  /** Simulates a restart: the state goes through JSON before these input indexes ('all' = every one). */
  restartBefore?: number[] | 'all';
}

/** Feeds the inputs through the engine, one step each, as the runner does. */
export function run(
  profile: WearerProfile,
  s: Scenario | EngineInput[],
  opts: RunOptions = {},
): RunResult {
  const inputs = Array.isArray(s) ? s : s.inputs;
  let state = opts.state ?? initialState();
  const effects: EngineEffect[] = [];
  inputs.forEach((input, i) => {
    if (opts.restartBefore === 'all' || opts.restartBefore?.includes(i)) {
      state = JSON.parse(JSON.stringify(state)) as EngineState;
    }
    const result = step(profile, state, input);
    state = result.state;
    effects.push(...result.effects);
  });
  return {
    effects,
    state,
    opens: (type) =>
      effects.filter(
        (e): e is Extract<EngineEffect, { kind: 'open' }> =>
          e.kind === 'open' && (!type || e.alertType === type),
      ),
    closes: (type) =>
      effects.filter(
        (e): e is Extract<EngineEffect, { kind: 'close' }> =>
          e.kind === 'close' && (!type || e.alertType === type),
      ),
  };
}
