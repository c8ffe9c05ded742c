import type { AlertLevel, AlertType } from '@wearable/domain';
import type { AlertCause } from './types.js';

/**
 * Events on ctx.bus, emitted by the ingestion service and the engine runner only AFTER the
 * transaction that stored them committed (a listener never sees a rolled-back alert).
 * The live stream and notifications subscribe to these.
 */

/** An alert as stored in the alerts table (camelCase). */
export interface AlertRecord {
  id: string;
  organizationId: string;
  groupId: string | null;
  wearerId: string;
  braceletId: string | null;
  type: AlertType;
  level: AlertLevel;
  status: 'OPEN' | 'CLOSED';
  openedAt: Date;
  closedAt: Date | null;
  closeReason: 'recovered' | 'confirmed' | null;
  confirmedBy: string | null;
  confirmedAt: Date | null;
  cause: AlertCause;
  /** False outside the wearer's schedule: recorded, not notified. */
  notify: boolean;
  createdAt: Date;
}

/** A wearer's latest values or alerts changed (debounced per wearer, at most ~1/s). */
export interface WearerUpdatedEvent {
  organizationId: string;
  groupId: string | null;
  wearerId: string;
}

export interface BusEvents {
  'alert.opened': AlertRecord;
  'alert.closed': AlertRecord;
  'wearer.updated': WearerUpdatedEvent;
}
export type BusEventName = keyof BusEvents;

export const BUS_EVENTS = {
  alertOpened: 'alert.opened',
  alertClosed: 'alert.closed',
  wearerUpdated: 'wearer.updated',
} as const satisfies Record<string, BusEventName>;
