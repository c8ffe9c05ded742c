import type { NotificationStatus } from '@wearable/domain';
import type { NotificationProvider, SendResult } from './notification-provider.js';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  from: string;
  /** https://api.twilio.com, or a compatible endpoint (a local fake in tests). */
  apiBase: string;
  /** Asked of Twilio with every message and call, so it reports delivery (twilio-callbacks.routes.ts). */
  statusCallbackUrl?: string | undefined;
  timeoutMs?: number;
}

/** Twilio's message/call states mapped onto ours; anything unknown counts as queued. */
export function statusOf(twilioStatus: unknown): NotificationStatus {
  switch (twilioStatus) {
    case 'sent':
    case 'initiated':
    case 'in-progress':
    case 'ringing':
      return 'sent';
    case 'delivered':
    case 'completed':
      return 'delivered';
    case 'failed':
    case 'undelivered':
    case 'busy':
    case 'no-answer':
    case 'canceled':
      return 'failed';
    default:
      return 'queued';
  }
}

const escapeXml = (s: string) =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/** Twilio REST adapter: form-encoded POSTs with basic auth; errors become 'failed' results. */
export function twilioProvider(opts: TwilioOptions): NotificationProvider {
  const base = `${opts.apiBase.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}`;
  const callback = opts.statusCallbackUrl;
  const auth = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;

  async function post(
    resource: 'Messages' | 'Calls',
    form: Record<string, string>,
  ): Promise<SendResult> {
    try {
      const res = await fetch(`${base}/${resource}.json`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (!res.ok) {
        const code =
          typeof body.code === 'number' || typeof body.code === 'string' ? `${body.code}: ` : '';
        const message = typeof body.message === 'string' ? body.message : res.statusText;
        return { status: 'failed', error: `HTTP ${res.status} ${code}${message}` };
      }
      const sid = typeof body.sid === 'string' ? body.sid : undefined;
      return { status: statusOf(body.status), ...(sid ? { providerId: sid } : {}) };
    } catch (err) {
      return { status: 'failed', error: `Twilio unreachable: ${(err as Error).message}` };
    }
  }

  return {
    name: 'twilio',
    sendSms: (to, text) =>
      post('Messages', {
        To: to,
        From: opts.from,
        Body: text,
        ...(callback ? { StatusCallback: callback } : {}),
      }),
    call: (to, text) =>
      post('Calls', {
        To: to,
        From: opts.from,
        Twiml: `<Response><Say language="ja-JP">${escapeXml(text)}</Say></Response>`,
        // Only the final state: completed (answered) is the delivery, busy / no-answer / failed the failure.
        ...(callback ? { StatusCallback: callback, StatusCallbackMethod: 'POST' } : {}),
      }),
  };
}
