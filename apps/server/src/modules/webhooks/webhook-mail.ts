import { compose, type ComposedMail, type MailLocale } from '../mail/mail.service.js';

/** To an organisation's owners: an endpoint failed every delivery for a day and was disabled. */
export function webhookDisabledMail(input: {
  locale: MailLocale;
  publicUrl: string;
  name: string;
  url: string;
}): ComposedMail {
  const link = `${input.publicUrl}/settings/webhooks`;
  const words = {
    ja: {
      subject: 'Webhook の送信先を停止しました',
      greeting: `${input.name} 様`,
      paragraphs: [
        `Webhook の送信先 ${input.url} への送信が 24 時間失敗し続けたため、この送信先を停止しました。`,
        '受信側を直してから、設定画面で送信先を再開してください。停止中のイベントは再開後に送られます。',
      ],
      label: 'Webhook の設定を開く',
      after: [],
    },
    en: {
      subject: 'A webhook endpoint was disabled',
      greeting: `Hello ${input.name},`,
      paragraphs: [
        `Every delivery to the webhook endpoint ${input.url} has failed for 24 hours, so it was disabled.`,
        'Fix the receiver, then enable the endpoint again in the settings. Events held meanwhile are sent once it is enabled.',
      ],
      label: 'Open the webhook settings',
      after: [],
    },
  }[input.locale];
  return compose({
    locale: input.locale,
    publicUrl: input.publicUrl,
    subject: words.subject,
    greeting: words.greeting,
    paragraphs: words.paragraphs,
    action: { label: words.label, url: link },
    after: words.after,
    secrets: [],
  });
}
