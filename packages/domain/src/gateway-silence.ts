import type { AlertLevel } from './alerts.js';
import { GATEWAY_ONLINE_MS } from './contracts/fleet-common.js';

/**
 * The pipe itself is watched (issue 34 item 6): a gateway that stops sending is ONE gateway alert,
 * and while it is open its wearers' DISCONNECTION alerts are opened but not notified one by one
 * (Alertmanager-style inhibition: notice-policy.ts, INHIBITED_WHILE_GATEWAY_SILENT).
 *
 * The expected interval (gatewayExpectedIntervalMs): every batch moves `gateways.last_seen_at`; a
 * gateway sends at least once per duty cycle of the bracelets it serves, so it is silent after the
 * gateway list's own "offline" (GATEWAY_ONLINE_MS, 5 minutes), or two of its slowest bracelet's duty
 * cycles when that is longer. Either comes before its wearers' DISCONNECTION (at least 10 minutes,
 * and by default three duty cycles), so the gateway's alert is first.
 */
export const GATEWAY_SILENCE_AFTER_MS = GATEWAY_ONLINE_MS;

/** How long a gateway may send nothing: `longestDutyCycleMinutes` of the bracelets paired to it (null: none). */
export const gatewayExpectedIntervalMs = (longestDutyCycleMinutes: number | null): number =>
  Math.max(GATEWAY_SILENCE_AFTER_MS, 2 * (longestDutyCycleMinutes ?? 0) * 60_000);

/**
 * A gateway last heard longer ago than this opens no silence alert: one retired or unplugged for
 * good would otherwise page its group when this feature is first deployed, or after a restore.
 */
export const GATEWAY_SILENCE_LOOKBACK_MS = 24 * 60 * 60_000;

/** The level of a gateway silence alert (the device-status level of DISCONNECTION). */
export const GATEWAY_SILENCE_LEVEL: AlertLevel = 'DEVICE_STATUS';

/**
 * Gateway types watched for silence. A SMARTPHONE gateway is quiet whenever its phone is (the app
 * closed, the shift over): its wearer's own DISCONNECTION says it, notified as before.
 */
export const WATCHED_GATEWAY_TYPES: readonly string[] = ['STATIONARY'];

/**
 * What the leader's sweep does with one gateway at `now`: open its silence alert, close the open
 * one, or nothing. `lastSeenAt`: its last batch (null: never heard, never silent); `openSince`: the
 * last batch the open silence alert counted from, null when none is open.
 */
export function gatewaySilenceStep(g: {
  type: string;
  lastSeenAt: Date | null;
  /** The longest duty cycle (minutes) of the bracelets paired to it; null when none. */
  longestDutyCycleMinutes: number | null;
  openSince: Date | null;
  now: Date;
}): 'open' | 'close' | 'none' {
  const { lastSeenAt, openSince, now } = g;
  if (openSince !== null) {
    return lastSeenAt !== null && lastSeenAt.getTime() > openSince.getTime() ? 'close' : 'none';
  }
  if (lastSeenAt === null || !WATCHED_GATEWAY_TYPES.includes(g.type)) return 'none';
  const silent = now.getTime() - lastSeenAt.getTime();
  return silent >= gatewayExpectedIntervalMs(g.longestDutyCycleMinutes) &&
    silent <= GATEWAY_SILENCE_LOOKBACK_MS
    ? 'open'
    : 'none';
}

/** Whether an organisation's ingestion has stopped: it had gateways heard, and none for this long. */
export const INGESTION_STOPPED_AFTER_MS = GATEWAY_SILENCE_AFTER_MS;
