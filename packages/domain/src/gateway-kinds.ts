/**
 * What a gateway speaks, chosen when it is registered (issue 18): the product's own batch
 * (`native`), a Bluetooth gateway's vendor format, or a LoRaWAN network server's integration.
 * Paths and topics are written here once: the server's routes and the console's instructions
 * both read them.
 */
export const GATEWAY_KINDS = [
  'native',
  'minew',
  'aprilbrother',
  'ingics',
  'chirpstack',
  'thethingsstack',
] as const;
export type GatewayKind = (typeof GATEWAY_KINDS)[number];

/** The vendor kinds (everything but `native`): each has its own HTTP route. */
export type VendorGatewayKind = Exclude<GatewayKind, 'native'>;
export const VENDOR_GATEWAY_KINDS = GATEWAY_KINDS.filter(
  (k): k is VendorGatewayKind => k !== 'native',
);

/**
 * How each kind authenticates over HTTP:
 * - `gateway`: `Authorization: Gateway <gatewayId>:<credential>` (the native protocol);
 * - `basic`: HTTP Basic, user = gateway id, password = credential (the device's own setting);
 * - `header`: the network server sends `Authorization: Gateway <gatewayId>:<credential>` as a
 *   header it is configured with (ChirpStack "Headers", The Things Stack "Additional headers");
 * - `path`: the device can send only a URL: a per-gateway secret path segment (never logged,
 *   rotated with the credential). Such devices may still use `basic` where their firmware can.
 */
export type GatewayHttpAuth = 'gateway' | 'basic' | 'header' | 'path';

export const GATEWAY_KIND_HTTP: Record<GatewayKind, { path: string; auth: GatewayHttpAuth }> = {
  native: { path: '/gateway/v1/batches', auth: 'gateway' },
  minew: { path: '/gateway/v1/minew', auth: 'basic' },
  aprilbrother: { path: '/gateway/v1/aprilbrother', auth: 'path' },
  ingics: { path: '/gateway/v1/ingics', auth: 'path' },
  chirpstack: { path: '/gateway/v1/chirpstack', auth: 'header' },
  thethingsstack: { path: '/gateway/v1/thethingsstack', auth: 'header' },
};

/** Kinds that get a secret path segment (their devices can send only a URL). */
export const kindUsesPathSecret = (kind: GatewayKind): boolean =>
  GATEWAY_KIND_HTTP[kind].auth === 'path';

/** The HTTP URL a device posts to; with a path secret, `<path>/<gatewayId>/<secret>`. */
export function gatewayHttpUrl(
  serverUrl: string,
  kind: GatewayKind,
  gatewayId: string,
  pathSecret?: string | null,
): string {
  const base = `${serverUrl.replace(/\/+$/, '')}${GATEWAY_KIND_HTTP[kind].path}`;
  return pathSecret && kindUsesPathSecret(kind)
    ? `${base}/${encodeURIComponent(gatewayId)}/${pathSecret}`
    : base;
}

/** Kinds that may also publish over MQTT, and the topic their payload goes to. */
export const GATEWAY_KIND_MQTT: Partial<Record<GatewayKind, (gatewayId: string) => string>> = {
  native: (id) => `gateways/${id}/batches`,
  aprilbrother: (id) => `gateways/${id}/aprilbrother`,
  ingics: (id) => `gateways/${id}/ingics`,
};

/** The vendor MQTT topics (`gateways/<id>/<kind>`), for the broker's authorisation and subscriptions. */
export const VENDOR_MQTT_KINDS = ['aprilbrother', 'ingics'] as const satisfies VendorGatewayKind[];
