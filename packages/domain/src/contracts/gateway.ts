import { z } from 'zod';
import { isoInstant } from './common.js';
import { SLEEP_STAGE_CODES, STRESS_LEVELS } from '../telemetry.js';
import { MAN_DOWN_MAX_MINUTES } from '../alert-policy.js';

/**
 * The gateway protocol: what a gateway (stationary box or smartphone) sends, over HTTP
 * (POST /gateway/v1/batches, header `Authorization: Gateway <gatewayId>:<credential>`) or
 * MQTT (username = gatewayId, password = credential, publish QoS 1 to
 * `gateways/<gatewayId>/batches`; the result is published back on `gateways/<gatewayId>/results`).
 *
 * Items are checked one by one: a bad item is refused with its reason; the valid items of the
 * same batch are still stored. Range checks (heart rate 20..250, temperature 25..45 C,
 * timestamps at most 5 minutes ahead) are done by the server, not by this schema, so that
 * each refused item gets its own reason.
 */
/**
 * Where the gateway was when it measured (a phone gateway's position, with the worker's consent):
 * optional on readings and events; stationary gateways leave it out. Its time may not be in the
 * future (beyond the items' 5-minute clock tolerance, checked by the server like `at`).
 */
export const LOCATION_LIMITS = { maxAccuracyMeters: 10_000 } as const;
export const gatewayLocation = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  /** Radius in metres within which the position lies (68% confidence, as browsers report it). */
  accuracy: z.number().min(0).max(LOCATION_LIMITS.maxAccuracyMeters),
  /** When the position was taken, ISO 8601 with offset. */
  at: isoInstant,
});
export type GatewayLocation = z.infer<typeof gatewayLocation>;

/** Received signal strength in dBm, as Bluetooth and LoRa report it. */
export const RSSI_LIMITS = { min: -130, max: 20 } as const;

export const braceletReading = z.object({
  /** Bracelet serial number. */
  serialNumber: z.string().min(1).max(64),
  /** When the bracelet measured, ISO 8601 with offset. (bracelet, at) identifies a reading. */
  at: isoInstant,
  heartRate: z.number().optional(),
  skinTemperature: z.number().optional(),
  worn: z.boolean().optional(),
  /** Steps counted since the previous reading. */
  steps: z.number().int().min(0).max(100_000).optional(),
  sleepStage: z.union(SLEEP_STAGE_CODES.map((c) => z.literal(c))).optional(),
  stressLevel: z.enum(STRESS_LEVELS).optional(),
  battery: z.number().int().min(0).max(100).optional(),
  /** How strongly the gateway heard the bracelet (dBm); stationary gateways that know it send it. */
  rssi: z.number().int().min(RSSI_LIMITS.min).max(RSSI_LIMITS.max).optional(),
  location: gatewayLocation.optional(),
});
export type BraceletReading = z.infer<typeof braceletReading>;

/** The gateway's own environment sensor. (gateway, at) identifies it. */
export const environmentReading = z.object({
  at: isoInstant,
  temperature: z.number().min(-40).max(70).optional(),
  humidity: z.number().min(0).max(100).optional(),
  wbgt: z.number().min(-40).max(60).optional(),
});
export type EnvironmentReading = z.infer<typeof environmentReading>;

export const DEVICE_EVENT_TYPES = ['SOS', 'FALL', 'WORN', 'REMOVED'] as const;
export type DeviceEventType = (typeof DEVICE_EVENT_TYPES)[number];

/** What made a gateway send FALL: an impact it detected, or man-down (no movement for a while). */
export const FALL_TRIGGERS = ['impact', 'man-down'] as const;
export type FallTrigger = (typeof FALL_TRIGGERS)[number];

/**
 * Why a FALL was sent (optional; a gateway that does not know leaves it out): `impact` (free fall,
 * impact, stillness) or `man-down` with `stillMinutes`, the minutes without movement it waited
 * (1..60, the organisation's man-down setting). No other keys.
 */
export const fallCause = z
  .strictObject({
    trigger: z.enum(FALL_TRIGGERS, {
      error: `must be one of ${FALL_TRIGGERS.map((t) => `'${t}'`).join(', ')}`,
    }),
    stillMinutes: z
      .number({ error: 'must be a number of minutes' })
      .int('must be a whole number of minutes')
      .min(1, 'must be at least 1 minute')
      .max(MAN_DOWN_MAX_MINUTES, `must be at most ${MAN_DOWN_MAX_MINUTES} minutes`)
      .optional(),
  })
  .superRefine((cause, ctx) => {
    if (cause.trigger === 'man-down' && cause.stillMinutes === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['stillMinutes'],
        message: "is required when trigger is 'man-down'",
      });
    if (cause.trigger === 'impact' && cause.stillMinutes !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['stillMinutes'],
        message: "is only for trigger 'man-down'",
      });
  });
export type FallCause = z.infer<typeof fallCause>;

export const deviceEvent = z
  .object({
    serialNumber: z.string().min(1).max(64),
    type: z.enum(DEVICE_EVENT_TYPES),
    at: isoInstant,
    location: gatewayLocation.optional(),
    /**
     * How strongly the gateway heard the bracelet send it (dBm), as on readings: the place of an
     * SOS or fall is the gateway that heard it strongest.
     */
    rssi: z.number().int().min(RSSI_LIMITS.min).max(RSSI_LIMITS.max).optional(),
    /** FALL only: why it was sent (`fallCause`). */
    cause: fallCause.optional(),
  })
  .superRefine((event, ctx) => {
    if (event.cause !== undefined && event.type !== 'FALL')
      ctx.addIssue({ code: 'custom', path: ['cause'], message: 'is only for FALL events' });
  });
export type DeviceEvent = z.infer<typeof deviceEvent>;

/** A bracelet the gateway now hears after a link (the pairing event): completes the pairing. */
export const pairingEvent = z.object({
  serialNumber: z.string().min(1).max(64),
  at: isoInstant,
});
export type PairingEvent = z.infer<typeof pairingEvent>;

/** The gateway applied a bracelet's configuration of this version (see `pendingConfig` in the result). */
export const configAck = z.object({
  serialNumber: z.string().min(1).max(64),
  version: z.number().int().min(1),
});
export type ConfigAck = z.infer<typeof configAck>;

/** Configuration a bracelet should run, sent until the gateway acknowledges its version. */
export const pendingBraceletConfig = z.object({
  serialNumber: z.string(),
  version: z.number().int(),
  heartRateDutyCycle: z.number().int(),
});
export type PendingBraceletConfig = z.infer<typeof pendingBraceletConfig>;

/**
 * The gateway's own state (a phone's battery, its app version), sent now and then in a batch's
 * optional `status`; kept when newer than the one stored, and shown to staff on the gateways page.
 * (gateway, at) identifies it: a re-sent batch stores it once.
 */
export const gatewayStatusReport = z.strictObject({
  /** When the gateway read these values. */
  at: isoInstant,
  /** The gateway's own battery, percent. */
  battery: z.number().int().min(0).max(100).optional(),
  charging: z.boolean().optional(),
  /** The gateway software's version, e.g. the /phone app's `1.4.0`. */
  appVersion: z
    .string()
    .min(1)
    .max(32)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
});
export type GatewayStatusReport = z.infer<typeof gatewayStatusReport>;

/**
 * A batch. Items are validated one by one, so the arrays hold unknown items here; the
 * server parses each with the schemas above and reports the ones it refuses.
 */
export const gatewayBatch = z.object({
  /** Optional gateway-side id echoed in the result (MQTT correlation). */
  batchId: z.string().max(128).optional(),
  readings: z.array(z.unknown()).max(5000).default([]),
  environment: z.array(z.unknown()).max(1000).default([]),
  events: z.array(z.unknown()).max(1000).default([]),
  pairings: z.array(z.unknown()).max(1000).default([]),
  configAcks: z.array(z.unknown()).max(1000).default([]),
  /** The gateway's own status (gatewayStatusReport), checked like an item: a bad one is refused alone. */
  status: z.unknown().optional(),
});
/** A batch as received, before its defaults: the one batch type of ingestion (HTTP, MQTT, simulator). */
export type IncomingGatewayBatch = z.input<typeof gatewayBatch>;
export type GatewayBatch = {
  batchId?: string;
  readings?: BraceletReading[];
  environment?: EnvironmentReading[];
  events?: DeviceEvent[];
  pairings?: PairingEvent[];
  configAcks?: ConfigAck[];
  status?: GatewayStatusReport;
};

/**
 * What a phone gateway learns from its organisation, at enrolment and with every batch result:
 * `manDownMinutes` 0 (man-down off) or 1..60 (watch for that many minutes without movement).
 */
export const phoneGatewaySettings = z.object({
  manDownMinutes: z.number().int().min(0).max(MAN_DOWN_MAX_MINUTES),
  /**
   * The organisation's emergency number (issue 34), which the phone offers beside 119 when an SOS or
   * fall cannot be delivered; null when the organisation set none. Absent from older servers.
   */
  emergencyPhone: z.string().nullable().optional(),
});
export type PhoneGatewaySettings = z.infer<typeof phoneGatewaySettings>;

export const rejectedItem = z.object({
  /** The list the item was in; `status` (index 0) for the batch's gateway status. */
  list: z.enum(['readings', 'environment', 'events', 'pairings', 'configAcks', 'status']),
  index: z.number().int(),
  reason: z.string(),
});
export const batchResult = z.object({
  batchId: z.string().optional(),
  /** Items stored now. */
  accepted: z.number().int(),
  /** Items already stored before (a retry or a redelivery): not stored again. */
  duplicates: z.number().int(),
  rejected: z.array(rejectedItem),
  /**
   * Items stored without an optional part that was invalid, each naming it. An SOS or FALL is
   * never refused for its `cause` or `location`: the part is dropped, the event kept.
   */
  warnings: z.array(rejectedItem).optional(),
  /** Present when bracelets of this gateway have configuration it has not acknowledged yet. */
  pendingConfig: z.array(pendingBraceletConfig).optional(),
  /** SMARTPHONE gateways: the organisation's settings the phone follows (`phoneGatewaySettings`). */
  gatewaySettings: phoneGatewaySettings.optional(),
});
export type BatchResult = z.infer<typeof batchResult>;

export const gatewayTopics = {
  batches: (gatewayId: string) => `gateways/${gatewayId}/batches`,
  results: (gatewayId: string) => `gateways/${gatewayId}/results`,
};
