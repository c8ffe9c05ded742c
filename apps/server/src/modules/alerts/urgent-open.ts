import type { AlertType } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { webhookOutboxService } from '../webhooks/webhook-outbox.service.js';
import type { FoldedPlace } from '../places/places.service.js';
import { alertEngine } from '../../engine/alert-engine.js';
import type { AlertRecord } from '../../bus/events.js';
import { announceOpened, openAlert } from './engine-turn.js';
import { engineStateRepository } from './engine-state.repository.js';
import { notifyWearerUpdated } from '../../bus/wearer-updates.js';
import type { EngineInput } from '../../engine/types.js';

/**
 * An SOS or a fall opens before the engine's turn (issue 20: SOS at 80 % load).
 *
 * The engine runs under each wearer's engine_state row lock (engine-turn.ts). A worn bracelet's SOS
 * therefore waited for the batch of readings its gateway had in flight, which holds that lock until
 * it commits: 100-300 ms on a loaded machine, most of the SOS's time to the console. Here, in its own
 * short transaction before that one, the SOS is stepped through the same engine on the wearer's
 * last committed state, read without the lock, and the alerts it opens are written and announced.
 * The batch's own transaction then runs as before, under the lock: the engine sees the same event,
 * the event is already stored with its alert here, so the engine's turn skips it. The engine stays
 * the one judge of every alert, and of this one too: the early step runs its rules, settings and
 * lifecycle, only earlier.
 *
 * What keeps it right:
 * - Only events the database has not stored yet open here, and an event whose alert opens here is
 *   stored in this same transaction (with the alert and its outbox rows: its notices and live
 *   frame survive a kill -9 right after the commit). A redelivered SOS therefore opens nothing,
 *   here or in the engine's turn, even if staff confirmed the first alert meanwhile (issue 34: the
 *   batch failing after this commit used to leave the event unstored, and its resend opened a
 *   second alert once the first was confirmed).
 * - The batch's turn does not step these events again (modules/ingestion/steps/store.ts): the engine's state
 *   does not record this opening, so a confirmation racing the batch can never leave the state
 *   holding an alert that is not open (which would swallow the wearer's next SOS); the next press
 *   while this alert is open finds it open (the unique index) and is recorded then.
 * - A stale state (another server moved it) can only make this step open nothing; the engine's
 *   turn, on the locked state, then opens it as it always did.
 * Only on PostgreSQL: on PGlite transactions run one at a time, so no lock is ever waited for. And
 * only for wearers the server has run the engine for (modules/ingestion/steps/urgent-lane.ts): a bracelet's first batch
 * has no state to step, and no batch of its readings to wait for.
 */
const OPENS_FIRST: ReadonlySet<AlertType> = new Set(['SOS_CALL', 'DETECT_FALL_DOWN']);

/** An SOS or FALL of the batch, with its wearer and bracelet (modules/ingestion/steps/resolve.ts). */
export interface UrgentEvent {
  wearerId: string;
  braceletId: string;
  input: Extract<EngineInput, { kind: 'event' }>;
}

/** What the urgent lane did: the alerts it opened, and the events it stored with them. */
export interface UrgentOutcome {
  opened: AlertRecord[];
  /** The events whose alert opened here, stored in the same transaction (the batch's turn skips them). */
  stored: UrgentEvent[];
}

/** The urgent events of a batch the database has not stored yet. */
async function notStoredYet(tx: Queryable, events: UrgentEvent[]): Promise<UrgentEvent[]> {
  const stored = await tx.query<{ braceletId: string; type: string; at: Date }>(
    `SELECT d.bracelet_id AS "braceletId", d.type, d.at
       FROM device_events d
       JOIN unnest($1::text[], $2::text[], $3::timestamptz[]) AS x(b, t, a)
         ON d.bracelet_id = x.b AND d.type = x.t AND d.at = x.a`,
    [
      events.map((e) => e.braceletId),
      events.map((e) => e.input.type),
      events.map((e) => e.input.at.toISOString()),
    ],
  );
  const seen = new Set(stored.map((s) => `${s.braceletId}|${s.type}|${new Date(s.at).getTime()}`));
  return events.filter((e) => !seen.has(`${e.braceletId}|${e.input.type}|${e.input.at.getTime()}`));
}

/**
 * In the caller's transaction (urgent, before the batch's own): opens the SOS and fall alerts the
 * engine would open for these events on each wearer's last committed state. `placeOf`: the
 * wearer's place after the batch's sightings, folded from the stored place row passed to it.
 */
export async function openUrgentAlerts(
  ctx: AppContext,
  tx: Queryable,
  events: UrgentEvent[],
  placeOf: (
    wearerId: string,
    stored: { state: unknown; position: unknown } | undefined,
  ) => FoldedPlace | undefined,
  /** Stores these events' device_events rows in `tx` (ingestion's insert of the batch's events). */
  storeEvents: (tx: Queryable, events: UrgentEvent[]) => Promise<unknown>,
): Promise<UrgentOutcome> {
  // Both reads in one turn (pipelined on PostgreSQL).
  const [fresh, read] = await Promise.all([
    notStoredYet(tx, events),
    engineStateRepository(tx).readUnlocked([...new Set(events.map((e) => e.wearerId))], ctx.now()),
  ]);
  if (fresh.length === 0) return { opened: [], stored: [] };
  const wearerIds = [...new Set(fresh.map((e) => e.wearerId))];
  // The server's copy when it is the committed one; otherwise the committed row, read now.
  const states = new Map<string, unknown>();
  const toLoad: string[] = [];
  for (const id of wearerIds) {
    const cached = ctx.engine.cache.get(id);
    if (cached && cached.version === read.versions.get(id)) states.set(id, cached.state);
    else if (read.versions.has(id)) toLoad.push(id);
  }
  for (const row of await engineStateRepository(tx).load(toLoad))
    states.set(row.wearerId, row.state);

  const opened: AlertRecord[] = [];
  const stored: UrgentEvent[] = [];
  const sorted = [...fresh].sort((a, b) => a.input.at.getTime() - b.input.at.getTime());
  for (const event of sorted) {
    const profile = read.profiles.get(event.wearerId);
    let state = states.get(event.wearerId);
    // A wearer without an engine state yet: the engine's turn creates it and opens the alert.
    if (!profile || state === undefined) continue;
    const result = alertEngine.step(profile, state, event.input);
    state = result.state;
    states.set(event.wearerId, state);
    for (const effect of result.effects) {
      if (effect.kind !== 'open' || !OPENS_FIRST.has(effect.alertType)) continue;
      const alert = await openAlert(
        tx,
        profile,
        effect,
        placeOf(event.wearerId, read.places.get(event.wearerId)),
        ctx.now(),
      );
      if (alert) {
        opened.push(alert);
        if (stored.at(-1) !== event) stored.push(event);
      }
    }
  }
  // The event is stored with its alert: a batch that fails after this commit (a kill -9, a
  // database restart) and is sent again finds it stored, so neither this lane nor the engine's
  // turn opens it again, whatever staff did with the first alert meanwhile.
  await storeEvents(tx, stored);
  await webhookOutboxService(ctx).enqueueAlerts(
    tx,
    opened.map((a) => ({
      organizationId: a.organizationId,
      type: 'alert.opened' as const,
      at: a.openedAt,
      alertId: a.id,
    })),
  );
  return { opened, stored };
}

/** After commit: the alerts go out as the engine's do (engine-turn.ts publishOutcome). */
export function publishUrgentAlerts(ctx: AppContext, opened: AlertRecord[]): void {
  announceOpened(ctx, opened);
  for (const alert of opened) {
    if (alert.wearerId === null) continue;
    notifyWearerUpdated(ctx, {
      organizationId: alert.organizationId,
      groupId: alert.groupId,
      wearerId: alert.wearerId,
    });
  }
}
