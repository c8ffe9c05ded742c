import { z } from 'zod';
import { GATEWAY_KINDS } from '../gateway-kinds.js';
import { GATEWAY_TYPES, HEART_RATE_DUTY_CYCLES } from '../telemetry.js';
import { displayName, gatewayListItem } from './organizations.js';

const idParam = z.string().min(1).max(64);
export const serialNumber = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');
const dutyCycle = z.union(
  HEART_RATE_DUTY_CYCLES.map((d) => z.literal(d)),
  { error: 'must be 1, 3, 5 or 10 (minutes)' },
);

// ---- Gateways ----

/** POST /v2/gateway: register a gateway; the answer carries its credential, shown once. */
export const registerGatewayBody = z.strictObject({
  clientId: idParam,
  type: z.enum(GATEWAY_TYPES),
  /** What it speaks (docs/gateway-adapters.md); fixed once registered. Default `native`. */
  kind: z.enum(GATEWAY_KINDS).default('native'),
  serialNumber,
  name: displayName,
  groupId: idParam.nullable().optional(),
});
/** What a gateway needs to connect (the registration page shows it as a QR code). */
export const gatewayConnection = z.object({
  /** PUBLIC_URL: HTTP batches go to {serverUrl}/gateway/v1/batches. */
  serverUrl: z.string(),
  gatewayId: z.string(),
  credential: z.string(),
  /**
   * MQTT: publish here (username gatewayId, password credential): the kind's own topic
   * (`GATEWAY_KIND_MQTT`: `gateways/<id>/batches` for native, `gateways/<id>/aprilbrother` and
   * `gateways/<id>/ingics` for those vendors); null for kinds that only post over HTTP ...
   */
  mqttTopic: z.string().nullable(),
  /** ... and read results and pending configuration here. */
  mqttResultsTopic: z.string(),
  /** The broker the server really takes MQTT on (host and port); null when it takes none. */
  mqttBroker: z.object({ host: z.string(), port: z.number().int() }).nullable(),
  /** PUBLIC_URL names the server's own machine: the URL above opens on no gateway (the dialog says so). */
  localOnlyLinks: z.boolean(),
  /** What the gateway speaks: the console shows what to enter on the device for this kind. */
  kind: z.enum(GATEWAY_KINDS),
  /**
   * Kinds whose devices can send only a URL (April Brother, Ingics): the secret path segment of
   * their URL, shown once like the credential and rotated with it; null for the other kinds.
   */
  pathSecret: z.string().nullable(),
});
export const registerGatewayResponse = z.object({
  gateway: gatewayListItem,
  connection: gatewayConnection,
});
export type RegisterGatewayBody = z.input<typeof registerGatewayBody>;
export type GatewayConnection = z.infer<typeof gatewayConnection>;
export type RegisteredGateway = z.infer<typeof registerGatewayResponse>;
export const gatewayParams = z.object({ gatewayId: idParam });
/** PATCH /v2/gateway/{gatewayId}: rename or move to another group (null: none). */
export const updateGatewayBody = z
  .strictObject({ name: displayName.optional(), groupId: idParam.nullable().optional() })
  .refine((b) => b.name !== undefined || b.groupId !== undefined, {
    message: 'give name or groupId',
    path: ['name'],
  });
export type UpdateGatewayBody = z.infer<typeof updateGatewayBody>;
/**
 * DELETE /v2/gateway/{gatewayId}: retire a gateway. Its credential stops working at once; the bracelets behind
 * it stay with their wearers, unlinked from any gateway (pairing pending again until linked to another one).
 */
export const deleteGatewayResponse = z.object({
  gatewayId: z.string(),
  /** Bracelets that were behind it and are now linked to no gateway. */
  unlinkedBracelets: z.number().int(),
});
export type DeleteGatewayResponse = z.infer<typeof deleteGatewayResponse>;
/** GET /v2/client/{clientId}/gateways?groupId=. */
export const gatewayListQuery = z.object({ groupId: idParam.optional() });
export const gatewayListResponse = z.object({ gateways: z.array(gatewayListItem) });

/** GET /v2/gateway/{gatewayId}: status and the bracelets behind it. */
export const gatewayDetail = gatewayListItem.extend({
  /** Last batch (same as lastSeenAt: the server records the time of each batch). */
  lastBatchAt: z.string().nullable(),
  bracelets: z.array(
    z.object({
      wearableId: z.string(),
      serialNumber: z.string(),
      deviceName: z.string(),
      uid: z.string().nullable(),
      name: z.string().nullable(),
      battery: z.number().int().nullable(),
      isPaired: z.boolean(),
    }),
  ),
  environment: z
    .object({
      at: z.string(),
      temperature: z.number().nullable(),
      humidity: z.number().nullable(),
      wbgt: z.number().nullable(),
    })
    .nullable(),
});
export type GatewayDetail = z.infer<typeof gatewayDetail>;

/** GET /v2/gateway/{gatewayId}/environment?from=&to=&points=: a chart of the gateway's sensor. */
export const environmentHistoryQuery = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  points: z.coerce.number().int().min(2).max(1000).default(200),
});
export const environmentHistoryResponse = z.object({
  gatewayId: z.string(),
  points: z.array(
    z.object({
      at: z.string(),
      temperature: z.number().nullable(),
      humidity: z.number().nullable(),
      wbgt: z.number().nullable(),
    }),
  ),
});

export type EnvironmentHistory = z.infer<typeof environmentHistoryResponse>;

// ---- Bracelets ----

/** POST /v2/device: register a bracelet by serial number for an organisation (409 on a known serial). */
export const registerBraceletBody = z.strictObject({
  mediromOrganizationId: idParam,
  serialNumber,
  deviceName: displayName.optional(),
  /** The bracelet's model as its maker names it (e.g. MB1). */
  model: z.string().trim().min(1).max(64).optional(),
  firmware: z.string().trim().min(1).max(64).optional(),
});
export type RegisterBraceletBody = z.input<typeof registerBraceletBody>;
export const braceletView = z.object({
  wearableId: z.string(),
  clientId: z.string(),
  serialNumber: z.string(),
  deviceName: z.string(),
  model: z.string().nullable(),
  firmware: z.string().nullable(),
  uid: z.string().nullable(),
  gatewayId: z.string().nullable(),
});
export type BraceletView = z.infer<typeof braceletView>;

/**
 * POST /v2/user/device/link/gateway: the pairing modal's start. Links the bracelet (by serial number) to the wearer
 * and to the gateway; pairing completes when the gateway reports the bracelet (GET /v2/device/isPairedWearable).
 * A bracelet worn by someone else is handed over: earlier readings stay with the earlier wearer.
 */
export const linkGatewayBody = z.strictObject({
  clientId: idParam,
  uid: idParam,
  gatewayId: idParam,
  serialNumber,
  deviceName: displayName.optional(),
});
/** POST /v2/user/device/unlink/gateway: detach a bracelet from its gateway (it stays with its wearer). */
export const unlinkGatewayBody = z.strictObject({ wearableId: idParam });
/** POST /v2/user/device/unlink: detach a bracelet from its wearer (it stays registered, on the shelf). */
export const unlinkDeviceBody = z.strictObject({ wearableId: idParam });
export const linkResponse = z.object({ device: braceletView, isPaired: z.boolean() });

/** GET /v2/device/isPairedWearable?targetUid=. */
export const isPairedQuery = z.object({ targetUid: idParam });
export const isPairedResponse = z.object({ isPaired: z.boolean() });

/** GET /v2/user/{uid}/device/setting: the wearer's bracelet (404 DEVICE_NOT_LINKED when none). */
export const deviceSetting = z.object({
  uid: z.string(),
  wearableId: z.string(),
  serialNumber: z.string(),
  deviceName: z.string(),
  /** The duty cycle asked for (minutes). */
  heartRateDutyCycle: z.number().int(),
  /** The one the bracelet runs, as its gateway acknowledged (null: never acknowledged). */
  appliedDutyCycle: z.number().int().nullable(),
  /** pending: sent to the gateway, not acknowledged yet. */
  configStatus: z.enum(['pending', 'applied']),
  battery: z.number().int().nullable(),
  firmware: z.string().nullable(),
  gatewayId: z.string().nullable(),
  gatewayName: z.string().nullable(),
  gatewayType: z.enum(GATEWAY_TYPES).nullable(),
  isPaired: z.boolean(),
});
export type DeviceSetting = z.infer<typeof deviceSetting>;
/** PATCH /v2/user/{uid}/device/setting. */
export const deviceSettingPatch = z
  .strictObject({ deviceName: displayName.optional(), heartRateDutyCycle: dutyCycle.optional() })
  .refine((b) => b.deviceName !== undefined || b.heartRateDutyCycle !== undefined, {
    message: 'give deviceName or heartRateDutyCycle',
    path: ['deviceName'],
  });
