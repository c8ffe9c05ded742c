import { randomUUID } from 'node:crypto';
import { recordsPlace } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { alertEngine } from '../../engine/alert-engine.js';
import type { EngineRuntime } from './engine-runtime.js';
import { alertWritesRepository } from './alert-writes.repository.js';
import type { AlertRecord } from '../../bus/events.js';
import { engineStateRepository, type Locked, type Profile } from './engine-state.repository.js';
import type { EngineEffect, EngineInput, WearerProfile } from '../../engine/types.js';
import type { Statement } from '../../db/statement.js';
import { notifyWearerUpdated } from '../../bus/wearer-updates.js';
import { webhookOutboxService } from '../webhooks/webhook-outbox.service.js';
import { type FoldedPlace, placesService } from '../places/places.service.js';

/**
 * Feeds the pure engine inside the caller's transaction: engine_state rows are locked first
 * (so several servers on one PostgreSQL serialise per wearer), alerts and the new state are
 * written in the same transaction, and the in-memory copy is updated only after commit.
 */

const runtimeOf = (ctx: AppContext): EngineRuntime => ctx.engine;

export type LockedWearers = Locked;

/** Locks the engine state of these wearers (and reads their profiles); call first in the transaction. */
export function lockWearers(
  ctx: AppContext,
  tx: Queryable,
  wearerIds: string[],
): Promise<LockedWearers> {
  return engineStateRepository(tx).lock(wearerIds, runtimeOf(ctx).initialJson, ctx.now());
}

export interface WearerInputs {
  wearerId: string;
  inputs: EngineInput[];
}

export interface EngineOutcome {
  opened: AlertRecord[];
  closed: AlertRecord[];
  /** Wearers the engine ran for, with their organisation and group (for wearer.updated). */
  profiles: Map<string, WearerProfile>;
  /** Call after the transaction committed: makes the new states the in-memory copy. */
  committed(): void;
}

/**
 * `alsoRun`: the batch's other independent writes (rollups, latest values), sent in the same
 * round trip as the state save. `places`: the batch's folded place states (an alert that opens
 * stores the place they give, the one /map shows).
 */
export async function runEngine(
  ctx: AppContext,
  tx: Queryable,
  locked: LockedWearers,
  wearers: WearerInputs[],
  alsoRun: (Statement | null)[] = [],
  places: ReadonlyMap<string, FoldedPlace> = new Map(),
  /** The save is the transaction's last statement and commits with it (ingestion: one turn fewer). */
  last = false,
): Promise<EngineOutcome> {
  const rt = runtimeOf(ctx);
  const ids = wearers.map((w) => w.wearerId);
  const profiles = locked.profiles;
  const stale = ids.filter((id) => rt.cache.get(id)?.version !== locked.versions.get(id));
  for (const row of await engineStateRepository(tx).load(stale)) {
    rt.cache.set(row.wearerId, {
      version: row.version,
      state: row.state,
      json: JSON.stringify(row.state),
    });
  }
  const opened: AlertRecord[] = [];
  const closed: AlertRecord[] = [];
  const changed: { wearerId: string; state: unknown; json: string; lastReadingAt: Date | null }[] =
    [];
  for (const { wearerId, inputs } of wearers) {
    const profile = profiles.get(wearerId);
    const before = rt.cache.get(wearerId);
    if (!profile || !before) continue;
    let state = before.state;
    let lastReadingAt: Date | null = null;
    for (const input of [...inputs].sort((a, b) => a.at.getTime() - b.at.getTime())) {
      const result = alertEngine.step(profile, state, input);
      state = result.state;
      if (input.kind === 'reading') lastReadingAt = input.at;
      for (const effect of result.effects) {
        if (effect.kind === 'open') {
          const alert = await openAlert(tx, profile, effect, places.get(wearerId), ctx.now());
          if (alert) opened.push(alert);
        } else if (effect.reason === 'confirmed') {
          // Only a `confirm` input closes with this reason, and whoever sends one (confirmations.ts)
          // has closed the row with who and why in this transaction already.
          continue;
        } else {
          const alert = await alertWritesRepository(tx).closeOpen({
            wearerId,
            type: effect.alertType,
            at: effect.at,
            reason: effect.reason,
          });
          if (alert) closed.push(alert);
        }
      }
    }
    const json = JSON.stringify(state);
    if (json !== before.json) changed.push({ wearerId, state, json, lastReadingAt });
  }
  // Webhooks: the opened and closed alerts' deliveries, in this transaction (webhook-outbox.ts).
  await webhookOutboxService(ctx).enqueueAlerts(tx, [
    ...opened.map((a) => ({
      organizationId: a.organizationId,
      type: 'alert.opened' as const,
      at: a.openedAt,
      alertId: a.id,
    })),
    ...closed.map((a) => ({
      organizationId: a.organizationId,
      type: 'alert.closed' as const,
      at: a.closedAt ?? ctx.now(),
      alertId: a.id,
    })),
  ]);
  const versions = await engineStateRepository(tx).save(
    changed.map((c) => ({
      wearerId: c.wearerId,
      stateJson: c.json,
      lastReadingAt: c.lastReadingAt,
    })),
    alsoRun,
    last,
  );
  return {
    opened,
    closed,
    profiles,
    committed() {
      for (const c of changed) {
        const version = versions.get(c.wearerId);
        if (version !== undefined)
          rt.cache.set(c.wearerId, { version, state: c.state, json: c.json });
      }
    },
  };
}

/**
 * Opens the alert an engine effect asks for (unless one of its type is open for the wearer), with
 * the wearer's place at that moment when its kind records one. `folded`: the batch's place fold; `raisedAt`:
 * this server's clock now.
 */
export async function openAlert(
  tx: Queryable,
  profile: Profile,
  effect: Extract<EngineEffect, { kind: 'open' }>,
  folded: FoldedPlace | undefined,
  raisedAt: Date,
): Promise<AlertRecord | null> {
  const place = recordsPlace({ type: effect.alertType, level: effect.level })
    ? await placesService(tx).atOpening(profile.wearerId, effect.at, folded)
    : null;
  return alertWritesRepository(tx).insertOpen({
    id: randomUUID(),
    organizationId: profile.organizationId,
    groupId: profile.groupId,
    wearerId: profile.wearerId,
    braceletId: profile.braceletId,
    type: effect.alertType,
    level: effect.level,
    openedAt: effect.at,
    raisedAt,
    cause: effect.cause,
    notify: effect.notify,
    place,
  });
}

/**
 * After commit: the opened alerts' live frames leave at once from memory (the fast path), and this
 * server's outbox deliverers wake for their notices. Their outbox rows (written with each alert,
 * insertOpenAlert) make both survive a process killed before this runs: whichever server claims
 * the rows then emits the frame and sends the notices (modules/alert-outbox).
 */
export function announceOpened(ctx: AppContext, opened: readonly AlertRecord[]): void {
  if (!opened.length) return;
  // The bus marks each as published here (alert-outbox.plugin.ts), so its outbox row is only removed.
  for (const alert of opened) ctx.bus.emit('alert.opened', alert);
  ctx.alertOutbox.wake();
}

/** After commit: the in-memory copy, then the bus events the live stream listens to. */
export function publishOutcome(
  ctx: AppContext,
  outcome: EngineOutcome,
  updatedWearers: Iterable<string>,
): void {
  outcome.committed();
  announceOpened(ctx, outcome.opened);
  for (const alert of outcome.closed) ctx.bus.emit('alert.closed', alert);
  const wearers = new Set(updatedWearers);
  for (const a of [...outcome.opened, ...outcome.closed]) if (a.wearerId) wearers.add(a.wearerId);
  for (const wearerId of wearers) {
    const p = outcome.profiles.get(wearerId);
    if (p)
      notifyWearerUpdated(ctx, { organizationId: p.organizationId, groupId: p.groupId, wearerId });
  }
}

const TICK_CHUNK = 500;

/** One tick for every wearer with a bracelet (DISCONNECTION / NON_WEARING timers). */
export async function tickAll(ctx: AppContext, at: Date = ctx.now()): Promise<void> {
  const wearerIds = await engineStateRepository(ctx.db).monitoredWearers();
  for (let i = 0; i < wearerIds.length; i += TICK_CHUNK) {
    const chunk = wearerIds.slice(i, i + TICK_CHUNK);
    // Keyed by its wearers: an urgent batch does not overtake a queued tick of the same wearer.
    const outcome = await ctx.db.transaction(
      async (tx) => {
        const locked = await lockWearers(ctx, tx, chunk);
        return runEngine(
          ctx,
          tx,
          locked,
          chunk.map((wearerId) => ({ wearerId, inputs: [{ kind: 'tick', at }] })),
        );
      },
      { urgent: false, keys: chunk },
    );
    publishOutcome(ctx, outcome, []);
  }
}

/** Runs tickAll every intervalMs until the returned stop() (the app's onClose) is called. */
export function startEngineTicker(
  ctx: AppContext,
  intervalMs: number,
  onError: (err: unknown) => void,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return; // a slow tick is never overlapped by the next one
    if (!ctx.cluster.leads()) return; // with several servers, one ticks
    running = tickAll(ctx)
      .catch(onError)
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
