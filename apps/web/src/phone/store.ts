import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

/** What the enrolment gave this phone (POST /v2/phone/enrol), kept until the server signs it out. */
export interface Enrolment {
  gatewayId: string;
  credential: string;
  organization: { id: string; name: string };
  group: { id: string; name: string } | null;
  gatewayName: string;
  enrolledAt: string;
  /**
   * Who carries the phone, as the server decided at enrolment (or a shared phone's choice since):
   * its SOS and falls are sent for `serialNumber`. Absent for a phone enrolled before issue 34.
   */
  carrier?: Carrier;
}

/** The enrolment answer's `carrier` (the domain's `phoneCarrier`). */
export interface Carrier {
  shared: boolean;
  wearer: { id: string; name: string } | null;
  serialNumber: string;
}

/** The gateway protocol's optional position of a reading or an event. */
export interface Location {
  latitude: number;
  longitude: number;
  accuracy: number;
  at: string;
}

export type ItemList = 'readings' | 'events' | 'pairings';

/** One protocol item waiting to leave in a batch. Urgent items (SOS, FALL) form their own batches first. */
export interface QueuedItem {
  list: ItemList;
  urgent: boolean;
  item: Record<string, unknown>;
}

export interface BatchBody {
  batchId: string;
  readings?: Record<string, unknown>[];
  events?: Record<string, unknown>[];
  pairings?: Record<string, unknown>[];
}

/** A batch as it was first formed: re-sent byte for byte until the server acknowledges it. */
export interface StoredBatch {
  seq: number;
  urgent: boolean;
  count: number;
  body: string;
}

/** A band this phone was given, so it reconnects after a reload without asking again. */
export interface KnownBand {
  id: string;
  name: string;
  serialNumber: string;
}

/** The worker's own settings on this phone. */
export interface Settings {
  /** The worker agreed to send the phone's position with SOS, falls and (once a minute) readings. */
  positionConsent: boolean;
  /** Watch the phone's motion for falls. */
  fallWatch: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  positionConsent: false,
  fallWatch: false,
};

/**
 * The organisation's settings the phone follows (its alert policy, sent at enrolment and with every
 * batch result): man-down minutes, 0 = off (the default), 1..60 = watch for that long without movement.
 */
export interface OrgSettings {
  manDownMinutes: number;
  /** The organisation's emergency number, offered beside 119 when an SOS cannot be delivered. */
  emergencyPhone: string | null;
}

interface KvValues {
  enrolment: Enrolment;
  settings: Settings;
  bands: KnownBand[];
  lastAckAt: string;
  nextSeq: number;
  signedOut: { at: string; status: number };
  orgSettings: OrgSettings;
  /** The last SOS or fall and whether it was delivered: an undelivered one is shown again after a reload. */
  lastEvent: {
    type: 'SOS' | 'FALL';
    at: string;
    delivery: 'sending' | 'sent' | 'failed';
    reason?: string;
  };
}

interface PhoneDb extends DBSchema {
  kv: { key: string; value: unknown };
  items: { key: number; value: QueuedItem };
  batches: { key: number; value: StoredBatch };
}

export type Db = IDBPDatabase<PhoneDb>;

export function openPhoneDb(name = 'wearable-phone'): Promise<Db> {
  return openDB<PhoneDb>(name, 1, {
    upgrade(db) {
      db.createObjectStore('kv');
      db.createObjectStore('items', { autoIncrement: true });
      db.createObjectStore('batches', { keyPath: 'seq' });
    },
  });
}

export async function getKv<K extends keyof KvValues>(
  db: Db,
  key: K,
): Promise<KvValues[K] | undefined> {
  return (await db.get('kv', key)) as KvValues[K] | undefined;
}

export async function setKv<K extends keyof KvValues>(
  db: Db,
  key: K,
  value: KvValues[K],
): Promise<void> {
  await db.put('kv', value, key);
}

export async function deleteKv(db: Db, key: keyof KvValues): Promise<void> {
  await db.delete('kv', key);
}
