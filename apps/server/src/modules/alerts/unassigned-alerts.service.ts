import { randomUUID } from 'node:crypto';
import type { AlertPlace, FallCause } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import type { AlertRecord } from '../../bus/events.js';
import { webhookOutboxService } from '../webhooks/webhook-outbox.service.js';
import {
  type GatewayWhere,
  unassignedAlertsRepository,
  type UnassignedEventRow,
} from './unassigned-alerts.repository.js';
import { alertOutboxService } from '../alert-outbox/alert-outbox.service.js';

/**
 * An SOS or a fall from a device no wearer holds (issue 34, "no help call is dropped"): a serial the
 * organisation does not know, or a bracelet it registered that nobody wears. Nobody's engine state
 * can hold it, so it does not go through the engine: it opens an EMERGENCY alert of its own type
 * (SOS_CALL or DETECT_FALL_DOWN) with no wearer, naming the serial and the gateway that heard it,
 * in the gateway's group, placed at the gateway. Like any SOS it is always notified (no schedule
 * applies: there is no wearer to have one) and closes only when staff confirm it. The event is
 * stored once (unassigned_device_events), so a gateway's resend opens nothing; a second press
 * while the alert is open is the same incident, as for a wearer.
 */
export interface UnassignedEvent extends UnassignedEventRow {
  /** The phone gateway's position when the event happened, if it sent one. */
  location: { latitude: number; longitude: number; accuracy: number; at: Date } | null;
  cause: FallCause | null;
}

export function unassignedAlertsService(ctx: AppContext) {
  return {
    /**
     * In the batch's transaction: stores the events and opens their alerts. Returns how many events
     * were new (the batch answer counts them as accepted) and the alerts opened now.
     */
    async open(
      tx: Queryable,
      gateway: { id: string; organizationId: string },
      events: readonly UnassignedEvent[],
    ): Promise<{ accepted: number; opened: AlertRecord[] }> {
      if (events.length === 0) return { accepted: 0, opened: [] };
      const repo = unassignedAlertsRepository(tx);
      const [fresh, where] = await Promise.all([
        repo.insertEvents(gateway.organizationId, gateway.id, events),
        repo.gatewayWhere(gateway.id),
      ]);
      const byKey = new Map(events.map((e) => [keyOf(e), e]));
      const opened: AlertRecord[] = [];
      const sorted = [...fresh].sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime());
      for (const row of sorted) {
        const event = byKey.get(keyOf({ ...row, at: new Date(row.at) }));
        if (!event) continue;
        const alert = await repo.insertOpenAlert({
          id: randomUUID(),
          organizationId: gateway.organizationId,
          groupId: where?.groupId ?? null,
          gatewayId: gateway.id,
          serialNumber: event.serialNumber,
          braceletId: event.braceletId,
          type: event.type === 'SOS' ? 'SOS_CALL' : 'DETECT_FALL_DOWN',
          openedAt: event.at,
          cause: causeOf(event),
          place: placeOf(gateway.id, where, event),
        });
        const alertId =
          alert?.id ??
          (await repo.openAlertId(
            gateway.organizationId,
            event.serialNumber,
            event.type === 'SOS' ? 'SOS_CALL' : 'DETECT_FALL_DOWN',
          ));
        if (alertId) await repo.linkEvent(gateway.organizationId, row, alertId);
        if (alert) opened.push(alert);
      }
      // Its live frame and notices in this transaction, as for every alert (decision 0015): a kill
      // right after the commit loses neither.
      await alertOutboxService(ctx).enqueue(
        tx,
        opened.flatMap((a) => [
          { alertId: a.id, kind: 'live' as const },
          { alertId: a.id, kind: 'notice' as const },
        ]),
      );
      await webhookOutboxService(ctx).enqueueAlerts(
        tx,
        opened.map((a) => ({
          organizationId: a.organizationId,
          type: 'alert.opened' as const,
          at: a.openedAt,
          alertId: a.id,
        })),
      );
      return { accepted: fresh.length, opened };
    },

    /** After commit: out as every alert goes (the live stream, notifications: engine-turn.ts publishOutcome). */
    publish(opened: readonly AlertRecord[]): void {
      if (opened.length === 0) return;
      // The bus marks each frame delivered here (alert-outbox.plugin.ts); the outbox sends the notices.
      for (const alert of opened) ctx.bus.emit('alert.opened', alert);
      ctx.alertOutbox.wake();
    },
  };
}

const keyOf = (e: { serialNumber: string; type: string; at: Date }) =>
  `${e.serialNumber}|${e.type}|${e.at.getTime()}`;

/** As the engine's SOS and fall rules say it, and the device named (sos-fall.rule.ts). */
function causeOf(e: UnassignedEvent) {
  const at = e.at.toISOString();
  const values: Record<string, string | number | boolean | null> = {
    event: e.type,
    serialNumber: e.serialNumber,
    registered: e.braceletId !== null,
  };
  if (e.cause) {
    values.trigger = e.cause.trigger;
    if (e.cause.stillMinutes !== undefined) values.stillMinutes = e.cause.stillMinutes;
  }
  const manDown = e.cause?.trigger === 'man-down' && e.cause.stillMinutes !== undefined;
  const rule = e.type === 'SOS' ? 'sos-button' : manDown ? 'man-down' : 'fall-detected';
  return { rule, values, windowStart: at, windowEnd: at };
}

/** Where it was: the phone's position when it sent one, else the gateway and its site. */
function placeOf(
  gatewayId: string,
  where: GatewayWhere | undefined,
  e: UnassignedEvent,
): AlertPlace {
  const site = { siteId: where?.siteId ?? null, siteName: where?.siteName ?? null };
  const gatewayName = where?.name ?? null;
  if (e.location)
    return {
      kind: 'position',
      latitude: e.location.latitude,
      longitude: e.location.longitude,
      accuracy: e.location.accuracy,
      at: e.location.at.toISOString(),
      gatewayId,
      gatewayName,
      ...site,
    };
  return {
    kind: 'gateway',
    gatewayId,
    gatewayName,
    since: e.at.toISOString(),
    rssi: null,
    ...site,
  };
}
