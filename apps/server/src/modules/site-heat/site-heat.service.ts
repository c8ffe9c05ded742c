import {
  type Actor,
  type AlertPolicy,
  readSiteHeatState,
  type SiteHeatChangeView,
  type SiteHeatResponse,
  siteHeatStep,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { BUS_EVENTS, type SiteHeatChangedEvent } from '../../bus/events.js';
import { alertPolicyService } from '../alert-policy/alert-policy.service.js';
import { SITE_HEAT_POLICY_TTL_MS } from './site-heat-cache.js';
import { webhookOutboxService } from '../webhooks/webhook-outbox.service.js';
import type { Statement } from '../../db/statement.js';
import { saveStateStatement, siteHeatRepository } from './site-heat.repository.js';

/** A new environment reading of a gateway, as stored. */
export interface EnvironmentReading {
  at: Date;
  wbgt: number | null;
  temperature: number | null;
}

/**
 * The organisation's policy and time zone, cached for a short while (read on every batch with WBGT,
 * and for a phone gateway's man-down setting in its batch results).
 */
async function policyOf(
  ctx: AppContext,
  db: Queryable,
  organizationId: string,
): Promise<{ policy: AlertPolicy; timeZone: string }> {
  const cached = ctx.siteHeat.policies.get(organizationId);
  if (cached && cached.expires > Date.now()) return cached;
  const [policy, [org]] = await Promise.all([
    alertPolicyService(ctx).load(db, organizationId),
    db.query<{ time_zone: string }>('SELECT time_zone FROM organizations WHERE id = $1', [
      organizationId,
    ]),
  ]);
  const entry = {
    policy,
    timeZone: org?.time_zone ?? 'Asia/Tokyo',
    expires: Date.now() + SITE_HEAT_POLICY_TTL_MS,
  };
  ctx.siteHeat.policies.set(organizationId, entry);
  return entry;
}

/** What stepping a gateway's site heat leaves: the events to publish after commit, the state's save. */
export interface SiteHeatStep {
  events: SiteHeatChangedEvent[];
  /** The new state's write, for the caller to send with its other writes (runCombined). */
  save: Statement | null;
}

/**
 * Locks the gateway's site heat state row in the caller's transaction and reads it, for a caller
 * that sends it with its other statements (ingestion: one turn) and then calls stepSiteHeat.
 */
function lockSiteHeat(
  ctx: AppContext,
  tx: Queryable,
  gateway: { id: string; organizationId: string },
): Promise<unknown> {
  return siteHeatRepository(tx).lockState(gateway.id, gateway.organizationId, ctx.now());
}

/**
 * Steps the gateway's site heat level over its NEW environment readings, in time order, in the
 * caller's transaction (the state row is locked, so two batches of one gateway take turns). Each
 * change of level is recorded; the returned events are published after commit (publishSiteHeat);
 * the caller runs `save` in the same transaction.
 */
async function stepSiteHeat(
  ctx: AppContext,
  tx: Queryable,
  gateway: { id: string; organizationId: string },
  readings: readonly EnvironmentReading[],
  /** The state row as `lockSiteHeat` locked it earlier in this transaction (else it is locked here). */
  lockedState?: unknown,
): Promise<SiteHeatStep> {
  if (!readings.length) return { events: [], save: null };
  const { policy, timeZone } = await policyOf(ctx, tx, gateway.organizationId);
  const repo = siteHeatRepository(tx);
  const now = ctx.now();
  let state = readSiteHeatState(
    lockedState !== undefined
      ? lockedState
      : await repo.lockState(gateway.id, gateway.organizationId, now),
  );
  const eventIds: string[] = [];
  for (const r of [...readings].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const step = siteHeatStep(
      state,
      { at: r.at, wbgt: r.wbgt, airTemperature: r.temperature },
      policy,
      timeZone,
    );
    state = step.state;
    if (step.change) {
      eventIds.push(
        await repo.insertEvent({
          organizationId: gateway.organizationId,
          gatewayId: gateway.id,
          ...step.change,
        }),
      );
    }
  }
  const save = saveStateStatement(gateway.id, state, now);
  if (!eventIds.length) return { events: [], save };
  // A change (rare): the new state is written first, so each change's site shows the level it
  // reached (the live frame, the webhook), not the one it left.
  await tx.query(save.text, save.params);
  const events: SiteHeatChangedEvent[] = [];
  for (const id of eventIds) {
    const found = await repo.change(id, now);
    if (found) events.push(found);
  }
  // Webhooks: each change's deliveries, in this transaction (webhook-outbox.service.ts).
  await webhookOutboxService(ctx).enqueueSiteHeat(tx, events);
  return { events, save: null };
}

/** After commit: each change on the bus (live streams, notices, other servers). */
function publishSiteHeat(ctx: AppContext, events: readonly SiteHeatChangedEvent[]): void {
  for (const e of events) ctx.bus.emit(BUS_EVENTS.siteHeatChanged, e);
}

/** The site heat level as the console reads it: each site in the caller's scope, a group's changes. */
export function siteHeatService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const repo = siteHeatRepository(ctx.db);

  return {
    /** The organisation's policy and time zone, cached for a short while. */
    policy: (db: Queryable, organizationId: string) => policyOf(ctx, db, organizationId),
    /** Ingestion's steps, in its batch transaction `tx`: lock (sent with its other statements), step, publish after commit. */
    lock: (tx: Queryable, gateway: { id: string; organizationId: string }) =>
      lockSiteHeat(ctx, tx, gateway),
    step: (
      tx: Queryable,
      gateway: { id: string; organizationId: string },
      readings: readonly EnvironmentReading[],
      lockedState?: unknown,
    ) => stepSiteHeat(ctx, tx, gateway, readings, lockedState),
    publish: (events: readonly SiteHeatChangedEvent[]) => publishSiteHeat(ctx, events),

    async list(actor: Actor, clientId: string, groupId?: string): Promise<SiteHeatResponse> {
      await access.require(
        actor,
        'gateway:read',
        groupId ? 'group' : 'organization',
        groupId ?? clientId,
      );
      const sites = (await repo.sites(ctx.now(), clientId, groupId))
        .filter((s) =>
          access.may(actor, 'gateway:read', {
            organizationId: s.organizationId,
            groupIds: s.groupId ? [s.groupId] : [],
          }),
        )
        .map(({ organizationId: _, ...site }) => site);
      return { clientId, sites };
    },

    /** The group's level changes in [from, to) (the heat-rule report; its caller checked access). */
    changes(groupId: string, from: Date, to: Date): Promise<SiteHeatChangeView[]> {
      return repo.changes(groupId, from, to);
    },
  };
}
export type SiteHeatService = ReturnType<typeof siteHeatService>;
