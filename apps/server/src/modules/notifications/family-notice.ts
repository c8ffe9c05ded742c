import { alertPlace } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import type { FamilyRecipientRow } from '../family-notices/family-notices.service.js';
import { compose, type ComposedMail, PRODUCT_NAME } from '../mail/mail.service.js';
import { type AlertMessageInput, alertMessage } from './notification-texts.js';
import type { AlertForNotice, RecipientRow } from './notifications.repository.js';

/** Where a family member looks at the wearer's records and alerts. */
export const PERSONAL_HOME = '/user/record';

/**
 * The alert as a family member is told of it: without its place, as no organisation setting lets
 * personal users see where a wearer is (place:read is staff only; issue 34 notes it).
 */
export const forFamily = (alert: AlertForNotice): AlertForNotice => ({
  ...alert,
  place: null,
  family: true,
});

/**
 * A family member choosing SMS as a recipient row of the staff path: one bucket of their own
 * (`user:<id>`), the first step, their account's number. Never escalated: the escalation reads the
 * group's rows only.
 */
export const familyRecipient = (f: FamilyRecipientRow): RecipientRow => ({
  id: `family:${f.user_id}`,
  user_id: f.user_id,
  user_name: f.name,
  phone_number: f.phone_number,
  own_phone_number: f.phone_number,
  channel: f.channel === 'PUSH' || f.channel === 'LINE' ? f.channel : 'SMS',
  alert_types: [],
  schedule: {} as RecipientRow['schedule'],
  step: 1,
  on_call: false,
  group_id: null,
});

/** The mail to a family member who chose mail: the same one line as the SMS, in their language. */
export function familyAlertMail(
  ctx: Pick<AppContext, 'config'>,
  alert: AlertForNotice,
  f: FamilyRecipientRow,
): ComposedMail {
  const line = alertMessage(
    {
      type: alert.type,
      level: alert.level,
      // Only a wearer's alert reaches a family (recipientsOf).
      wearerName: alert.wearer_name ?? '',
      groupName: alert.group_name,
      openedAt: new Date(alert.opened_at),
      timeZone: alert.time_zone,
      step: 1,
      place: alertPlace.nullable().safeParse(alert.place ?? null).data ?? null,
      cause: alert.cause as AlertMessageInput['cause'],
    },
    f.locale,
  );
  const words = {
    ja: {
      subject: `${alert.wearer_name}さんのアラート`,
      greeting: `${f.name} 様`,
      paragraphs: [
        line,
        '担当のスタッフにも通知しています。対応状況は見守りページで確認できます。',
      ],
      label: '見守りページを開く',
      after: [`この通知は${PRODUCT_NAME.ja}の通知設定（アラート設定のページ）で止められます。`],
    },
    en: {
      subject: `An alert for ${alert.wearer_name}`,
      greeting: `Hello ${f.name},`,
      paragraphs: [
        line,
        'The staff in charge are told as well. See on your page whether it is being handled.',
      ],
      label: 'Open your page',
      after: ['You can stop these mails in your notice settings (the alert settings page).'],
    },
  }[f.locale];
  return compose({
    locale: f.locale,
    publicUrl: ctx.config.publicUrl,
    subject: words.subject,
    greeting: words.greeting,
    paragraphs: words.paragraphs,
    action: { label: words.label, url: `${ctx.config.publicUrl}${PERSONAL_HOME}` },
    after: words.after,
    secrets: [],
  });
}
