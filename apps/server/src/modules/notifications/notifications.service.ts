import { type Actor } from '@wearable/domain';
import { recipientOnDuty } from './recipient-schedule.js';
import type { AppContext } from '../../context.js';
import {
  type AttemptRow,
  deliveryRepository,
  type EscalationStateRow,
} from './delivery.repository.js';
import { escalationsRepository } from './escalations.repository.js';
import { type CoveredAlertRow, noticeBucketsRepository } from './notice-buckets.repository.js';
import { alertNoticeText } from './alert-notice-text.js';
import { onCallService } from './on-call.service.js';
import { onCallHandoversService } from './on-call-handovers.service.js';
import { noticePolicyService } from './notice-policy.service.js';
import type { NotificationProvider } from './notification-provider.js';
import { noticeDelivery, pushOfAlert } from './notice-delivery.js';
import { webhookOutboxService } from '../webhooks/webhook-outbox.service.js';
import { familyNoticesService } from '../family-notices/family-notices.service.js';
import { familyAlertMail, familyRecipient, forFamily } from './family-notice.js';
import {
  type AlertForNotice,
  notificationsRepository,
  type RecipientRow,
} from './notifications.repository.js';
export type { NotificationProvider, SendResult } from './notification-provider.js';

/** An alert's notices as other modules read them (the alert's timeline). */
export function alertNoticesService(ctx: Pick<AppContext, 'db'>) {
  return {
    /** The notice attempts of one alert, oldest first. */
    attempts: (alertId: string): Promise<AttemptRow[]> =>
      deliveryRepository(ctx.db).attemptsOfAlert(alertId),
    /** The escalation of one alert, if it has one. */
    escalation: (alertId: string): Promise<EscalationStateRow | undefined> =>
      deliveryRepository(ctx.db).escalationOfAlert(alertId),
    /** The alerts the notices covered, within the actor's scope. */
    covered: (actor: Actor, notificationIds: readonly string[]): Promise<CoveredAlertRow[]> =>
      noticeBucketsRepository(ctx.db).coveredAlerts(actor, notificationIds),
  };
}

/**
 * Sends alert notices by SMS / phone call to a group's recipients and escalates EMERGENCY
 * alerts nobody confirms: step by step through the recipients' `order`, and when no step is
 * left, SMS recipients of the last step are called instead. EMERGENCY goes at once, one message per
 * alert; other levels go through the notification policy (grouped, repeated, capped, inhibited:
 * notice-policy.service). Every attempt, and every notice the policy withheld, is logged.
 */
export interface NotificationsService {
  /**
   * An opened alert that notifies: the first step's recipients; EMERGENCY starts the escalation
   * timer. Called by the alert outbox's notice deliverer (on whichever server claims the alert's
   * row, once), never from an in-memory event.
   */
  alertOpened(alertId: string): Promise<void>;
  /**
   * Escalates every due, unconfirmed EMERGENCY alert, tells fresh on-call handovers, then sends due
   * notice windows and reminders;
   * of one organisation when given (tests sharing a database). Returns how many it handled.
   */
  sweep(organizationId?: string): Promise<number>;
}

type Log = { error(obj: object, msg: string): void };

export function notificationsService(
  ctx: AppContext,
  provider: NotificationProvider,
  log?: Log,
): NotificationsService {
  const escalations = escalationsRepository(ctx.db);
  const notifications = notificationsRepository(ctx.db);
  const onCall = onCallService(ctx);
  const handovers = onCallHandoversService(ctx, provider);

  const afterMs = () => ctx.config.escalationAfterSeconds * 1000;
  const delivery = noticeDelivery(ctx, provider);

  /** Recipients of this alert's group for its type whose schedule covers now. */
  async function matching(alert: AlertForNotice): Promise<RecipientRow[]> {
    // A device no wearer holds, heard by a gateway of no group: the organisation's recipients (issue 34).
    const recipients = alert.group_id
      ? await notifications.groupRecipients(alert.group_id)
      : alert.wearer_id === null
        ? await notifications.organizationRecipients(alert.organization_id)
        : [];
    const now = ctx.now();
    return onCall.expand(
      recipients.filter(
        (r) => r.alert_types.includes(alert.type) && recipientOnDuty(r, now, alert.time_zone),
      ),
      now,
    );
  }

  async function send(
    alert: AlertForNotice,
    r: RecipientRow,
    step: number,
    channel = r.channel,
  ): Promise<void> {
    const text = await alertNoticeText(ctx, alert, step, false, channel);
    const to = delivery.addressOf(r, channel);
    const attempt = {
      organizationId: alert.organization_id,
      alertId: alert.id,
      step,
      channel,
      userId: r.user_id,
      recipient: to,
      provider: delivery.providerOf(channel),
      text,
      reason: alert.level === 'EMERGENCY' ? ('emergency' as const) : null,
    };
    if (!to) {
      await notifications.insertAttempt(
        attempt,
        'failed',
        ctx.now(),
        r.on_call && !r.user_id ? 'nobody is on call' : delivery.noAddress(channel),
      );
      return;
    }
    // Queued first, so an attempt is on record even if the provider never answers.
    const id = await notifications.insertAttempt(attempt, 'queued', ctx.now(), null);
    await noticeBucketsRepository(ctx.db).coverAlerts(id, [alert.id]);
    const outcome = await delivery.deliver({
      channel,
      to,
      text,
      organizationId: alert.organization_id,
      notificationId: id,
      push: pushOfAlert(alert, true),
    });
    await notifications.recordOutcome(id, outcome, ctx.now());
  }

  const notices = noticePolicyService(ctx, provider, matching, log);

  async function sendStep(
    alert: AlertForNotice,
    recipients: RecipientRow[],
    step: number,
    /** Recipients (user id, else number) already sent this step: not sent again. */
    already: ReadonlySet<string> = new Set(),
  ): Promise<void> {
    for (const r of recipients.filter((x) => x.step === step)) {
      if (already.has(r.user_id ?? r.phone_number ?? '')) continue;
      // Outside EMERGENCY the policy decides (a recipient without a number is logged as failed here).
      if (alert.level !== 'EMERGENCY' && delivery.addressOf(r, r.channel))
        await notices.offer(alert, r);
      else await send(alert, r, step);
    }
  }

  /**
   * The family members who chose to be told of the wearer's EMERGENCY and CRITICAL alerts (issue
   * 34): once, at the opening, after the staff's first step. SMS and push take the staff path (EMERGENCY at
   * once, CRITICAL through the policy's grouping and caps, every attempt logged); mail goes through
   * the mailer (logged as EMAIL). Never escalated, called or reminded; never with the place.
   */
  async function tellFamily(alert: AlertForNotice): Promise<void> {
    const told = forFamily(alert);
    for (const f of await familyNoticesService(ctx).recipientsOf(alert)) {
      if (f.channel === 'EMAIL') {
        if (f.email)
          await ctx.mail.send(
            { email: f.email, userId: f.user_id, organizationId: alert.organization_id },
            familyAlertMail(ctx, told, f),
          );
        continue;
      }
      const r = familyRecipient(f);
      if (alert.level !== 'EMERGENCY' && delivery.addressOf(r, r.channel))
        await notices.offer(told, r);
      else await send(told, r, 1);
    }
  }

  /** The escalation moves on, and its webhook (alert.escalated) is written in the same transaction. */
  async function escalated(
    alert: AlertForNotice,
    reached: number,
    upgraded: boolean,
    dueAt: Date,
    storedStep = reached,
  ): Promise<void> {
    await ctx.db.transaction(async (tx) => {
      await escalationsRepository(tx).advanceEscalation(alert.id, storedStep, upgraded, dueAt);
      await webhookOutboxService(ctx).enqueueAlerts(tx, [
        {
          organizationId: alert.organization_id,
          type: 'alert.escalated',
          at: ctx.now(),
          alertId: alert.id,
          step: reached,
        },
      ]);
    });
  }

  async function escalate(alertId: string, currentStep: number, upgraded: boolean): Promise<void> {
    const now = ctx.now();
    const alert = await notifications.alertForNotice(alertId);
    if (!alert) return;
    if (alert.confirmed_at !== null) return escalations.finishEscalation(alertId, now, 'confirmed');
    if (alert.status === 'CLOSED') return escalations.finishEscalation(alertId, now, 'closed');
    const recipients = await matching(alert);
    const next = recipients
      .map((r) => r.step)
      .filter((s) => s > currentStep)
      .sort((a, b) => a - b)[0];
    const dueAt = new Date(now.getTime() + afterMs());
    if (next !== undefined) {
      await sendStep(alert, recipients, next);
      return escalated(alert, next, false, dueAt);
    }
    const smsAtLast = recipients.filter((r) => r.step === currentStep && r.channel === 'SMS');
    if (!upgraded && smsAtLast.length) {
      // No later step: those who only got an SMS are now called.
      for (const r of smsAtLast) await send(alert, r, currentStep + 1, 'PHONE_CALL');
      return escalated(alert, currentStep + 1, true, dueAt, currentStep);
    }
    return escalations.finishEscalation(alertId, now, 'exhausted');
  }

  return {
    async alertOpened(alertId) {
      const alert = await notifications.alertForNotice(alertId);
      if (!alert || !alert.notify || alert.confirmed_at !== null) return;
      const recipients = await matching(alert);
      const first = Math.min(...recipients.map((r) => r.step));
      if (Number.isFinite(first)) {
        // Delivered again from the alert outbox (the server that took it died mid-send): EMERGENCY
        // notices already attempted are not sent twice. (Other levels go through the policy.)
        const already =
          alert.level === 'EMERGENCY'
            ? await notifications.attemptedAtStep(alert.id, first)
            : new Set<string>();
        await sendStep(alert, recipients, first, already);
        if (alert.level === 'EMERGENCY') {
          await escalations.startEscalation(
            alert.id,
            alert.organization_id,
            first,
            new Date(ctx.now().getTime() + afterMs()),
          );
        }
      }
      await tellFamily(alert);
    },

    async sweep(organizationId) {
      const now = ctx.now();
      // A claimed row whose handling crashes is retried after one more escalation period.
      const retryAt = new Date(now.getTime() + afterMs());
      const due = await escalations.claimDue(now, retryAt, organizationId ?? null);
      for (const row of due) {
        try {
          await escalate(row.alert_id, row.current_step, row.upgraded);
        } catch (err) {
          log?.error({ err, alertId: row.alert_id }, 'escalation failed');
        }
      }
      let told = 0;
      try {
        told = await handovers.sweep(organizationId);
      } catch (err) {
        log?.error({ err }, 'on-call handover summary failed');
      }
      return due.length + told + (await notices.sweep(organizationId));
    },
  };
}
