import { LOGGED_CHANNELS, type LoggedChannel } from './alerts.js';

/**
 * Channel health (issue 38 item 4, docs/decisions/0023-channel-health.md): every channel an
 * organisation's messages leave by (each logged channel of the notification log, and each webhook
 * endpoint) shows its last delivered attempt, its last failed one and why, and since when it has
 * failed. A channel whose every attempt has failed for CHANNEL_FAILING_AFTER_MS is itself told to the
 * organisation's owners, by another channel (channelFailureNoticeChannels), once per failing run.
 */

/** A run of failures (no success since its first failure) this old is "failing": the owners are told. */
export const CHANNEL_FAILING_AFTER_MS = 10 * 60_000;

/** How far back the health of a channel is read from the logs (the settings page and the sweep). */
export const CHANNEL_HEALTH_LOOKBACK_MS = 30 * 24 * 60 * 60_000;

/**
 * A run whose last failure is older than this opens no notice: a channel that failed once weeks ago
 * and has not been used since would otherwise page the owners when this feature is first deployed.
 */
export const CHANNEL_NOTICE_LOOKBACK_MS = 24 * 60 * 60_000;

/** A webhook endpoint is a channel of its own; the other channels are the notification log's. */
export const HEALTH_CHANNELS = [...LOGGED_CHANNELS, 'WEBHOOK'] as const;
export type HealthChannel = (typeof HEALTH_CHANNELS)[number];

export const isLoggedChannel = (c: string): c is LoggedChannel =>
  (LOGGED_CHANNELS as readonly string[]).includes(c);
export const isHealthChannel = (c: string): c is HealthChannel =>
  (HEALTH_CHANNELS as readonly string[]).includes(c);

/**
 * The channels that tell the owners a channel is failing: never the failing one. Mail, except
 * when mail fails (then SMS to the owners with a phone number); a webhook is told both ways, as it
 * is usually another system's alarm path. A channel added later (push, chat) is told by mail.
 */
export function channelFailureNoticeChannels(failing: HealthChannel): ('EMAIL' | 'SMS')[] {
  if (failing === 'EMAIL') return ['SMS'];
  if (failing === 'WEBHOOK') return ['EMAIL', 'SMS'];
  return ['EMAIL'];
}

/** One channel's attempts as the logs tell them (attempt times). */
export interface ChannelAttempts {
  lastDeliveredAt: Date | null;
  lastFailedAt: Date | null;
  /** The first failure after the last delivered attempt (null: the last attempt was delivered, or none failed). */
  failingSince: Date | null;
}

/** Whether the channel is failing at `now`: a run of failures at least CHANNEL_FAILING_AFTER_MS old. */
export const channelFailing = (a: ChannelAttempts, now: Date): boolean =>
  a.failingSince !== null && now.getTime() - a.failingSince.getTime() >= CHANNEL_FAILING_AFTER_MS;

/**
 * What the leader's sweep does with one channel: open a failing run (and tell the owners), close
 * the open one (a delivered attempt after its start: the channel recovered), or nothing.
 * `openSince`: the failingSince of the run already open, null when none is.
 */
export function channelFailureStep(
  a: ChannelAttempts,
  openSince: Date | null,
  now: Date,
): 'open' | 'close' | 'none' {
  if (openSince !== null) {
    return a.lastDeliveredAt !== null && a.lastDeliveredAt >= openSince ? 'close' : 'none';
  }
  if (!channelFailing(a, now) || a.lastFailedAt === null) return 'none';
  return now.getTime() - a.lastFailedAt.getTime() <= CHANNEL_NOTICE_LOOKBACK_MS ? 'open' : 'none';
}
