/**
 * Mail templates: one small function per mail, both languages side by side. Each returns the subject,
 * a plain-text and an HTML body, and the secrets (link tokens) that must never be logged.
 * To add one (an invitation, say): write `xMail(input)` with a `{ ja, en }` table and call `compose`.
 */

export const MAIL_LOCALES = ['ja', 'en'] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];

export interface ComposedMail {
  locale: MailLocale;
  subject: string;
  text: string;
  html: string;
  /** Values (link tokens) replaced by [redacted] wherever the mail is logged. */
  secrets: string[];
}

export const PRODUCT_NAME: Record<MailLocale, string> = {
  ja: 'ウェアラブル見守りコンソール',
  en: 'Wearable Console',
};

const FOOTER: Record<MailLocale, (publicUrl: string) => string> = {
  ja: (url) =>
    `このメールは${PRODUCT_NAME.ja}（${url}）から送信されています。お心当たりがない場合は破棄してください。`,
  en: (url) =>
    `This mail was sent by ${PRODUCT_NAME.en} (${url}). If you did not expect it, you can ignore it.`,
};

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

interface MailParts {
  locale: MailLocale;
  publicUrl: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: { label: string; url: string };
  after: string[];
  secrets: string[];
}

/** The one layout every mail shares: greeting, text, one button (and its URL in plain text), footer. */
export function compose(p: MailParts): ComposedMail {
  const subject = `[${PRODUCT_NAME[p.locale]}] ${p.subject}`;
  const footer = FOOTER[p.locale](p.publicUrl);
  const text = [
    p.greeting,
    '',
    ...p.paragraphs,
    '',
    `${p.action.label}:`,
    p.action.url,
    '',
    ...p.after,
    '',
    '--',
    footer,
  ].join('\n');
  const para = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const html = `<!doctype html>
<html lang="${p.locale}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:sans-serif;color:#0f172a;line-height:1.6;max-width:560px;margin:0 auto;padding:24px">
<p style="margin:0 0 16px;font-weight:600">${escapeHtml(PRODUCT_NAME[p.locale])}</p>
${para(p.greeting)}
${p.paragraphs.map(para).join('\n')}
<p style="margin:24px 0"><a href="${escapeHtml(p.action.url)}" style="background:#0f766e;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(p.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;word-break:break-all">${escapeHtml(p.action.url)}</p>
${p.after.map(para).join('\n')}
<hr style="border:none;border-top:1px solid #e2e8f0;margin:24px 0">
<p style="font-size:12px;color:#64748b">${escapeHtml(footer).replace(escapeHtml(p.publicUrl), `<a href="${escapeHtml(p.publicUrl)}">${escapeHtml(p.publicUrl)}</a>`)}</p>
</body></html>
`;
  return { locale: p.locale, subject, text, html, secrets: p.secrets };
}

/** The email-link sign-in mail: opens /verify#signin=<token> on PUBLIC_URL. */
export function signInLinkMail(input: {
  locale: MailLocale;
  publicUrl: string;
  name: string;
  token: string;
  minutes: number;
}): ComposedMail {
  const url = `${input.publicUrl}/verify#signin=${input.token}`;
  const words = {
    ja: {
      subject: 'ログイン用リンク',
      greeting: `${input.name} 様`,
      paragraphs: [
        `下のリンクを開くとログインできます。リンクの有効期限は${input.minutes}分で、一度だけ使えます。`,
      ],
      label: 'ログインする',
      after: [
        'ログインを依頼していない場合は、このメールを破棄してください。アカウントはそのまま安全です。',
      ],
    },
    en: {
      subject: 'Your sign-in link',
      greeting: `Hello ${input.name},`,
      paragraphs: [
        `Open the link below to sign in. The link works once and expires in ${input.minutes} minutes.`,
      ],
      label: 'Sign in',
      after: ['If you did not ask to sign in, ignore this mail; your account stays safe.'],
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

/** "パスワードを忘れた場合": opens /reset-password#reset=<token> on PUBLIC_URL (the text stands without the button). */
export function passwordResetMail(input: {
  locale: MailLocale;
  publicUrl: string;
  name: string;
  token: string;
  minutes: number;
}): ComposedMail {
  const url = `${input.publicUrl}/reset-password#reset=${input.token}`;
  const words = {
    ja: {
      subject: 'パスワードの再設定',
      greeting: `${input.name} 様`,
      paragraphs: [
        `パスワードの再設定を受け付けました。次のリンクを開いて、新しいパスワードを決めてください。リンクの有効期限は${input.minutes}分で、一度だけ使えます。`,
        '新しいパスワードを決めると、このアカウントでログイン中のすべての端末からログアウトします。',
      ],
      label: '新しいパスワードを決める',
      after: [
        '再設定を依頼していない場合は、このメールを破棄してください。パスワードは変わりません。',
      ],
    },
    en: {
      subject: 'Reset your password',
      greeting: `Hello ${input.name},`,
      paragraphs: [
        `We received a request to reset your password. Open the link below to choose a new one. The link works once and expires in ${input.minutes} minutes.`,
        'Choosing a new password signs this account out on every device.',
      ],
      label: 'Choose a new password',
      after: ['If you did not ask for this, ignore this mail; your password stays as it is.'],
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

/** /user/info: the link that makes a new address the account's (sent to the new address). */
export function emailChangeMail(input: {
  locale: MailLocale;
  publicUrl: string;
  name: string;
  token: string;
  minutes: number;
}): ComposedMail {
  const url = `${input.publicUrl}/verify-email#token=${input.token}`;
  const words = {
    ja: {
      subject: 'メールアドレス変更の確認',
      greeting: `${input.name} 様`,
      paragraphs: [
        `このアドレスをアカウントのメールアドレスにするには、下のリンクを開いてください。リンクの有効期限は${input.minutes}分で、一度だけ使えます。`,
      ],
      label: 'このアドレスに変更する',
      after: ['変更を依頼していない場合は、このメールを破棄してください。アドレスは変わりません。'],
    },
    en: {
      subject: 'Confirm your new email address',
      greeting: `Hello ${input.name},`,
      paragraphs: [
        `Open the link below to make this your account's email address. The link works once and expires in ${input.minutes} minutes.`,
      ],
      label: 'Use this address',
      after: ['If you did not ask for this, ignore this mail; your address stays as it is.'],
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
