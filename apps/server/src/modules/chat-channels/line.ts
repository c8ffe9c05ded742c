import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ChatRequest, ReadOk } from './chat-http.js';

/**
 * LINE Messaging API (docs/chat-channels.md "LINE (families)", decision 0024). Pure: requests out, answers in.
 *
 * - "Send push message" (https://developers.line.biz/en/reference/messaging-api/#send-push-message):
 *   `POST https://api.line.me/v2/bot/message/push`, `Authorization: Bearer {channel access token}`, JSON
 *   `{ to, messages }` (at most five message objects; one request to one user is one message of the
 *   plan), answer 200 `{"sentMessages":[{"id":"461230966842064897","quoteToken":"IStG5h1Tz7b..."}]}`.
 * - "Retry failed API requests" (https://developers.line.biz/en/docs/messaging-api/retrying-api-request/):
 *   `X-Line-Retry-Key` (a UUID) makes a push idempotent for 24 hours: a request with a key already
 *   accepted answers 409 with `x-line-accepted-request-id`, and nothing is sent again.
 * - "Send reply message" (`POST /v2/bot/message/reply`, `{ replyToken, messages }`): free, not counted.
 * - "Signature validation" (https://developers.line.biz/en/reference/messaging-api/#signature-validation):
 *   `X-Line-Signature` is the base64 HMAC-SHA256 of the request body with the channel secret.
 */
export interface LineConfig {
  channelAccessToken: string;
  channelSecret: string;
}

/** The family member's button (postback) and what it carries: the notification it answers. */
export const LINE_SEEN_LABEL = '見ました';
export const SEEN_PREFIX = 'seen:';
export const seenValue = (notificationId: string) => `${SEEN_PREFIX}${notificationId}`;
export const seenNotificationOf = (data: string | undefined): string | null =>
  data?.startsWith(SEEN_PREFIX) ? data.slice(SEEN_PREFIX.length) || null : null;

/**
 * The retry key of one notification: a UUID derived from its log row, so every attempt of the same
 * notice (a retry after a timeout, a 5xx, a redelivery from the alert outbox) carries the same key and
 * LINE sends it once.
 */
export function lineRetryKey(notificationId: string): string {
  const h = createHash('sha256').update(`line-retry:${notificationId}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const headersOf = (c: LineConfig) => ({
  'content-type': 'application/json',
  authorization: `Bearer ${c.channelAccessToken}`,
});

/** The notice (a text message) and the 見ました button (a buttons template), in one push. */
export function linePushRequest(
  c: LineConfig,
  to: string,
  text: string,
  notificationId: string | null,
  apiUrl: string,
): ChatRequest {
  const messages: object[] = [{ type: 'text', text: text.slice(0, 5000) }];
  if (notificationId)
    messages.push({
      type: 'template',
      altText: `${LINE_SEEN_LABEL}: ${text}`.slice(0, 400),
      template: {
        type: 'buttons',
        text: 'ご覧になったら「見ました」を押してください。',
        actions: [
          {
            type: 'postback',
            label: LINE_SEEN_LABEL,
            data: seenValue(notificationId),
            displayText: LINE_SEEN_LABEL,
          },
        ],
      },
    });
  return {
    url: `${apiUrl}/v2/bot/message/push`,
    headers: {
      ...headersOf(c),
      ...(notificationId ? { 'x-line-retry-key': lineRetryKey(notificationId) } : {}),
    },
    body: JSON.stringify({ to, messages }),
  };
}

/** The answer to a webhook event (a link made, a press recorded): a reply message, which costs nothing. */
export const lineReplyRequest = (
  c: LineConfig,
  replyToken: string,
  text: string,
  apiUrl: string,
): ChatRequest => ({
  url: `${apiUrl}/v2/bot/message/reply`,
  headers: headersOf(c),
  body: JSON.stringify({ replyToken, messages: [{ type: 'text', text }] }),
});

/** "Validate message objects of a push message" (POST /v2/bot/message/validate/push): 200 `{}`, nothing sent. */
export const lineValidateRequest = (c: LineConfig, text: string, apiUrl: string): ChatRequest => ({
  url: `${apiUrl}/v2/bot/message/validate/push`,
  headers: headersOf(c),
  body: JSON.stringify({ messages: [{ type: 'text', text }] }),
});

/** A push's answer: the sent message's id (`sentMessages[0].id`); a 409 of an accepted retry key has none. */
export const readLineOk: ReadOk<string | null> = (body) => {
  try {
    const answer = JSON.parse(body || '{}') as { sentMessages?: { id?: unknown }[] };
    const id = answer.sentMessages?.[0]?.id;
    return { ok: true, value: typeof id === 'string' ? id : null };
  } catch {
    return { ok: true, value: null };
  }
};

/** X-Line-Signature: base64 of the HMAC-SHA256 of the raw body, keyed with the channel secret. */
export const lineSignature = (channelSecret: string, body: string): string =>
  createHmac('sha256', channelSecret).update(body).digest('base64');

export function isLineSignatureValid(
  channelSecret: string,
  signature: string | undefined,
  body: string,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(lineSignature(channelSecret, body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
