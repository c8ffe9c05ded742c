import { createHmac, timingSafeEqual } from 'node:crypto';
import { type ChatRequest, type ReadOk } from './chat-http.js';
import { CHAT_LABELS, type ChatNotice, confirmValue } from './chat-notice.js';

/**
 * Slack (docs/chat-channels.md): an incoming webhook ("Sending messages using incoming webhooks") or an
 * app's chat.postMessage, both with a Block Kit message (a section and an actions block); the 確認
 * button only where the app can receive its press (a signing secret). Pure: requests out, answers in.
 */

export interface SlackConfig {
  webhookUrl?: string | undefined;
  botToken?: string | undefined;
  signingSecret?: string | undefined;
  channelId?: string | undefined;
}

/** The action_id of the 確認 button. */
export const SLACK_CONFIRM_ACTION = 'wearable_confirm';

/** The app posts (and 確認 is offered) when it has a token and a channel; else the incoming webhook. */
export const slackUsesApp = (c: SlackConfig): boolean => Boolean(c.botToken && c.channelId);
export const slackConfirms = (c: SlackConfig): boolean =>
  slackUsesApp(c) && Boolean(c.signingSecret);

/** The Block Kit message: the text (also the notification's fallback), 詳細 as a link, 確認 where offered. */
export function slackBlocks(notice: ChatNotice, withConfirm: boolean) {
  const buttons = [
    ...(withConfirm && notice.confirmAlertId
      ? [
          {
            type: 'button',
            action_id: SLACK_CONFIRM_ACTION,
            style: 'primary',
            text: { type: 'plain_text', text: CHAT_LABELS.confirm },
            value: confirmValue(notice.confirmAlertId),
          },
        ]
      : []),
    ...(notice.link
      ? [
          {
            type: 'button',
            action_id: 'wearable_details',
            text: { type: 'plain_text', text: CHAT_LABELS.details },
            url: notice.link,
          },
        ]
      : []),
  ];
  return {
    text: `${notice.title}: ${notice.text}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${notice.title}*\n${notice.text}` } },
      ...(buttons.length ? [{ type: 'actions', elements: buttons }] : []),
    ],
  };
}

/** The request that posts the notice: chat.postMessage with the bot token, or the incoming webhook. */
export function slackRequest(c: SlackConfig, notice: ChatNotice, apiUrl: string): ChatRequest {
  if (slackUsesApp(c)) {
    return {
      url: `${apiUrl}/chat.postMessage`,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        authorization: `Bearer ${c.botToken!}`,
      },
      body: JSON.stringify({ channel: c.channelId, ...slackBlocks(notice, slackConfirms(c)) }),
    };
  }
  return {
    url: c.webhookUrl!,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(slackBlocks(notice, false)),
  };
}

/**
 * A 2xx from Slack: the webhook answers the text `ok`; chat.postMessage answers JSON `{ ok, ts }` or
 * `{ ok: false, error }` (e.g. invalid_auth, channel_not_found) with status 200.
 */
export const readSlackOk: ReadOk<string | null> = (body) => {
  if (body.trim() === 'ok') return { ok: true, value: null };
  try {
    const answer = JSON.parse(body) as { ok?: boolean; ts?: string; error?: string };
    if (answer.ok) return { ok: true, value: answer.ts ?? null };
    return { ok: false, error: answer.error ?? 'not ok' };
  } catch {
    return { ok: false, error: `Slack answered ${body.slice(0, 100)}` };
  }
};

/** How old a signed request may be ("Verifying requests from Slack": five minutes). */
export const SLACK_MAX_AGE_SECONDS = 300;

/** `v0=` and the hex HMAC-SHA256 of `v0:<timestamp>:<body>` with the signing secret. */
export const slackSignature = (secret: string, timestamp: string, body: string): string =>
  `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;

/** Whether a request is Slack's: the signature over the raw body, and a timestamp within five minutes. */
export function isSlackSignatureValid(
  secret: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  body: string,
  now: Date,
): boolean {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > SLACK_MAX_AGE_SECONDS) return false;
  const expected = Buffer.from(slackSignature(secret, timestamp, body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
