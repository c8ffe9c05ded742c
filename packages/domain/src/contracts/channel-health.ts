import { z } from 'zod';
import { HEALTH_CHANNELS } from '../channel-health.js';
import { organizationIdParams } from './alert-policy.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';

/**
 * One channel of the organisation: a logged channel (SMS, PHONE_CALL, EMAIL, and whatever
 * NOTIFICATION_CHANNELS adds) or one webhook endpoint. Times are attempt times (ISO), null when
 * none in the look-back (CHANNEL_HEALTH_LOOKBACK_MS).
 */
export const channelHealthView = z.object({
  channel: z.enum(HEALTH_CHANNELS),
  /** A webhook endpoint's id (null for the other channels). */
  webhookId: z.string().nullable(),
  /** A webhook endpoint's description, else its host (never its path: it may hold a token); null for the others. */
  label: z.string().nullable(),
  /** A webhook endpoint switched off (by hand, or after a day of failures). */
  enabled: z.boolean(),
  lastDeliveredAt: z.string().nullable(),
  lastFailedAt: z.string().nullable(),
  /** The provider's or the receiver's answer to the last failed attempt. */
  lastFailureReason: z.string().nullable(),
  /** The first failure after the last delivered attempt; null while the last attempt was delivered. */
  failingSince: z.string().nullable(),
  /** Every attempt has failed for CHANNEL_FAILING_AFTER_MS or longer. */
  failing: z.boolean(),
  /** When the owners were told of the open failing run (null: no open run, or not told yet). */
  noticedAt: z.string().nullable(),
});
export type ChannelHealthView = z.infer<typeof channelHealthView>;

export const channelHealthResponse = z.object({
  organizationId: z.string(),
  /** CHANNEL_FAILING_AFTER_MS in minutes, for the page's explanation. */
  failingAfterMinutes: z.number().int(),
  /** Logged channels first (in LOGGED_CHANNELS order), then webhook endpoints by creation. */
  channels: z.array(channelHealthView),
});
export type ChannelHealthResponse = z.infer<typeof channelHealthResponse>;

export const getChannelHealth = endpointsOf({ tags: ['Notifications'], errors: BEARER_ERRORS })({
  method: 'GET',
  path: '/v2/organization/{organizationId}/channelHealth',
  permission: 'channelHealth:read',
  summary:
    "Each of the organisation's channels (SMS, call, mail, each webhook): last delivery, last failure and its reason, failing since",
  params: organizationIdParams,
  responses: { 200: channelHealthResponse },
});
