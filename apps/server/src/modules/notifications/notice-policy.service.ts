import {
  type AlertPolicy,
  CONSOLE_ALERT_HISTORY_PATH,
  decideNotice,
  decideWindowEnd,
  hourlyCap,
  INHIBITED_WHILE_GATEWAY_SILENT,
  type NoticeReason,
  type NotificationChannel,
  repeatDueAt,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { alertPolicyService } from '../alert-policy/alert-policy.service.js';
import { gatewaySilenceService } from '../gateway-silence/gateway-silence.service.js';
import { gatewaySilenceNoticesService } from './gateway-silence-notices.service.js';
import { alertNoticeText } from './alert-notice-text.js';
import {
  noticeBucketsRepository,
  type NoticeItemState,
  toNoticeBucket,
} from './notice-buckets.repository.js';
import type { NotificationProvider } from './notification-provider.js';
import { noticeDelivery, type OutgoingNotice, pushOfAlert } from './notice-delivery.js';
import { capSummaryMessage, groupedMessage } from './notification-texts.js';
import {
  type AlertForNotice,
  notificationsRepository,
  type RecipientRow,
} from './notifications.repository.js';

/**
 * The notification policy (packages/domain/src/notice-policy.ts) on the database: each decision is
 * taken with the recipient's bucket row-locked and recorded in the same transaction as its log entry
 * (a message queued, or a notice withheld with its reason), so a restart loses nothing and two
 * servers never both send one window; the message leaves after the commit. EMERGENCY never comes here.
 */
export interface NoticePolicyService {
  /** Offers a non-EMERGENCY alert to one recipient: sent at once, held, capped or inhibited, and logged. */
  offer(alert: AlertForNotice, r: RecipientRow, lastNoticeAt?: Date): Promise<void>;
  /**
   * Sends the due windows (grouped messages, cap summaries) and offers due reminders; of one
   * organisation when given (tests sharing a database). Returns how many.
   */
  sweep(organizationId?: string): Promise<number>;
}

type Log = { error(obj: object, msg: string): void };

/** One bucket per staff member (whatever their number) or per number outside the console. */
export const recipientKey = (r: { user_id: string | null; phone_number: string | null }) =>
  r.user_id ? `user:${r.user_id}` : `phone:${r.phone_number ?? ''}`;

const policyUsed = (p: AlertPolicy, extra: Record<string, number> = {}) => ({
  groupWindowMinutes: p.groupWindowMinutes,
  repeatIntervalMinutes: p.repeatIntervalMinutes,
  smsPerHour: p.smsPerHour,
  callsPerHour: p.callsPerHour,
  ...extra,
});

type Outgoing = OutgoingNotice;

export function noticePolicyService(
  ctx: AppContext,
  provider: NotificationProvider,
  recipientsOf: (alert: AlertForNotice) => Promise<RecipientRow[]>,
  log?: Log,
): NoticePolicyService {
  const noticeBuckets = noticeBucketsRepository(ctx.db);
  const notifications = notificationsRepository(ctx.db);
  const alertPolicy = alertPolicyService(ctx);
  const delivery = noticeDelivery(ctx, provider);

  /** After the commit: the provider's answer on the queued entry; every covered alert keeps its first notice. */
  async function dispatch(m: Outgoing): Promise<void> {
    const outcome = await delivery.deliver(m);
    await notifications.recordOutcome(m.notificationId, outcome, ctx.now());
    await noticeBuckets.keepCoveredFirsts(m.notificationId);
  }

  async function offer(alert: AlertForNotice, r: RecipientRow, lastNoticeAt?: Date) {
    // A number, or the staff member a push goes to; none: the caller logs the failure, as before the policy.
    const phone = delivery.addressOf(r, r.channel);
    if (!phone) return;
    const now = ctx.now();
    const [policy, siteHeatLevel, gateway, text] = await Promise.all([
      alertPolicy.load(ctx.db, alert.organization_id),
      noticeBuckets.siteHeatLevelOfAlert(alert.id),
      // Inhibition by a silent gateway (INHIBITED_WHILE_GATEWAY_SILENT): only its types ask.
      INHIBITED_WHILE_GATEWAY_SILENT.includes(alert.type)
        ? gatewaySilenceService(ctx).silenceOfAlert(alert.id)
        : { silent: false, silenceId: null },
      alertNoticeText(ctx, alert, r.step, lastNoticeAt !== undefined, r.channel),
    ]);
    const outgoing = await ctx.db.transaction(async (tx): Promise<Outgoing | null> => {
      const txNoticeBuckets = noticeBucketsRepository(tx);
      const row = await txNoticeBuckets.lockBucket(
        {
          organizationId: alert.organization_id,
          recipientKey: recipientKey(r),
          channel: r.channel,
          userId: r.user_id,
          recipient: phone,
        },
        now,
      );
      if (lastNoticeAt && !(await txNoticeBuckets.claimReminder(row.id, alert.id, now)))
        return null;
      const item = {
        type: alert.type,
        level: alert.level,
        siteHeatLevel,
        gatewaySilent: gateway.silent,
        lastNoticeAt,
      };
      const d = decideNotice(toNoticeBucket(row), item, policy, now);
      await txNoticeBuckets.saveBucket(row.id, d.bucket, now);
      if (d.action === 'wait') {
        await txNoticeBuckets.delayReminder(row.id, alert.id, d.until);
        return null;
      }
      const state: NoticeItemState =
        d.action === 'send'
          ? 'sent'
          : d.action === 'hold'
            ? 'held'
            : d.reason === 'capped' && d.bucket.summarySent
              ? 'summarised'
              : d.reason;
      await txNoticeBuckets.putItem({
        bucketId: row.id,
        alertId: alert.id,
        organizationId: alert.organization_id,
        state,
        at: now,
        repeatAt: repeatDueAt(now, policy),
      });
      const id = await notificationsRepository(tx).insertAttempt(
        {
          organizationId: alert.organization_id,
          alertId: alert.id,
          step: r.step,
          channel: r.channel,
          userId: r.user_id,
          recipient: phone,
          provider: delivery.providerOf(r.channel),
          text,
          reason: d.reason,
          policy: policyUsed(policy),
        },
        d.action === 'send' ? 'queued' : 'withheld',
        now,
        null,
      );
      await txNoticeBuckets.coverAlerts(id, [alert.id]);
      if (d.action === 'withhold' && d.reason === 'inhibited' && gateway.silenceId) {
        // The silent gateway's message to this recipient names the alert it inhibited.
        await gatewaySilenceNoticesService(ctx).coverInhibited(
          tx,
          gateway.silenceId,
          alert.id,
          phone,
          r.channel,
        );
      }
      return d.action === 'send'
        ? {
            organizationId: alert.organization_id,
            notificationId: id,
            channel: r.channel,
            to: phone,
            text,
            push: pushOfAlert(alert, true),
          }
        : null;
    });
    if (outgoing) await dispatch(outgoing);
  }

  /** A due window of one bucket: its grouped message, its summary, or the held alerts capped. */
  async function endWindow(bucketId: string): Promise<Outgoing | null> {
    const now = ctx.now();
    return ctx.db.transaction(async (tx) => {
      const txNoticeBuckets = noticeBucketsRepository(tx);
      const txNotifications = notificationsRepository(tx);
      const row = await txNoticeBuckets.claimDueBucket(bucketId, now);
      if (!row) return null; // another server took it, or it was handled already
      const policy = await alertPolicy.load(tx, row.organization_id);
      const d = decideWindowEnd(toNoticeBucket(row), policy, now);
      await txNoticeBuckets.saveBucket(row.id, d.bucket, now);
      if (d.action === 'none') return null;
      let reason: NoticeReason = d.reason;
      let covered: string[];
      if (d.action === 'send' && d.reason === 'grouped') {
        covered = await txNoticeBuckets.moveItems(row.id, ['held'], 'sent');
      } else {
        covered = await txNoticeBuckets.moveItems(row.id, ['held', 'capped'], 'summarised');
        if (d.action === 'withhold') reason = 'capped';
      }
      const alerts = await txNotifications.alertsForNotice(covered);
      const newest = alerts.at(-1);
      if (!newest || !row.recipient) return null;
      const link = `${ctx.config.publicUrl}${CONSOLE_ALERT_HISTORY_PATH}`;
      const text =
        d.action === 'send' && d.reason === 'capSummary'
          ? capSummaryMessage({
              waiting: d.waiting,
              cap: hourlyCap(row.channel, policy),
              link,
            })
          : groupedMessage({
              alerts: alerts.map((a) => ({
                type: a.type,
                level: a.level,
                // Only EMERGENCY alerts have no wearer (issue 34), and those are never grouped.
                wearerName: a.wearer_name ?? a.device_serial ?? '',
                groupName: a.group_name,
              })),
              from: new Date(alerts[0]!.opened_at),
              to: now,
              timeZone: newest.time_zone,
            });
      const waiting: Record<string, number> =
        d.action === 'send' && d.reason === 'capSummary' ? { waiting: d.waiting } : {};
      const id = await txNotifications.insertAttempt(
        {
          organizationId: row.organization_id,
          alertId: newest.id,
          step: 1,
          channel: row.channel,
          userId: row.user_id,
          recipient: row.recipient,
          provider: delivery.providerOf(row.channel),
          text,
          reason,
          policy: policyUsed(policy, waiting),
        },
        d.action === 'send' ? 'queued' : 'withheld',
        now,
        null,
      );
      await txNoticeBuckets.coverAlerts(id, covered);
      return d.action === 'send'
        ? {
            organizationId: row.organization_id,
            notificationId: id,
            channel: row.channel,
            to: row.recipient,
            text,
            push: pushOfAlert(newest, false),
          }
        : null;
    });
  }

  /** A due reminder: offered again if the alert is still open, unconfirmed and the recipient still its. */
  async function remind(r: {
    bucket_id: string;
    alert_id: string;
    recipient_key: string;
    channel: NotificationChannel;
    last_notice_at: Date | string;
  }) {
    const alert = await notifications.alertForNotice(r.alert_id);
    const recipient =
      alert && alert.status === 'OPEN' && alert.confirmed_at === null
        ? (await recipientsOf(alert)).find(
            (x) => recipientKey(x) === r.recipient_key && x.channel === r.channel,
          )
        : undefined;
    if (!alert || !recipient) return noticeBuckets.endReminder(r.bucket_id, r.alert_id);
    await offer(alert, recipient, new Date(r.last_notice_at));
  }

  return {
    offer,
    async sweep(organizationId) {
      const now = ctx.now();
      const scope = organizationId ?? null;
      let handled = 0;
      for (const id of await noticeBuckets.dueBucketIds(now, scope)) {
        try {
          const outgoing = await endWindow(id);
          if (outgoing) await dispatch(outgoing);
          handled++;
        } catch (err) {
          log?.error({ err, bucketId: id }, 'notice window failed');
        }
      }
      for (const r of await noticeBuckets.dueReminders(now, scope)) {
        try {
          await remind(r);
          handled++;
        } catch (err) {
          log?.error({ err, alertId: r.alert_id }, 'notice reminder failed');
        }
      }
      return handled;
    },
  };
}
