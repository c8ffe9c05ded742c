import {
  type BraceletView,
  GATEWAY_ONLINE_MS,
  type LiveSiteHeatEvent,
  WEBHOOK_PAYLOAD_VERSION,
  type WebhookEventType,
} from '@wearable/domain';
import type { CoreContext } from '../../core-context.js';
import { type Queryable, whenCommitted } from '../../db/client.js';
import { alertViewsService } from '../alerts/alert-views.service.js';
import { type GatewayRow, toGatewayListItem } from '../gateways/gateways.service.js';
import type { WebhookRuntime } from './webhook-runtime.js';

/**
 * The outbox: an event's deliveries are written in the SAME transaction as the event (an alert
 * opened, a site's heat level changed...), one row per endpoint that wants it. A crash after the
 * commit loses nothing (the worker finds the rows); a rollback leaves none. When no endpoint of the
 * organisation wants the event type, nothing is written beyond one indexed look-up.
 */

type Ctx = Pick<CoreContext, 'now'> & { webhooks: WebhookRuntime };

export interface OutboxEvent {
  organizationId: string;
  type: WebhookEventType;
  at: Date;
}

interface Subscriber {
  id: string;
  organization_id: string;
  event_types: string[];
}

/** Enabled endpoints of these organisations that want any of these types. */
async function subscribers(tx: Queryable, events: readonly OutboxEvent[]): Promise<Subscriber[]> {
  return tx.query<Subscriber>(
    `SELECT id, organization_id, event_types FROM webhook_endpoints
      WHERE organization_id = ANY($1::text[]) AND enabled AND event_types && $2::text[]`,
    [[...new Set(events.map((e) => e.organizationId))], [...new Set(events.map((e) => e.type))]],
  );
}

/** The JSON body of an event, byte for byte what every attempt sends (and what is signed). */
export const payloadOf = (type: string, at: Date, data: unknown): string =>
  JSON.stringify({ type, timestamp: at.toISOString(), version: WEBHOOK_PAYLOAD_VERSION, data });

/**
 * Writes the events' deliveries in `tx`: `dataOf` builds each event's `data` (the contract's view)
 * only when some endpoint wants it. After commit, this server's worker is woken.
 */
async function enqueueWebhookEvents<E extends OutboxEvent>(
  ctx: Ctx,
  tx: Queryable,
  events: readonly E[],
  dataOf: (wanted: E[]) => Promise<unknown[]>,
  onlyEndpointId?: string,
): Promise<string[]> {
  if (!events.length) return [];
  const subs = (await subscribers(tx, events)).filter(
    (s) => onlyEndpointId === undefined || s.id === onlyEndpointId,
  );
  const wantedBy = events.map((e) =>
    subs.filter((s) => s.organization_id === e.organizationId && s.event_types.includes(e.type)),
  );
  const wanted = events.filter((_, i) => wantedBy[i]!.length > 0);
  if (!wanted.length) return [];
  const data = await dataOf(wanted);
  return insertEvents(
    ctx,
    tx,
    wanted.map((e, i) => ({
      organizationId: e.organizationId,
      type: e.type,
      payload: payloadOf(e.type, e.at, data[i]),
      endpointIds: wantedBy[events.indexOf(e)]!.map((s) => s.id),
    })),
  );
}

/** Inserts events and one pending delivery per endpoint; returns the delivery ids. */
async function insertEvents(
  ctx: Ctx,
  tx: Queryable,
  rows: { organizationId: string; type: string; payload: string; endpointIds: string[] }[],
): Promise<string[]> {
  const now = ctx.now();
  const inserted = await tx.query<{ id: string }>(
    `WITH input AS (
       SELECT o AS organization_id, t AS type, p AS payload, e AS endpoints,
              'evt_' || replace(gen_random_uuid()::text, '-', '') AS event_id
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS x(o, t, p, e)),
     ev AS (
       INSERT INTO webhook_events (id, organization_id, type, payload, created_at)
       SELECT event_id, organization_id, type, payload, $5 FROM input RETURNING id)
     INSERT INTO webhook_deliveries (id, endpoint_id, event_id, next_attempt_at, created_at)
     SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), endpoint_id, i.event_id, $5, $5
       FROM input i CROSS JOIN LATERAL unnest(string_to_array(i.endpoints, ',')) AS endpoint_id
      WHERE i.event_id IN (SELECT id FROM ev)
     RETURNING id`,
    [
      rows.map((r) => r.organizationId),
      rows.map((r) => r.type),
      rows.map((r) => r.payload),
      rows.map((r) => r.endpointIds.join(',')),
      now,
    ],
  );
  whenCommitted(tx, () => ctx.webhooks.wake());
  return inserted.map((r) => r.id);
}

/* ---- The hooks each place of an event calls, in its transaction ---- */

export interface AlertEvent extends OutboxEvent {
  alertId: string;
  /** alert.escalated: the notification step reached. */
  step?: number;
}

/** Alerts opened, escalated, confirmed or closed: their view as the alerts API shows it. */
function enqueueAlertEvents(
  ctx: Ctx,
  tx: Queryable,
  events: readonly AlertEvent[],
): Promise<string[]> {
  return enqueueWebhookEvents(ctx, tx, events, async (wanted) => {
    const views = await alertViewsService(tx).byIds([...new Set(wanted.map((e) => e.alertId))]);
    return wanted.map((e) => ({
      alert: views.get(e.alertId),
      ...(e.step !== undefined ? { step: e.step } : {}),
    }));
  });
}

/** A site's heat level changed: the live stream's frame (the site and the change). */
function enqueueSiteHeatEvents(
  ctx: Ctx,
  tx: Queryable,
  changes: readonly (LiveSiteHeatEvent & { organizationId: string })[],
): Promise<string[]> {
  const events = changes.map((c) => ({
    organizationId: c.organizationId,
    type: 'site.heatLevelChanged' as const,
    at: new Date(c.change.at),
    data: { site: c.site, change: c.change } satisfies LiveSiteHeatEvent,
  }));
  return enqueueWebhookEvents(ctx, tx, events, async (wanted) => wanted.map((e) => e.data));
}

/** Bracelets whose pairing the gateway just completed (ingestion's batch transaction). */
function enqueueBraceletsPaired(
  ctx: Ctx,
  tx: Queryable,
  organizationId: string,
  braceletIds: readonly string[],
  at: Date,
): Promise<string[]> {
  const events = braceletIds.map((id) => ({
    organizationId,
    type: 'bracelet.paired' as const,
    at,
    braceletId: id,
  }));
  return enqueueWebhookEvents(ctx, tx, events, async (wanted) => {
    const rows = await tx.query<BraceletView>(
      `SELECT id AS "wearableId", organization_id AS "clientId", serial_number AS "serialNumber",
              device_name AS "deviceName", model, firmware, wearer_id AS uid, gateway_id AS "gatewayId"
         FROM bracelets WHERE id = ANY($1::text[])`,
      [wanted.map((e) => e.braceletId)],
    );
    const byId = new Map(rows.map((r) => [r.wearableId, r]));
    return wanted.map((e) => ({ bracelet: byId.get(e.braceletId), pairedAt: at.toISOString() }));
  });
}

/**
 * Gateways online / offline: a state derived from the time of their last batch, so no transaction
 * records the change. This sweep does: in one transaction it records each watched gateway's state
 * (of organisations with an endpoint that wants these events) and, for each one that changed since
 * the last sweep, writes the event. A gateway seen for the first time is recorded silently.
 */
async function sweepGatewayStates(ctx: Ctx, tx: Queryable): Promise<string[]> {
  const now = ctx.now();
  const changed = await tx.query<{ gateway_id: string; organization_id: string; online: boolean }>(
    `WITH watched AS (
       SELECT gw.id, gw.organization_id,
              (gw.last_seen_at IS NOT NULL AND gw.last_seen_at >= $1::timestamptz) AS online
         FROM gateways gw
        WHERE gw.organization_id IN (
          SELECT organization_id FROM webhook_endpoints
           WHERE enabled AND event_types && ARRAY['gateway.offline', 'gateway.online'])),
     known AS (
       SELECT w.*, s.online AS was_online FROM watched w
         LEFT JOIN webhook_gateway_states s ON s.gateway_id = w.id),
     written AS (
       INSERT INTO webhook_gateway_states (gateway_id, online, changed_at)
       SELECT id, online, $2 FROM known WHERE was_online IS DISTINCT FROM online
       ON CONFLICT (gateway_id) DO UPDATE SET online = EXCLUDED.online, changed_at = EXCLUDED.changed_at
       RETURNING gateway_id)
     SELECT k.id AS gateway_id, k.organization_id, k.online FROM known k
      WHERE k.was_online IS NOT NULL AND k.was_online <> k.online
        AND k.id IN (SELECT gateway_id FROM written)`,
    [new Date(now.getTime() - GATEWAY_ONLINE_MS), now],
  );
  if (!changed.length) return [];
  const events = changed.map((c) => ({
    organizationId: c.organization_id,
    type: c.online ? ('gateway.online' as const) : ('gateway.offline' as const),
    at: now,
    gatewayId: c.gateway_id,
  }));
  return enqueueWebhookEvents(ctx, tx, events, async (wanted) => {
    const rows = await tx.query<GatewayRow>(
      `SELECT gw.id, gw.organization_id AS "organizationId", gw.name, gw.type, gw.kind,
              gw.serial_number AS "serialNumber", gw.group_id AS "groupId", g.name AS "groupName",
              gw.last_seen_at AS "lastSeenAt", gw.status_at AS "statusAt",
              gw.status_battery AS "statusBattery", gw.status_charging AS "statusCharging",
              gw.status_app_version AS "statusAppVersion",
              (SELECT count(*)::int FROM bracelets b WHERE b.gateway_id = gw.id) AS "braceletCount"
         FROM gateways gw LEFT JOIN groups g ON g.id = gw.group_id WHERE gw.id = ANY($1::text[])`,
      [wanted.map((e) => e.gatewayId)],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return wanted.map((e) => {
      const row = byId.get(e.gatewayId);
      return { gateway: row ? toGatewayListItem(row, now) : undefined };
    });
  });
}

/**
 * The outbox as the places of events use it, each in its own transaction `tx` (the batch's, the
 * confirmation's, the escalation's, the sweep's).
 */
export function webhookOutboxService(ctx: Ctx) {
  return {
    insertEvents: (tx: Queryable, rows: Parameters<typeof insertEvents>[2]) =>
      insertEvents(ctx, tx, rows),
    enqueueAlerts: (tx: Queryable, events: readonly AlertEvent[]) =>
      enqueueAlertEvents(ctx, tx, events),
    enqueueSiteHeat: (tx: Queryable, changes: Parameters<typeof enqueueSiteHeatEvents>[2]) =>
      enqueueSiteHeatEvents(ctx, tx, changes),
    enqueueBraceletsPaired: (
      tx: Queryable,
      organizationId: string,
      braceletIds: readonly string[],
      at: Date,
    ) => enqueueBraceletsPaired(ctx, tx, organizationId, braceletIds, at),
    sweepGatewayStates: (tx: Queryable) => sweepGatewayStates(ctx, tx),
  };
}
