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
 * the notifications table (status 'sent'), where the console and the API show it.
 */
export const embeddedProvider: NotificationProvider = {
  name: 'embedded',
  sendSms: () => Promise.resolve({ status: 'sent' }),
  call: () => Promise.resolve({ status: 'sent' }),
};
