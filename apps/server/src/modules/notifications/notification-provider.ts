import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NotificationStatus } from '@wearable/domain';

/** What a provider says about one message or call it was asked to send. */
export interface SendResult {
  status: NotificationStatus;
  /** The provider's id of the message or call (Twilio's sid). */
  providerId?: string;
  error?: string;
}

/** Where SMS and phone calls leave the product. Never throws: a failure is a 'failed' result. */
export interface NotificationProvider {
  readonly name: string;
  sendSms(to: string, text: string): Promise<SendResult>;
  call(to: string, text: string): Promise<SendResult>;
}

/**
 * The default: nothing leaves the server; the notifications service records every message in
 * the notifications table, where the console and the API show it. Recording it is the delivery, so
 * an attempt is 'delivered' at once (sent_at = delivered_at): the timeline and the response-time
 * figures read the same columns as with Twilio's status callbacks.
 */
export const embeddedProvider: NotificationProvider = {
  name: 'embedded',
  sendSms: () => Promise.resolve({ status: 'delivered' }),
  call: () => Promise.resolve({ status: 'delivered' }),
};

/**
 * The embedded provider as the app runs it: every SMS and call is also written to `outbox`
 * (DATA_DIR/sms) as `<UTC time>_<number>_<sms|call>.txt`, so offline a person can read what was sent
 * (a sign-in code, which the notification log shows redacted).
 */
export function embeddedOutboxProvider(outbox: string, now: () => Date): NotificationProvider {
  const write = async (to: string, kind: 'sms' | 'call', text: string): Promise<SendResult> => {
    try {
      const file = `${now().toISOString().replace(/[:.]/g, '-')}_${to.replace(/[^\d+]/g, '')}_${kind}.txt`;
      await mkdir(outbox, { recursive: true });
      await writeFile(join(outbox, file), `To: ${to}\n\n${text}\n`, { mode: 0o600, flag: 'a' });
      return { status: 'delivered', providerId: file };
    } catch (err) {
      return { status: 'failed', error: err instanceof Error ? err.message : String(err) };
    }
  };
  return {
    name: 'embedded',
    sendSms: (to, text) => write(to, 'sms', text),
    call: (to, text) => write(to, 'call', text),
  };
}
