import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/client.js';
import type { EngineInput } from '../../../engine/types.js';
import {
  alertLifecycleService,
  type EngineOutcome,
  type WearerInputs,
} from '../../alerts/alert-lifecycle.service.js';
import { eventInput } from './batch.js';
import type { Folded } from './fold.js';
import type { Fresh } from './store.js';

/** After "evaluate": what the engine decided, written; published after commit. */
export interface Evaluated extends Folded {
  outcome: EngineOutcome;
}

/**
 * Step "evaluate", last in the batch's transaction: the engine on exactly the new inputs (the
 * alerts module's lifecycle writes the alerts it opens or closes and the new state); the state's
 * save carries the batch's gathered writes, and COMMIT goes with it (nothing follows).
 */
export async function evaluate(ctx: AppContext, tx: Queryable, batch: Folded): Promise<Evaluated> {
  const outcome = await alertLifecycleService(ctx).evaluate(
    tx,
    batch.locked,
    engineInputs(batch.fresh),
    batch.writes,
    batch.places,
    true,
  );
  return { ...batch, outcome };
}

/** The engine's inputs per wearer: the new readings and events. */
function engineInputs(fresh: Fresh): WearerInputs[] {
  const inputs = new Map<string, EngineInput[]>();
  const add = (wearerId: string, input: EngineInput) => {
    const list = inputs.get(wearerId);
    if (list) list.push(input);
    else inputs.set(wearerId, [input]);
  };
  for (const r of fresh.readings) add(r.row.wearerId, r.input);
  for (const e of fresh.events) add(e.wearerId, eventInput(e));
  return [...inputs].map(([wearerId, list]) => ({ wearerId, inputs: list }));
}
