import { createHmac, createSign, timingSafeEqual } from 'node:crypto';
import { type ChatRequest, type ReadOk } from './chat-http.js';
import { CHAT_LABELS, type ChatNotice, confirmValue } from './chat-notice.js';

/**
 * LINE WORKS API 2.0 (docs/chat-channels.md): an access token by the service-account JWT ("Service
 * Account Authentication (JWT)", https://auth.worksmobile.com/oauth2/v2.0/token), then the bot's
 * message to a channel ("Bot - Send message to channel": POST /bots/{botId}/channels/{channelId}/messages)
 * as a button template with 確認 (a postback) and 詳細 (a link). Callbacks carry X-WORKS-Signature, the
 * base64 HMAC-SHA256 of the body with the bot secret ("Callback"). Pure: requests out, answers in.
 */
export interface LineWorksConfig {
  clientId: string;
  clientSecret: string;
  serviceAccount: string;
  privateKey: string;
  botId: string;
  botSecret: string;
  channelId: string;
}

const base64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

/** The RS256 JWT the token endpoint takes: iss = client id, sub = service account, an hour at most. */
export function lineWorksAssertion(c: LineWorksConfig, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000);
  const head = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = base64url(
    JSON.stringify({ iss: c.clientId, sub: c.serviceAccount, iat, exp: iat + 3600 }),
  );
  const signature = createSign('RSA-SHA256').update(`${head}.${claims}`).sign(c.privateKey);
  return `${head}.${claims}.${base64url(signature)}`;
}

/** The token request (form-encoded; scope bot). */
export function lineWorksTokenRequest(c: LineWorksConfig, authUrl: string, now: Date): ChatRequest {
  return {
    url: authUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      assertion: lineWorksAssertion(c, now),
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      client_id: c.clientId,
      client_secret: c.clientSecret,
      scope: 'bot',
    }).toString(),
  };
}

/** The token answer: `{ access_token, token_type: "Bearer", expires_in: "86400", ... }`. */
export const readLineWorksToken: ReadOk<string> = (body) => {
  try {
    const answer = JSON.parse(body) as { access_token?: unknown };
    if (typeof answer.access_token === 'string' && answer.access_token)
      return { ok: true, value: answer.access_token };
  } catch {
    // not JSON: refused below
  }
  return { ok: false, error: 'LINE WORKS: the token answer has no access_token' };
};

/** The button template: the notice, 確認 (a postback the callback receives) and 詳細 (the alert's link). */
export function lineWorksContent(notice: ChatNotice) {
  const actions = [
    ...(notice.confirmAlertId
      ? [
          {
            type: 'postback',
            label: CHAT_LABELS.confirm,
            data: confirmValue(notice.confirmAlertId),
            displayText: CHAT_LABELS.confirm,
          },
        ]
      : []),
    ...(notice.link ? [{ type: 'uri', label: CHAT_LABELS.details, uri: notice.link }] : []),
  ];
  const text = `${notice.title}\n${notice.text}`;
  // A button template needs at least one action; without any, plain text.
  return actions.length
    ? { content: { type: 'button_template', contentText: text.slice(0, 1000), actions } }
    : { content: { type: 'text', text: text.slice(0, 2000) } };
}

const bearer = (token: string) => ({
  'content-type': 'application/json',
  authorization: `Bearer ${token}`,
});

/** The bot's message to the channel. */
export const lineWorksChannelRequest = (
  c: LineWorksConfig,
  notice: ChatNotice,
  apiUrl: string,
  token: string,
): ChatRequest => ({
  url: `${apiUrl}/bots/${encodeURIComponent(c.botId)}/channels/${encodeURIComponent(c.channelId)}/messages`,
  headers: bearer(token),
  body: JSON.stringify(lineWorksContent(notice)),
});

/** The bot's reply to one person (a link made, a press refused). */
export const lineWorksUserRequest = (
  c: LineWorksConfig,
  userId: string,
  text: string,
  apiUrl: string,
  token: string,
): ChatRequest => ({
  url: `${apiUrl}/bots/${encodeURIComponent(c.botId)}/users/${encodeURIComponent(userId)}/messages`,
  headers: bearer(token),
  body: JSON.stringify({ content: { type: 'text', text } }),
});

/** "Send message" answers 201 Created with no body: the receipt is the 2xx (no message id). */
export const readLineWorksOk: ReadOk<null> = () => ({ ok: true, value: null });

/** X-WORKS-Signature: base64 of the HMAC-SHA256 of the raw body, keyed with the bot secret. */
export const lineWorksSignature = (botSecret: string, body: string): string =>
  createHmac('sha256', botSecret).update(body).digest('base64');

export function isLineWorksSignatureValid(
  botSecret: string,
  signature: string | undefined,
  body: string,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(lineWorksSignature(botSecret, body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
