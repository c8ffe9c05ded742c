import { createHash } from 'node:crypto';
import webpush from 'web-push';
import { resolvePublicHost } from '../webhooks/webhooks.service.js';
import type { VapidKeys } from './vapid-keys.js';

/** A browser's subscription as the push service needs it (the endpoint and keys unsealed). */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** The push service's last answer to one message: 'accepted' (201), 'gone' (404/410) or 'failed'. */
export interface PushOutcome {
  result: 'accepted' | 'gone' | 'failed';
  /** The HTTP status, or null when no answer came (network, timeout). */
  status: number | null;
  /** Requests made (retries of 429/5xx and network failures included). */
  tries: number;
  error?: string;
}

export interface PushMessage {
  /** The encrypted body's plain text (JSON of the notice payload). */
  payload: string;
  /** RFC 8030 §5.4: a retry replaces an undelivered copy instead of queueing a second one. */
  topic: string;
  /** RFC 8030 §5.3: EMERGENCY 'high' (wakes a sleeping phone), others 'normal'. */
  urgency: 'high' | 'normal';
  /** RFC 8030 §5.2: seconds the push service keeps it for an unreachable browser. */
  ttlSeconds: number;
}

export interface PushSenderOptions {
  /** Endpoints may resolve to loopback and private addresses (PUSH_ALLOW_PRIVATE: tests, development). */
  allowPrivate: boolean;
  /** Tries in all for 429 / 5xx / no answer (the first included). */
  tries: number;
  /** Wait before the first retry; doubled each time; a Retry-After answer is honoured up to maxWaitMs. */
  retryBaseMs: number;
  maxWaitMs: number;
  timeoutMs: number;
}

export const PUSH_SENDER_DEFAULTS: PushSenderOptions = {
  allowPrivate: false,
  tries: 3,
  retryBaseMs: 500,
  maxWaitMs: 5_000,
  timeoutMs: 10_000,
};

/** A Topic from any id: base64url, at most 32 characters (RFC 8030 §5.4). */
export const pushTopic = (id: string): string =>
  createHash('sha256').update(id).digest('base64url').slice(0, 32);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/**
 * Sends one message to one browser's push service (RFC 8030 §5): the body encrypted (aes128gcm, RFC 8291)
 * and the VAPID JWT (RFC 8292) made by `web-push`, the request sent here (fetch: any https endpoint, and an
 * http one on a test's machine). 201 is final; 404/410 mean the subscription is gone; 429 and 5xx and no
 * answer are retried with the same Topic, so the push service keeps at most one copy.
 */
export async function sendPush(
  target: PushTarget,
  message: PushMessage,
  vapid: VapidKeys,
  options: PushSenderOptions = PUSH_SENDER_DEFAULTS,
): Promise<PushOutcome> {
  // The endpoint is a URL the browser (so, a signed-in user) gave: never a request to this machine's network,
  // as for webhooks. (Checked before each message; fetch cannot pin the checked address as the webhook sender does.)
  try {
    await resolvePublicHost(target.endpoint, options.allowPrivate);
  } catch (err) {
    return { result: 'failed', status: null, tries: 0, error: (err as Error).message };
  }
  let last: PushOutcome = { result: 'failed', status: null, tries: 0 };
  let wait = options.retryBaseMs;
  for (let tries = 1; tries <= options.tries; tries++) {
    // Made anew for each try: a fresh JWT (exp) and a fresh salt and key (RFC 8291 §3.4 asks for both).
    const request = webpush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      message.payload,
      {
        vapidDetails: vapid,
        TTL: message.ttlSeconds,
        urgency: message.urgency,
        topic: message.topic,
        contentEncoding: 'aes128gcm',
      },
    );
    let retryAfter: number | null = null;
    try {
      const res = await fetch(request.endpoint, {
        method: 'POST',
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
        ),
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = (await res.text()).slice(0, 200);
      if (res.status >= 200 && res.status < 300)
        return { result: 'accepted', status: res.status, tries };
      if (res.status === 404 || res.status === 410)
        return { result: 'gone', status: res.status, tries, error: `${res.status} ${text}`.trim() };
      last = { result: 'failed', status: res.status, tries, error: `${res.status} ${text}`.trim() };
      // Any other 4xx (400 bad request, 401/403 VAPID refused, 413 too large) will not change on a retry.
      if (res.status !== 429 && res.status < 500) return last;
      retryAfter = retryAfterMs(res.headers.get('retry-after'));
    } catch (err) {
      last = {
        result: 'failed',
        status: null,
        tries,
        error: err instanceof Error ? err.message : String(err),
      };
    }
    if (tries < options.tries) {
      await sleep(Math.min(options.maxWaitMs, retryAfter ?? wait));
      wait *= 2;
    }
  }
  return last;
}
