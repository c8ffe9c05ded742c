import { z } from 'zod';
import { alertView } from './alerts.js';
import { alertEndpoints } from './alerts.js';
import { NOTIFICATION_STATUSES, noticeCoveredAlert, noticeReason } from './notifications.js';
import { CONFIRM_REASONS, NOTIFICATION_CHANNELS } from '../alerts.js';

export const alertParams = z.object({ alertId: z.string().min(1).max(64) });

/** Why an EMERGENCY's escalation stopped. */
export const ESCALATION_END_REASONS = ['confirmed', 'closed', 'exhausted'] as const;

/**
 * One step of an alert's story, oldest first. `notification`: one attempt (queued at `at`; sent,
 * delivered or failed as the provider reported), or a notice the policy held, capped or inhibited
 * (status 'withheld', with its reason); `escalation`: nobody confirmed in time, the next
 * recipients were tried (`step`; `callsInstead`: the last step's SMS recipients were called).
 */
export const alertTimelineEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('raised'),
    at: z.string(),
    notified: z.boolean(),
    /** A snooze of the type covered the opening: recorded, nobody notified. */
    snoozeId: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('notification'),
    at: z.string(),
    step: z.number().int(),
    channel: z.enum(NOTIFICATION_CHANNELS),
    recipient: z.string().nullable(),
    recipientName: z.string().nullable(),
    provider: z.string(),
    status: z.enum(NOTIFICATION_STATUSES),
    /** The provider's own word for the last state (Twilio: no-answer, undelivered, ...). */
    providerStatus: z.string().nullable(),
    sentAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    failedAt: z.string().nullable(),
    error: z.string().nullable(),
    /** Why the notification policy sent, held or did not send it (status 'withheld': not sent). */
    reason: noticeReason,
    /** Every alert the notice covered (a grouped message or a summary covers this one among others). */
    covers: z.array(noticeCoveredAlert),
  }),
  z.object({
    kind: z.literal('escalation'),
    at: z.string(),
    step: z.number().int(),
    callsInstead: z.boolean(),
  }),
  z.object({
    kind: z.literal('escalationEnded'),
    at: z.string(),
    reason: z.enum(ESCALATION_END_REASONS),
  }),
  z.object({
    kind: z.literal('confirmed'),
    at: z.string(),
    by: z.object({ uid: z.string(), name: z.string() }).nullable(),
    reason: z.enum(CONFIRM_REASONS).nullable(),
    note: z.string().nullable(),
  }),
  z.object({ kind: z.literal('closed'), at: z.string(), reason: z.string().nullable() }),
]);
export type AlertTimelineEvent = z.infer<typeof alertTimelineEvent>;

/** GET /v2/alert/{alertId}/timeline: the alert and its story from stored rows. */
export const alertTimelineResponse = z.object({
  alert: alertView,
  events: z.array(alertTimelineEvent),
});
export type AlertTimelineResponse = z.infer<typeof alertTimelineResponse>;

export const getAlertTimeline = alertEndpoints({
  method: 'GET',
  path: '/v2/alert/{alertId}/timeline',
  // Staff only: the story names who was called, at which number.
  permission: 'notification:read',
  summary:
    "One alert's story: raised, every notification attempt and its delivery, escalation steps, confirmation, closing",
  params: alertParams,
  responses: { 200: alertTimelineResponse },
});
