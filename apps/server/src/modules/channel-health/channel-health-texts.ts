import { formatTime, type HealthChannel } from '@wearable/domain';
import { compose, type ComposedMail, type MailLocale } from '../mail/mail.service.js';

/** A channel's name in a notice; a channel added later without a name here is named by its code. */
const CHANNEL_NAMES: Record<MailLocale, Partial<Record<HealthChannel, string>>> = {
  ja: { SMS: 'SMS', PHONE_CALL: '電話発信', EMAIL: 'メール', WEBHOOK: 'Webhook' },
  en: { SMS: 'SMS', PHONE_CALL: 'Phone calls', EMAIL: 'Mail', WEBHOOK: 'Webhook' },
};

export interface ChannelFailureInput {
  channel: HealthChannel;
  /** A webhook endpoint's description or host. */
  label: string | null;
  failingSince: Date;
  reason: string | null;
  timeZone: string;
}

const REASON_MAX = 200;

function parts(f: ChannelFailureInput, locale: MailLocale) {
  const name = CHANNEL_NAMES[locale][f.channel] ?? f.channel;
  const what = f.label ? `${name} (${f.label})` : name;
  const since = formatTime(f.failingSince, f.timeZone);
  const reason =
    (f.reason ?? (locale === 'ja' ? '理由不明' : 'no reason given')).slice(0, REASON_MAX) || '-';
  return { what, since, reason };
}

/**
 * The SMS (and the mail's first line): 「【通知経路の障害】メールが 14:03 から失敗しています: <reason>。
 * 設定画面の「通知経路の状態」を確認してください」.
 */
export function channelFailureText(f: ChannelFailureInput, locale: MailLocale = 'ja'): string {
  const { what, since, reason } = parts(f, locale);
  return locale === 'ja'
    ? `【通知経路の障害】${what}が ${since} から失敗しています: ${reason}。設定画面の「通知経路の状態」を確認してください`
    : `[Channel failing] ${what} has been failing since ${since}: ${reason}. See "Channel health" in the settings`;
}

/** The mail to an owner: the same words, and a button to the settings page. */
export function channelFailureMail(
  f: ChannelFailureInput,
  input: { locale: MailLocale; publicUrl: string; name: string },
): ComposedMail {
  const { what, since } = parts(f, input.locale);
  const ja = input.locale === 'ja';
  return compose({
    locale: input.locale,
    publicUrl: input.publicUrl,
    subject: ja ? `${what}が失敗しています` : `${what} is failing`,
    greeting: ja ? `${input.name} 様` : `Hello ${input.name},`,
    paragraphs: [
      channelFailureText(f, input.locale),
      ja
        ? `${since} 以降、この経路で送ったものはすべて失敗しました。届くまでの間、アラートはコンソールと他の経路で確認してください。`
        : `Everything sent this way since ${since} has failed. Until it recovers, watch alerts in the console and on the other channels.`,
    ],
    action: {
      label: ja ? '設定を開く' : 'Open the settings',
      url: `${input.publicUrl}/settings`,
    },
    after: [],
    secrets: [],
  });
}
