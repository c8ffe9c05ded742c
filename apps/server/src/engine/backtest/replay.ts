import type { AlertType } from '@wearable/domain';
import { initialState, step } from '../engine.js';
import { MINUTE_MS } from '../rules/rule.js';
import type { AlertCause, EngineInput, WearerProfile } from '../types.js';

/**
 * The backtest's pure half: one wearer's stored inputs of a period through the engine with a
 * proposed rule set, nothing written. The runner's minute ticks are re-created for the minutes
 * that had no input (a minute with a reading needs none: silence is what ticks detect).
 */

export interface ReplayWindow {
  /** Replay starts here from an empty engine state, so filters and windows are warm at `from`. */
  warmupFrom: Date;
  /** Alerts opened from here on are counted. */
  from: Date;
  /** End of the period (exclusive). */
  to: Date;
}

export interface FiredAlert {
  wearerId: string;
  type: AlertType;
  at: Date;
  cause: AlertCause;
  notify: boolean;
}

/** Inputs in time order with a tick at the start of every empty minute of the window. */
export function withTicks(inputs: readonly EngineInput[], window: ReplayWindow): EngineInput[] {
  const inside = inputs.filter((i) => i.at >= window.warmupFrom && i.at < window.to);
  const busy = new Set(inside.map((i) => Math.floor(i.at.getTime() / MINUTE_MS)));
  const ticks: EngineInput[] = [];
  const first = Math.ceil(window.warmupFrom.getTime() / MINUTE_MS);
  for (let minute = first; minute * MINUTE_MS < window.to.getTime(); minute++) {
    if (!busy.has(minute)) ticks.push({ kind: 'tick', at: new Date(minute * MINUTE_MS) });
  }
  // A stable sort: at equal times the stored input comes before the tick.
  return [...inside, ...ticks].sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** The alerts this wearer's inputs would have opened in [from, to) under `profile.settings`. */
export function replayWearer(
  profile: WearerProfile,
  inputs: readonly EngineInput[],
  window: ReplayWindow,
): FiredAlert[] {
  let state = initialState();
  const fired: FiredAlert[] = [];
  for (const input of withTicks(inputs, window)) {
    const result = step(profile, state, input);
    state = result.state;
    for (const effect of result.effects) {
      if (effect.kind !== 'open' || effect.at < window.from) continue;
      fired.push({
        wearerId: profile.wearerId,
        type: effect.alertType,
        at: effect.at,
        cause: effect.cause,
        notify: effect.notify,
      });
    }
  }
  return fired;
}

export interface AlertTally {
  count: number;
  /** ISO time of the first one, or null. */
  firstAt: string | null;
}

export interface BacktestRow {
  type: AlertType;
  wearerId: string;
  wearerName: string;
  proposed: AlertTally;
  stored: AlertTally;
}

export interface StoredAlertTally {
  wearerId: string;
  type: AlertType;
  count: number;
  firstAt: Date;
}

/** One row per (type, wearer) that fired under either rule set, by type then wearer name. */
export function compareAlerts(
  proposed: readonly FiredAlert[],
  stored: readonly StoredAlertTally[],
  names: ReadonlyMap<string, string>,
): BacktestRow[] {
  const rows = new Map<string, BacktestRow>();
  const rowOf = (type: AlertType, wearerId: string): BacktestRow => {
    const key = `${type}\u0000${wearerId}`;
    let row = rows.get(key);
    if (!row) {
      const wearerName = names.get(wearerId) ?? wearerId;
      row = { type, wearerId, wearerName, proposed: none(), stored: none() };
      rows.set(key, row);
    }
    return row;
  };
  for (const a of proposed) {
    const row = rowOf(a.type, a.wearerId);
    row.proposed.count++;
    row.proposed.firstAt = earlier(row.proposed.firstAt, a.at);
  }
  for (const s of stored) {
    const row = rowOf(s.type, s.wearerId);
    row.stored.count += s.count;
    row.stored.firstAt = earlier(row.stored.firstAt, s.firstAt);
  }
  return [...rows.values()].sort(
    (a, b) =>
      a.type.localeCompare(b.type) ||
      a.wearerName.localeCompare(b.wearerName) ||
      a.wearerId.localeCompare(b.wearerId),
  );
}

const none = (): AlertTally => ({ count: 0, firstAt: null });
function earlier(current: string | null, at: Date): string {
  const iso = at.toISOString();
  return current === null || iso < current ? iso : current;
}
