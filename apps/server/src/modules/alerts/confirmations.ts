import type { ConfirmReason, HeatProcedureStep } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { escalationsService } from '../notifications/escalations.service.js';
import { alertWritesRepository } from './alert-writes.repository.js';
import type { AlertRecord } from '../../bus/events.js';
import { webhookOutboxService } from '../webhooks/webhook-outbox.service.js';
import { lockWearers, publishOutcome, runEngine, type WearerInputs } from './engine-turn.js';

/** What staff say when they confirm: who, and optionally why. */
export interface Confirmation {
  userId: string;
  reason: ConfirmReason | null;
  note: string | null;
  /** Heat alerts: procedure steps taken (stored on heat alerts only). */
  procedureSteps?: HeatProcedureStep[] | null;
}

/** An alert to confirm and its wearer (the caller checked the user may confirm it). */
export interface ConfirmTarget {
  id: string;
  /** Null: an alert of a device no wearer holds (no engine state to tell). */
  wearerId: string | null;
}

const isWearer = (id: string | null): id is string => id !== null;

/**
 * Staff confirm alerts (PRODUCT.md, "Acknowledgement"): every one not yet confirmed gets who,
 * when, the reason and the note, whether it is open or already closed by recovery; the open
 * ones close (reason confirmed) and the engine is told, so a new event opens a new alert.
 * One transaction and a few statements for any number of alerts. Returns the alerts confirmed
 * now (the others were confirmed already, by someone else or earlier in the list).
 */
export async function confirmAlerts(
  ctx: AppContext,
  targets: readonly ConfirmTarget[],
  confirmation: Confirmation,
): Promise<AlertRecord[]> {
  if (targets.length === 0) return [];
  const at = ctx.now();
  const wearerIds = [...new Set(targets.map((t) => t.wearerId).filter(isWearer))];
  const ids = [...new Set(targets.map((t) => t.id))];
  const result = await ctx.db.transaction(
    async (tx) => {
      // Same lock order as ingestion (engine state, then alerts): no deadlock between them.
      const locked = await lockWearers(ctx, tx, wearerIds);
      const rows = await alertWritesRepository(tx).recordConfirmations(ids, {
        ...confirmation,
        at,
      });
      await escalationsService(tx).finishOnConfirm(
        rows.map((r) => r.id),
        at,
      );
      const inputs = new Map<string, WearerInputs>();
      for (const row of rows) {
        if (!row.wasOpen || row.wearerId === null) continue;
        const entry = inputs.get(row.wearerId) ?? { wearerId: row.wearerId, inputs: [] };
        entry.inputs.push({ kind: 'confirm', at, alertType: row.type });
        inputs.set(row.wearerId, entry);
      }
      const outcome = await runEngine(ctx, tx, locked, [...inputs.values()]);
      // Webhooks: an open alert confirmed closes too; every one is confirmed (webhook-outbox.ts).
      await webhookOutboxService(ctx).enqueueAlerts(tx, [
        ...rows
          .filter((r) => r.wasOpen)
          .map((r) => ({
            organizationId: r.organizationId,
            type: 'alert.closed' as const,
            at,
            alertId: r.id,
          })),
        ...rows.map((r) => ({
          organizationId: r.organizationId,
          type: 'alert.confirmed' as const,
          at,
          alertId: r.id,
        })),
      ]);
      return { rows, outcome };
    },
    { urgent: false, keys: wearerIds },
  );
  const closedNow = result.rows.filter((r) => r.wasOpen).map(({ wasOpen: _, ...r }) => r);
  const confirmedClosed = result.rows.filter((r) => !r.wasOpen).map(({ wasOpen: _, ...r }) => r);
  result.outcome.closed.unshift(...closedNow);
  publishOutcome(ctx, result.outcome, new Set(result.rows.map((r) => r.wearerId).filter(isWearer)));
  for (const alert of confirmedClosed) ctx.bus.emit('alert.confirmed', alert);
  return [...closedNow, ...confirmedClosed];
}

export type ConfirmResult =
  { status: 'confirmed'; alert: AlertRecord } | { status: 'already_confirmed' | 'not_found' };

/** One alert by id, without a reason (engine tests and tools). */
export async function confirmAlert(
  ctx: AppContext,
  { alertId, userId }: { alertId: string; userId: string },
): Promise<ConfirmResult> {
  const [row] = await ctx.db.query<{ wearerId: string | null }>(
    'SELECT wearer_id AS "wearerId" FROM alerts WHERE id = $1',
    [alertId],
  );
  if (!row) return { status: 'not_found' };
  const [alert] = await confirmAlerts(ctx, [{ id: alertId, wearerId: row.wearerId }], {
    userId,
    reason: null,
    note: null,
  });
  return alert ? { status: 'confirmed', alert } : { status: 'already_confirmed' };
}
