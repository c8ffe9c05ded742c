import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { SendResult } from '../notifications/message-log.service.js';

/** One mail as it leaves the product. */
export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  locale: string;
}

/** Where mails leave: SMTP, or .eml files. Never throws: a failure is a 'failed' result. */
export interface MailTransport {
  readonly name: 'file' | 'smtp';
  deliver(message: MailMessage, at: Date): Promise<SendResult>;
  close(): void;
}

const headersOf = (m: MailMessage) => ({ 'Content-Language': m.locale });
const failure = (err: unknown): SendResult => ({
  status: 'failed',
  error: err instanceof Error ? err.message : String(err),
});

/**
 * Offline default: each mail is a complete RFC 5322 message in `dir` (DATA_DIR/mail), named
 * `<UTC time>_<recipient>_<random>.eml` so the newest sorts last and any mail program opens it.
 */
export function fileTransport(dir: string): MailTransport {
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    name: 'file',
    async deliver(m, at) {
      try {
        const info = await composer.sendMail({ ...m, headers: headersOf(m), date: at });
        const stamp = at.toISOString().replace(/[:.]/g, '-');
        const file = `${stamp}_${m.to.replace(/[^\w.@+-]/g, '_')}_${randomBytes(3).toString('hex')}.eml`;
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, file), info.message as Buffer, { mode: 0o600 });
        return { status: 'sent', providerId: file };
      } catch (err) {
        return failure(err);
      }
    },
    close: () => composer.close(),
  };
}

/** SMTP_URL: smtp://user:password@host:587 (STARTTLS when offered) or smtps://…:465. */
export function smtpTransport(url: string): MailTransport {
  const transport = nodemailer.createTransport({
    url,
    // A mail server that does not answer must not hold sends (and shutdown) for minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    name: 'smtp',
    async deliver(m, at) {
      try {
        const info = await transport.sendMail({ ...m, headers: headersOf(m), date: at });
        return info.rejected.length > 0
          ? { status: 'failed', error: 'the SMTP server refused the recipient' }
          : { status: 'sent', providerId: info.messageId };
      } catch (err) {
        return failure(err);
      }
    },
    close: () => transport.close(),
  };
}
