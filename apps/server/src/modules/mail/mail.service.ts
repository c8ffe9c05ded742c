import { join } from 'node:path';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { SendResult } from '../notifications/message-log.service.js';
import { messageLogService, redact } from '../notifications/message-log.service.js';
import type { ComposedMail } from './mail-templates.js';

/** The one mail layout, for modules that write their own mails. */
export { compose, type ComposedMail, type MailLocale } from './mail-templates.js';
import { fileTransport, type MailTransport, smtpTransport } from './mail-transport.js';
export {
  emailChangeMail,
  passwordResetMail,
  PRODUCT_NAME,
  signInLinkMail,
} from './mail-templates.js';

/** Who a mail is for; userId/organizationId place it in the notification log (null for someone without an account). */
export interface MailAddressee {
  email: string;
  userId: string | null;
  organizationId: string | null;
}

/**
 * The app's mail (ctx.mail), created once with the context. Usage from any module's service:
 *
 *   const mail = signInLinkMail({ locale, name, link, minutes: 15 });   // mail-templates.ts
 *   void ctx.mail.send({ email, userId, organizationId }, mail);        // do not make a caller wait on SMTP
 *
 * Every mail is recorded in the notification log (channel EMAIL, visible to its addressee) with
 * `mail.secrets` (link tokens) replaced by [redacted]; without SMTP_URL it is also written as an .eml file
 * under DATA_DIR/mail. Secrets never reach a log line either.
 */
export interface Mailer {
  readonly transport: MailTransport['name'];
  /** Resolves when the mail is delivered or has failed (recorded either way); never rejects for delivery. */
  send(to: MailAddressee, mail: ComposedMail): Promise<SendResult>;
  /** Resolves when every send in flight has settled (tests; shutdown). */
  idle(): Promise<void>;
  /** Waits for sends in flight, then closes the transport. */
  close(): Promise<void>;
}

/** The mailer, created once with the context (ctx.mail); see Mailer above. */
export function mailService(
  config: Config,
  db: Db,
  now: () => Date,
  transport?: MailTransport,
): Mailer {
  const chosen =
    transport ??
    (config.smtpUrl ? smtpTransport(config.smtpUrl) : fileTransport(join(config.dataDir, 'mail')));
  const inFlight = new Set<Promise<unknown>>();

  async function deliver(to: MailAddressee, mail: ComposedMail): Promise<SendResult> {
    const entry = await messageLogService(db).log(
      {
        channel: 'EMAIL',
        userId: to.userId,
        organizationId: to.organizationId,
        recipient: to.email,
        provider: chosen.name,
        text: redact(`${mail.subject}\n\n${mail.text}`, mail.secrets),
      },
      now(),
    );
    const { subject, text, html, locale } = mail;
    const message = { from: config.mailFrom, to: to.email, subject, text, html, locale };
    const result = await chosen.deliver(message, now());
    const safe = {
      ...result,
      ...(result.error ? { error: redact(result.error, mail.secrets) } : {}),
    };
    await entry.settle(safe, now());
    return safe;
  }

  return {
    transport: chosen.name,
    send(to, mail) {
      const sending = deliver(to, mail);
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending)).catch(() => undefined);
      return sending;
    },
    async idle() {
      await Promise.allSettled([...inFlight]);
    },
    async close() {
      await Promise.allSettled([...inFlight]);
      chosen.close();
    },
  };
}
