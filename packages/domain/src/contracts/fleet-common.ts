/** A gateway is online while its last batch is younger than this. */
export const GATEWAY_ONLINE_MS = 5 * 60_000;
