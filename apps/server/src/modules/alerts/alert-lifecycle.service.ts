import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import type { Statement } from '../../db/statement.js';
import type { AlertRecord } from '../../bus/events.js';
import type { FoldedPlace } from '../places/places.service.js';
import { type Confirmation, type ConfirmTarget, confirmAlerts } from './confirmations.js';
import {
  type EngineOutcome,
  type LockedWearers,
  lockWearers,
  publishOutcome,
  runEngine,
  startEngineTicker,
  tickAll,
  type WearerInputs,
} from './engine-turn.js';
import {
  openUrgentAlerts,
  publishUrgentAlerts,
  type UrgentEvent,
  type UrgentOutcome,
} from './urgent-open.js';

export type { EngineOutcome, LockedWearers, WearerInputs } from './engine-turn.js';
export type { UrgentEvent, UrgentOutcome } from './urgent-open.js';
export type { Confirmation, ConfirmTarget } from './confirmations.js';

/**
 * An alert's lifecycle, driven by other modules: the alerts module alone writes `alerts` and the
 * engine's state (engine_state), and alone publishes what the engine decided. The engine
 * (`engine/`) only decides; this is where it is fed: lock -> evaluate -> write -> publish.
 *
 * - `lock(tx, wearerIds)`, first in the caller's transaction: the wearers' engine_state rows,
 *   with what the engine needs about each wearer (the ingestion pipeline sends it together with
 *   the batch's inserts, one turn);
 * - `evaluate(tx, locked, wearers, …)`: the engine on exactly these inputs; the alerts it opens
 *   or closes and the new state are written in `tx` (with the caller's other writes, one round trip);
 * - `publish(outcome)`, after commit: the in-memory copy, then the bus events;
 * - `openUrgent` / `publishUrgent`: an SOS or fall ahead of its batch (urgent-open.ts);
 * - `tick`, `startTicker`: the engine's timers (DISCONNECTION, NON_WEARING);
 * - `confirm`: staff confirm alerts (confirmations.ts).
 * One stored alert by id: stored-alerts.service.ts.
 */
export function alertLifecycleService(ctx: AppContext) {
  return {
    lock: (tx: Queryable, wearerIds: string[]): Promise<LockedWearers> =>
      lockWearers(ctx, tx, wearerIds),
    evaluate: (
      tx: Queryable,
      locked: LockedWearers,
      wearers: WearerInputs[],
      alsoRun: (Statement | null)[] = [],
      places: ReadonlyMap<string, FoldedPlace> = new Map(),
      last = false,
    ): Promise<EngineOutcome> => runEngine(ctx, tx, locked, wearers, alsoRun, places, last),
    publish: (outcome: EngineOutcome, updatedWearers: Iterable<string> = []): void =>
      publishOutcome(ctx, outcome, updatedWearers),
    openUrgent: (
      tx: Queryable,
      events: UrgentEvent[],
      placeOf: Parameters<typeof openUrgentAlerts>[3],
      storeEvents: Parameters<typeof openUrgentAlerts>[4],
    ): Promise<UrgentOutcome> => openUrgentAlerts(ctx, tx, events, placeOf, storeEvents),
    publishUrgent: (opened: AlertRecord[]): void => publishUrgentAlerts(ctx, opened),
    tick: (at?: Date): Promise<void> => tickAll(ctx, at),
    startTicker: (intervalMs: number, onError: (err: unknown) => void): (() => Promise<void>) =>
      startEngineTicker(ctx, intervalMs, onError),
    confirm: (
      targets: readonly ConfirmTarget[],
      confirmation: Confirmation,
    ): Promise<AlertRecord[]> => confirmAlerts(ctx, targets, confirmation),
  };
}
