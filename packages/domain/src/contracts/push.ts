import { z } from 'zod';
import { endpointsOf } from './endpoint.js';

/**
 * Web Push (docs/push.md, docs/decisions/0021-web-push.md): one's own browsers subscribed to alert notices,
 * for every role (self:read / self:update); the server's VAPID public key for `pushManager.subscribe()`.
 * A subscription belongs to the person; the notices it gets are the PUSH rows of the groups' notice settings.
 */

/** base64url without padding, as `PushSubscription.toJSON()` gives the keys. */
const base64url = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url without padding');

/** What `PushSubscription.toJSON()` gives, as the browser hands it over. */
export const pushSubscriptionBody = z.object({
  /** The push service's URL for this browser (RFC 8030 §5): https, at most 2 KB. */
  endpoint: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .refine((v) => !v.includes('#'), 'must have no fragment'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes: 87 characters). */
    p256dh: base64url(87, 87),
    /** The 16-byte authentication secret (22 characters). */
    auth: base64url(22, 22),
  }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

/** One subscribed browser on the account page (never its endpoint or keys). */
export const pushSubscriptionView = z.object({
  id: z.string(),
  /** Browser and system from the User-Agent at subscription ("Chrome / Android"), or null. */
  browser: z.string().nullable(),
  os: z.string().nullable(),
  createdAt: z.string(),
  /** The last push the push service accepted, or null. */
  lastPushedAt: z.string().nullable(),
  /** Made from the session this request comes from (this browser, most likely). */
  current: z.boolean(),
});
export type PushSubscriptionView = z.infer<typeof pushSubscriptionView>;
export const pushSubscriptionsResponse = z.object({
  subscriptions: z.array(pushSubscriptionView),
});
export type PushSubscriptionsResponse = z.infer<typeof pushSubscriptionsResponse>;

export const pushKeyResponse = z.object({
  /** The server's VAPID public key (RFC 8292), base64url: `applicationServerKey`. */
  publicKey: z.string(),
});
export type PushKeyResponse = z.infer<typeof pushKeyResponse>;

export const pushSubscriptionParams = z.object({ subscriptionId: z.string().min(1).max(64) });

/**
 * What a notice's push carries to the service worker: the words of its SMS and where to open, never a token.
 * 確認 opens `/alerts/{alertId}/confirm` (the console confirms with the person's own session), 詳細 `url`.
 */
export const pushNoticePayload = z.object({
  /** The alert of a single alert's notice; null for a site heat or gateway notice. */
  alertId: z.string().nullable(),
  /** Who and what ("【緊急】佐藤 花子さん"), then what and where: the SMS's wording split at its colon. */
  title: z.string(),
  body: z.string(),
  /** The console path 詳細 opens (the wearer's alerts, or the alert history), same origin. */
  url: z.string(),
  /** EMERGENCY: the notification stays until it is answered. */
  emergency: z.boolean(),
  /** One alert's notice: 確認 is offered (a grouped message or a summary has 詳細 only). */
  confirmable: z.boolean(),
});
export type PushNoticePayload = z.infer<typeof pushNoticePayload>;

const push = endpointsOf({ tags: ['Account'], errors: [400, 401, 403, 404, 409, 429] });

export const getPushKey = push({
  method: 'GET',
  path: '/v2/user/push/key',
  permission: 'self:read',
  summary: "The server's VAPID public key, for subscribing this browser to alert notices",
  responses: { 200: pushKeyResponse },
});

export const listPushSubscriptions = push({
  method: 'GET',
  path: '/v2/user/push/subscriptions',
  permission: 'self:read',
  summary: "One's browsers subscribed to alert notices by Web Push",
  responses: { 200: pushSubscriptionsResponse },
});

export const addPushSubscription = push({
  method: 'POST',
  path: '/v2/user/push/subscriptions',
  permission: 'self:update',
  summary:
    "Subscribe this browser (PushSubscription.toJSON()) to one's alert notices; the same endpoint again replaces it",
  body: pushSubscriptionBody,
  responses: { 200: pushSubscriptionView },
});

export const removePushSubscription = push({
  method: 'DELETE',
  path: '/v2/user/push/subscriptions/{subscriptionId}',
  permission: 'self:update',
  summary: "Stop pushing to one of one's browsers; another person's is 404",
  params: pushSubscriptionParams,
  responses: { 204: z.null() },
});
