import { z } from 'zod';
import { alertView } from './alerts.js';
import { organizationIdParams } from './alert-policy.js';
import { id } from './common.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { braceletView } from './fleet-devices.js';
import { gatewayListItem } from './organizations.js';
import { liveSiteHeatEvent } from './site-heat.js';

/** What an organisation's systems may be told about, by webhook (docs/webhooks.md). */
export const WEBHOOK_EVENT_TYPES = [
  'alert.opened',
  'alert.escalated',
  'alert.confirmed',
  'alert.closed',
  'site.heatLevelChanged',
  'gateway.offline',
  'gateway.online',
  'bracelet.paired',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** "Send a test event": delivered to one endpoint whatever its event types. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The payload's `version`: raised when a field changes meaning or goes away (adding one does not). */
export const WEBHOOK_PAYLOAD_VERSION = 1;
/** An endpoint URL is at most this long. */
export const WEBHOOK_URL_MAX = 2048;
/** An organisation has at most this many endpoints. */
export const WEBHOOK_ENDPOINTS_MAX = 50;

/** https://, or http:// to localhost / 127.0.0.1 / [::1] for development; no credentials in it. */
export function webhookUrlProblem(raw: string): string | null {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)([^#]*)(#.*)?$/.exec(raw);
  if (!m) return 'must be an absolute URL';
  const [, scheme = '', authority = '', , fragment] = m;
  if (authority.includes('@')) return 'must not carry a user name or password';
  if (fragment !== undefined) return 'must not have a #fragment';
  if (/\s/.test(raw)) return 'must not contain spaces';
  const host = (
    authority.startsWith('[')
      ? authority.replace(/\](:\d*)?$/, ']')
      : authority.replace(/:\d*$/, '')
  ).toLowerCase();
  if (!host || host === '[]') return 'must name a host';
  if (scheme.toLowerCase() === 'https') return null;
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(host);
  if (scheme.toLowerCase() === 'http' && local) return null;
  return 'must start with https:// (http:// only for localhost)';
}

export const webhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(WEBHOOK_URL_MAX)
  .superRefine((s, c) => {
    const problem = webhookUrlProblem(s);
    if (problem) c.addIssue({ code: 'custom', message: problem });
  });

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((a) => new Set(a).size === a.length, { message: 'must not repeat an event type' });
const description = z
  .string()
  .trim()
  .max(200)
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  .refine((s) => !/[\u0000-\u001F\u007F]/.test(s), {
    message: 'must not contain control characters',
  });

export const createWebhookBody = z.strictObject({
  url: webhookUrl,
  description: description.optional(),
  eventTypes,
});
export type CreateWebhookBody = z.infer<typeof createWebhookBody>;

export const updateWebhookBody = z
  .strictObject({
    url: webhookUrl.optional(),
    description: description.optional(),
    eventTypes: eventTypes.optional(),
    /** false: no deliveries are made (they wait); true: enabled again (and its failing streak forgotten). */
    enabled: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'must change something' });
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

export const webhookView = z.object({
  id: z.string(),
  clientId: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  /** Why it is disabled: by staff, or by the server after a day of failed deliveries. */
  disabledReason: z.enum(['manual', 'failing']).nullable(),
  /** The first failed delivery of its current streak (null: its last delivery succeeded). */
  failingSince: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookView = z.infer<typeof webhookView>;

export const webhookList = z.object({ webhooks: z.array(webhookView) });
export type WebhookList = z.infer<typeof webhookList>;

/** Creation and rotation: the signing secret (`whsec_…`), shown this once. */
export const webhookWithSecret = z.object({ webhook: webhookView, secret: z.string() });
export type WebhookWithSecret = z.infer<typeof webhookWithSecret>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookAttemptView = z.object({
  at: z.string(),
  /** The receiver's HTTP status; null when there was no answer (refused, timed out, address refused). */
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});
export type WebhookAttemptView = z.infer<typeof webhookAttemptView>;

export const webhookDeliveryView = z.object({
  /** The `webhook-id`: the same on every attempt, so a receiver can drop a repeat. */
  id: z.string(),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastDurationMs: z.number().int().nullable(),
  /** The JSON body sent (the same bytes on every attempt). */
  payload: z.unknown(),
  /** Attempts, newest first (at most 20). */
  attemptLog: z.array(webhookAttemptView),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryView>;

export const webhookDeliveryQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const webhookDeliveryList = z.object({
  deliveries: z.array(webhookDeliveryView),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryList>;

/* ---- Payloads: what a receiver gets (JSON body), by type ---- */

const envelope = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({
    type: z.literal(type),
    /** When the event happened (ISO 8601, UTC). */
    timestamp: z.string(),
    version: z.literal(WEBHOOK_PAYLOAD_VERSION),
    data,
  });

const alertData = z.object({ alert: alertView });
/** One payload of each type; the body a receiver verifies and parses. */
export const webhookPayload = z.discriminatedUnion('type', [
  envelope('alert.opened', alertData),
  envelope('alert.escalated', alertData.extend({ step: z.number().int() })),
  envelope('alert.confirmed', alertData),
  envelope('alert.closed', alertData),
  envelope('site.heatLevelChanged', liveSiteHeatEvent),
  envelope('gateway.offline', z.object({ gateway: gatewayListItem })),
  envelope('gateway.online', z.object({ gateway: gatewayListItem })),
  envelope('bracelet.paired', z.object({ bracelet: braceletView, pairedAt: z.string() })),
  envelope(WEBHOOK_TEST_EVENT, z.object({ webhookId: z.string(), message: z.string() })),
]);
export type WebhookPayload = z.infer<typeof webhookPayload>;

/* ---- Endpoints ---- */

export const webhookParams = z.object({ webhookId: id });
export const webhookDeliveryParams = z.object({ webhookId: id, deliveryId: id });

const hooks = endpointsOf({ tags: ['Webhooks'], errors: BEARER_ERRORS });

export const listWebhooks = hooks({
  method: 'GET',
  path: '/v2/organization/{organizationId}/webhooks',
  permission: 'webhook:read',
  summary: "The organisation's webhook endpoints (never their secrets)",
  params: organizationIdParams,
  responses: { 200: webhookList },
});

export const createWebhook = hooks({
  method: 'POST',
  path: '/v2/organization/{organizationId}/webhooks',
  permission: 'webhook:manage',
  summary:
    'Register a webhook endpoint (https, a public address) for some event types; its signing secret is answered this once',
  params: organizationIdParams,
  body: createWebhookBody,
  responses: { 201: webhookWithSecret },
  errors: [...BEARER_ERRORS, 409],
});

export const updateWebhook = hooks({
  method: 'PATCH',
  path: '/v2/webhook/{webhookId}',
  permission: 'webhook:manage',
  summary: 'Change the URL, description or event types of an endpoint, or disable / enable it',
  params: webhookParams,
  body: updateWebhookBody,
  responses: { 200: webhookView },
});

export const deleteWebhook = hooks({
  method: 'DELETE',
  path: '/v2/webhook/{webhookId}',
  permission: 'webhook:manage',
  summary: 'Delete an endpoint and its delivery log',
  params: webhookParams,
  responses: { 200: z.object({ webhookId: z.string(), deleted: z.literal(true) }) },
});

export const rotateWebhookSecret = hooks({
  method: 'POST',
  path: '/v2/webhook/{webhookId}/rotateSecret',
  permission: 'webhook:manage',
  summary: 'A new signing secret for the endpoint (answered this once); the old one stops at once',
  params: webhookParams,
  responses: { 200: webhookWithSecret },
});

export const sendTestWebhook = hooks({
  method: 'POST',
  path: '/v2/webhook/{webhookId}/test',
  permission: 'webhook:manage',
  summary: 'Queue a `webhook.test` event for this endpoint only',
  params: webhookParams,
  responses: { 202: webhookDeliveryView },
});

export const listWebhookDeliveries = hooks({
  method: 'GET',
  path: '/v2/webhook/{webhookId}/deliveries',
  permission: 'webhook:read',
  summary: "The endpoint's deliveries, newest first, with their attempts and payloads",
  params: webhookParams,
  query: webhookDeliveryQuery,
  responses: { 200: webhookDeliveryList },
});

export const resendWebhookDelivery = hooks({
  method: 'POST',
  path: '/v2/webhook/{webhookId}/deliveries/{deliveryId}/resend',
  permission: 'webhook:manage',
  summary: 'Send a delivery again now (same webhook-id and body), whatever its status',
  params: webhookDeliveryParams,
  responses: { 202: webhookDeliveryView },
});
