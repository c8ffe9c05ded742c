import type { Actor, AlertTimelineEvent, AlertTimelineResponse } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { accessService } from '../../access/access.service.js';
import { alertNoticesService } from '../notifications/notifications.service.js';
import { alertsRepository } from './alerts.repository.js';
import { toAlertView } from './alerts.service.js';

const iso = (v: Date | string): string => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null): string | null => (v === null ? null : iso(v));

const ORDER: Record<AlertTimelineEvent['kind'], number> = {
  raised: 0,
  escalation: 1,
  notification: 2,
  confirmed: 3,
  escalationEnded: 4,
  closed: 5,
};

export function alertTimelineService(ctx: AppContext) {
  return {
    /**
     * One alert's story from stored rows: raised; each notification attempt with its delivery; each
     * escalation step (a step above the first one sent, or the last resort of calling the SMS recipients);
     * the end of the escalation; the confirmation (who, reason, note); the closing.
     */
    async alertTimeline(actor: Actor, alertId: string): Promise<AlertTimelineResponse> {
      await accessService(ctx.db).require(actor, 'notification:read', 'alert', alertId);
      const row = await alertsRepository(ctx.db).getAlert(alertId);
      if (!row) throw new Error(`alert ${alertId} vanished`);
      const alert = toAlertView(row);
      const notices = alertNoticesService(ctx);
      const [attempts, escalation] = await Promise.all([
        notices.attempts(alertId),
        notices.escalation(alertId),
      ]);

      const covered = await notices.covered(
        actor,
        attempts.map((a) => a.id),
      );
      const events: AlertTimelineEvent[] = [
        {
          kind: 'raised',
          at: alert.openedAt,
          notified: alert.notified,
          snoozeId: row.snooze_id ?? null,
        },
      ];
      // A withheld notice never left: it takes no part in the escalation's steps.
      const firstStep = Math.min(
        ...attempts.filter((a) => a.status !== 'withheld').map((a) => a.step),
      );
      const smsOf = new Set(attempts.filter((a) => a.channel === 'SMS').map((a) => a.recipient));
      const seenSteps = new Set<number>();
      for (const a of attempts) {
        if (a.step > firstStep && !seenSteps.has(a.step)) {
          seenSteps.add(a.step);
          const sameStep = attempts.filter((b) => b.step === a.step);
          // The last resort (notifications.service escalate): the previous step's SMS recipients called.
          const callsInstead = sameStep.every(
            (b) => b.channel === 'PHONE_CALL' && smsOf.has(b.recipient),
          );
          events.push({ kind: 'escalation', at: iso(a.created_at), step: a.step, callsInstead });
        }
        events.push({
          kind: 'notification',
          at: iso(a.created_at),
          step: a.step,
          channel: a.channel,
          recipient: a.recipient,
          recipientName: a.user_name,
          provider: a.provider,
          status: a.status,
          providerStatus: a.provider_status,
          sentAt: isoOrNull(a.sent_at),
          deliveredAt: isoOrNull(a.delivered_at),
          failedAt: isoOrNull(a.failed_at),
          error: a.error,
          reason: a.reason,
          covers: covered
            .filter((c) => c.notification_id === a.id)
            .map((c) => ({
              alertId: c.alert_id,
              type: c.type,
              level: c.level,
              wearerName: c.wearer_name,
            })),
        });
      }
      if (escalation?.done_at && escalation.done_reason) {
        const reason = escalation.done_reason as 'confirmed' | 'closed' | 'exhausted';
        events.push({ kind: 'escalationEnded', at: iso(escalation.done_at), reason });
      }
      if (alert.confirmedAt) {
        events.push({
          kind: 'confirmed',
          at: alert.confirmedAt,
          by: alert.confirmedBy,
          reason: alert.confirmReason,
          note: alert.confirmNote,
        });
      }
      if (alert.closedAt)
        events.push({ kind: 'closed', at: alert.closedAt, reason: alert.closeReason });
      // Stable: by time, and at one instant in the story's order (raised before its first notice).
      events.sort((x, y) => Date.parse(x.at) - Date.parse(y.at) || ORDER[x.kind] - ORDER[y.kind]);
      return { alert, events };
    },
  };
}
