import { ROLE_NAMES, type Role } from '@wearable/domain';
import { type ComposedMail, compose, type MailLocale } from '../mail/mail.service.js';

/**
 * The invitation mail: opens /verify#invite=<token> on PUBLIC_URL. The token travels in the fragment,
 * so it never reaches a server's access log or a Referer header.
 */
export function invitationMail(input: {
  locale: MailLocale;
  publicUrl: string;
  name: string | null;
  inviterName: string;
  organizationName: string | null;
  wearerName: string | null;
  role: Role;
  token: string;
  days: number;
}): ComposedMail {
  const url = `${input.publicUrl}/verify#invite=${input.token}`;
  const role = ROLE_NAMES[input.locale][input.role];
  const words = {
    ja: {
      subject: `${input.inviterName} さんからの招待`,
      greeting: input.name ? `${input.name} 様` : 'こんにちは。',
      paragraphs: [
        input.wearerName
          ? `${input.inviterName} さんが、${input.wearerName} さんの見守りにあなたを招待しました（${role}）。`
          : `${input.inviterName} さんが、${input.organizationName ? `「${input.organizationName}」の` : ''}${role}としてあなたを招待しました。`,
        `下の「登録する」のリンクを開いて、名前とパスワードを登録してください。リンクは一度だけ使え、${input.days}日間有効です。`,
      ],
      label: '登録する',
      after: [
        '心当たりがない場合は、このメールを破棄してください。登録しなければアカウントは作られません。',
      ],
    },
    en: {
      subject: `${input.inviterName} invited you`,
      greeting: input.name ? `Hello ${input.name},` : 'Hello,',
      paragraphs: [
        input.wearerName
          ? `${input.inviterName} invited you to watch over ${input.wearerName} (${role}).`
          : `${input.inviterName} invited you to join${input.organizationName ? ` ${input.organizationName}` : ''} as ${role}.`,
        `Open the "Register" link below to choose your name and password. The link works once and expires in ${input.days} days.`,
      ],
      label: 'Register',
      after: [
        'If you did not expect this, ignore this mail; no account is created unless you register.',
      ],
    },
  }[input.locale];
  return compose({
    locale: input.locale,
    publicUrl: input.publicUrl,
    subject: words.subject,
    greeting: words.greeting,
    paragraphs: words.paragraphs,
    action: { label: words.label, url },
    after: words.after,
    secrets: [input.token],
  });
}
