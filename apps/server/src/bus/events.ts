import type { EventEmitter } from 'node:events';
import type {
  AlertLevel,
  AlertPlace,
  AlertType,
  ConfirmReason,
  LiveSiteHeatEvent,
} from '@wearable/domain';
import type { AlertCause } from '../engine/types.js';

/**
 * Events on ctx.bus, emitted by the ingestion service and the alerts module only AFTER the
 * transaction that stored them committed (a listener never sees a rolled-back alert).
 * The live stream and notifications subscribe to these.
 */

/** An alert as stored in the alerts table (camelCase). */
export interface AlertRecord {
  id: string;
  organizationId: string;
  groupId: string | null;
  /** Null on an SOS or fall from a device no wearer holds (issue 34): `deviceSerial` names it. */
  wearerId: string | null;
  braceletId: string | null;
  /** The serial of a device no wearer holds, else null. */
  deviceSerial: string | null;
  /** The gateway that heard a device no wearer holds, else null. */
  gatewayId: string | null;
  type: AlertType;
  level: AlertLevel;
  status: 'OPEN' | 'CLOSED';
  openedAt: Date;
  closedAt: Date | null;
  closeReason: 'recovered' | 'confirmed' | null;
  confirmedBy: string | null;
  confirmedAt: Date | null;
  confirmReason: ConfirmReason | null;
  confirmNote: string | null;
  cause: AlertCause;
  /** False outside the wearer's schedule: recorded, not notified. */
  notify: boolean;
  createdAt: Date;
  /** Where the wearer was at the opening (packages/domain/src/place/alert-place.ts), or null. */
  place: AlertPlace | null;
}

/** A wearer's latest values or alerts changed (debounced per wearer, at most ~1/s). */
export interface WearerUpdatedEvent {
  organizationId: string;
  groupId: string | null;
  wearerId: string;
}

/**
 * A gateway's credential changed (rotation): every ingestion cache drops it and the embedded broker
 * disconnects it. Within one process this is ctx.bus; with several servers the cross-server bus
 * carries the same event to each of them, so the old credential stops working on every server.
 */
export interface GatewayCredentialChangedEvent {
  gatewayId: string;
}

/** A bracelet was linked, unlinked or handed over: ingestion forgets its cached row (wearer, gateway). */
export interface BraceletChangedEvent {
  organizationId: string;
  serialNumber: string;
}

/** Sign-in sessions ended (sign out of one, everywhere, a person removed): their live streams end at once. */
export interface SessionsRevokedEvent {
  userId: string;
  sessionIds: string[];
}

/**
 * A site (gateway) changed heat level: emitted by ingestion after the transaction that stored the
 * change; the live stream forwards it, the site heat module notifies the group's heat contacts.
 */
export interface SiteHeatChangedEvent extends LiveSiteHeatEvent {
  organizationId: string;
}

export interface BusEvents {
  'alert.opened': AlertRecord;
  'alert.closed': AlertRecord;
  /** An alert that had already closed (recovered) was confirmed; an open one emits alert.closed. */
  'alert.confirmed': AlertRecord;
  'wearer.updated': WearerUpdatedEvent;
  'gateway.credentialChanged': GatewayCredentialChangedEvent;
  'bracelet.changed': BraceletChangedEvent;
  'sessions.revoked': SessionsRevokedEvent;
  'siteHeat.changed': SiteHeatChangedEvent;
}
export type BusEventName = keyof BusEvents;

/**
 * The in-process bus, typed by `BusEvents`: an emit or a listener with another name or payload
 * does not compile. (Node's EventEmitter takes the map of each event's arguments.)
 */
export type Bus = EventEmitter<{ [K in BusEventName]: [BusEvents[K]] }>;

export const BUS_EVENTS = {
  alertOpened: 'alert.opened',
  alertClosed: 'alert.closed',
  alertConfirmed: 'alert.confirmed',
  wearerUpdated: 'wearer.updated',
  gatewayCredentialChanged: 'gateway.credentialChanged',
  braceletChanged: 'bracelet.changed',
  sessionsRevoked: 'sessions.revoked',
  siteHeatChanged: 'siteHeat.changed',
} as const satisfies Record<string, BusEventName>;
