import { z } from 'zod';
import { CHAT_CHANNELS } from '../alerts.js';
import { organizationIdParams } from './alert-policy.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { NOTIFICATION_STATUSES } from './notifications.js';

/*
 * Chat channels (issue 38 item 2, docs/chat-channels.md, decision 0022): Slack (incoming webhook, or an
 * app's bot token with its signing secret for the 確認 button), a Microsoft Teams Workflows webhook and a
 * LINE WORKS bot (API 2.0). Each is one integration of an organisation; a group's notice settings name
 * it as a recipient. Secrets go in and never come back: the answer shows their last characters.
 */

/** The chat services a person links their console account to (where 確認 can be pressed). */
export const LINKABLE_CHAT_CHANNELS = ['SLACK', 'LINE_WORKS'] as const;
export type LinkableChatChannel = (typeof LINKABLE_CHAT_CHANNELS)[number];

/**
 * The channels an organisation sets up on /settings: the chat channels, and LINE (the Messaging API of the
 * organisation's LINE official account, decision 0024), which tells family members only.
 */
export const CONFIGURABLE_CHANNELS = [...CHAT_CHANNELS, 'LINE'] as const;
export type ConfigurableChannel = (typeof CONFIGURABLE_CHANNELS)[number];
/** The services a chat user is linked on (staff: LINKABLE_CHAT_CHANNELS; family members: LINE). */
export type ChatLinkKind = LinkableChatChannel | 'LINE';

/** The free messages a month of LINE's communication plan (the Japanese free plan: 200). */
export const LINE_FREE_MESSAGES = 200;

/** A one-time link code lasts this long (minutes). */
export const CHAT_LINK_CODE_MINUTES = 10;

const secret = z.string().trim().min(8).max(4000);
const httpsUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .describe('an https:// URL (http:// only where the server allows private addresses)');
const chatId = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[\w.@:-]+$/, 'letters, digits and . _ - @ : only');

/**
 * Slack: an incoming webhook URL (cards with a link), and/or an app's bot token (xoxb-) and channel id for
 * chat.postMessage; the signing secret verifies the app's button presses and slash command. A secret left
 * out of an update keeps its stored value.
 */
export const slackChannelBody = z.strictObject({
  channel: z.literal('SLACK'),
  webhookUrl: httpsUrl.optional(),
  botToken: secret.regex(/^xox[bp]-/, 'must be a Slack bot token (xoxb-…)').optional(),
  signingSecret: secret.optional(),
  channelId: chatId.optional(),
});
/** Microsoft Teams: the Workflows webhook URL ("Post to a channel when a webhook request is received"). */
export const teamsChannelBody = z.strictObject({
  channel: z.literal('TEAMS'),
  webhookUrl: httpsUrl.optional(),
});
/** LINE WORKS API 2.0: the app (client id/secret, service account, private key) and the bot in a channel. */
export const lineWorksChannelBody = z.strictObject({
  channel: z.literal('LINE_WORKS'),
  clientId: chatId,
  clientSecret: secret.optional(),
  serviceAccount: chatId,
  privateKey: z
    .string()
    .trim()
    .max(8000)
    .regex(/-----BEGIN (RSA )?PRIVATE KEY-----/, 'must be the PEM private key of the app')
    .optional(),
  botId: chatId,
  botSecret: secret.optional(),
  channelId: chatId,
});
/**
 * LINE Messaging API (the organisation's LINE official account): the long-lived channel access token that
 * pushes, and the channel secret that signs the webhook (X-Line-Signature). Both secrets.
 */
export const lineChannelBody = z.strictObject({
  channel: z.literal('LINE'),
  channelAccessToken: secret.optional(),
  channelSecret: secret.optional(),
});
export const chatChannelBody = z.discriminatedUnion('channel', [
  slackChannelBody,
  teamsChannelBody,
  lineWorksChannelBody,
  lineChannelBody,
]);
export type ChatChannelBody = z.infer<typeof chatChannelBody>;

export const chatChannelParams = z.object({
  organizationId: organizationIdParams.shape.organizationId,
  channel: z.enum(CONFIGURABLE_CHANNELS),
});

/** One configured chat channel as the API shows it. */
export const chatChannelView = z.object({
  channel: z.enum(CONFIGURABLE_CHANNELS),
  /** What is not secret (a channel id, a bot id, a client id). */
  settings: z.record(z.string(), z.string()),
  /** Each stored secret's name and its last four characters ("…a1b2"); never the secret. */
  secrets: z.record(z.string(), z.string()),
  /** The 確認 button is offered (Slack: an app with a signing secret; LINE WORKS: always). */
  confirms: z.boolean(),
  /** Where the service sends its callbacks (Slack's interactivity and slash command; the LINE WORKS bot). */
  callbackUrl: z.string().nullable(),
  updatedAt: z.string(),
  /** LINE: the messages pushed this month (Japan time, as LINE counts) and the plan's free messages. */
  lineMessages: z
    .object({ month: z.string(), sent: z.number().int(), free: z.number().int() })
    .optional(),
});
export type ChatChannelView = z.infer<typeof chatChannelView>;
export const chatChannelList = z.object({ channels: z.array(chatChannelView) });
export type ChatChannelList = z.infer<typeof chatChannelList>;

export const chatChannelTestResponse = z.object({
  notificationId: z.string(),
  status: z.enum(NOTIFICATION_STATUSES),
  error: z.string().nullable(),
});

const chat = endpointsOf({ tags: ['Chat channels'], errors: BEARER_ERRORS });

export const listChatChannels = chat({
  method: 'GET',
  path: '/v2/organization/{organizationId}/chatChannels',
  permission: 'chatChannel:read',
  summary: "The organisation's chat channels (Slack, Teams, LINE WORKS), never their secrets",
  params: organizationIdParams,
  responses: { 200: chatChannelList },
});

export const putChatChannel = chat({
  method: 'PUT',
  path: '/v2/organization/{organizationId}/chatChannels/{channel}',
  permission: 'chatChannel:manage',
  summary: 'Set up or change a chat channel (a secret left out keeps its stored value)',
  params: chatChannelParams,
  body: chatChannelBody,
  responses: { 200: chatChannelView },
});

export const deleteChatChannel = chat({
  method: 'DELETE',
  path: '/v2/organization/{organizationId}/chatChannels/{channel}',
  permission: 'chatChannel:manage',
  summary: 'Remove a chat channel (groups naming it are told nothing on it any more)',
  params: chatChannelParams,
  responses: { 204: z.null() },
});

export const testChatChannel = chat({
  method: 'POST',
  path: '/v2/organization/{organizationId}/chatChannels/{channel}/test',
  permission: 'chatChannel:manage',
  summary: 'Send one test message to the chat channel; the outcome is in the notification log',
  params: chatChannelParams,
  responses: { 200: chatChannelTestResponse },
});

/* ---- One's own link to a chat user (the account page) ---- */

export const chatLinkView = z.object({
  channel: z.enum(LINKABLE_CHAT_CHANNELS),
  /** The chat service's user id (Slack U…, LINE WORKS user id). */
  chatUserId: z.string(),
  linkedAt: z.string(),
});
export const chatLinksResponse = z.object({
  links: z.array(chatLinkView),
  /** The organisation's channels a person can link to (set up on /settings). */
  available: z.array(z.enum(LINKABLE_CHAT_CHANNELS)),
});
export type ChatLinksResponse = z.infer<typeof chatLinksResponse>;
export const chatLinkCodeResponse = z.object({
  /** Eight characters, sent to the LINE WORKS bot or as `/wearable link <code>` in Slack. */
  code: z.string(),
  expiresAt: z.string(),
});
export const chatLinkParams = z.object({ channel: z.enum(LINKABLE_CHAT_CHANNELS) });

const links = endpointsOf({ tags: ['Account'], errors: BEARER_ERRORS });

export const listChatLinks = links({
  method: 'GET',
  path: '/v2/user/chatLinks',
  permission: 'chatLink:manage',
  summary: "One's own links to Slack and LINE WORKS users, and the channels one may link",
  responses: { 200: chatLinksResponse },
});

export const createChatLinkCode = links({
  method: 'POST',
  path: '/v2/user/chatLinks/code',
  permission: 'chatLink:manage',
  summary: `A one-time code (${CHAT_LINK_CODE_MINUTES} minutes) to send to the bot or Slack, which links the chat user to oneself`,
  responses: { 200: chatLinkCodeResponse },
});

export const deleteChatLink = links({
  method: 'DELETE',
  path: '/v2/user/chatLinks/{channel}',
  permission: 'chatLink:manage',
  summary: "Remove one's link to a chat user (its 確認 presses are refused from then on)",
  params: chatLinkParams,
  responses: { 204: z.null() },
});

/* ---- The chat services' callbacks (no session: a signature instead) ---- */

/**
 * Slack's interactivity request (`payload`, JSON of a block_actions) or slash command (`command`,
 * `text`, `user_id`, `team_id`), form-encoded; verified by X-Slack-Signature.
 */
export const slackCallbackBody = z
  .object({
    payload: z.string().max(100_000).optional(),
    command: z.string().max(100).optional(),
    text: z.string().max(4000).optional(),
    user_id: z.string().max(100).optional(),
    team_id: z.string().max(100).optional(),
  })
  .loose();
/** A slash command's reply (only the person who typed it sees it). */
export const slackCallbackReply = z.object({
  response_type: z.literal('ephemeral').optional(),
  text: z.string().optional(),
});

/** LINE WORKS's callback event (message or postback); verified by X-WORKS-Signature. */
export const lineWorksCallbackBody = z
  .object({
    type: z.string().max(50),
    source: z
      .object({ userId: z.string().max(200).optional(), channelId: z.string().max(200).optional() })
      .loose()
      .optional(),
    content: z
      .object({ type: z.string().max(50).optional(), text: z.string().max(4000).optional() })
      .loose()
      .optional(),
    data: z.string().max(1000).optional(),
  })
  .loose();

const callbacks = endpointsOf({ tags: ['Chat channels'], errors: [400, 403, 404] });

export const slackCallback = callbacks({
  method: 'POST',
  path: '/v2/chat/slack/{organizationId}',
  permission: 'public',
  summary:
    "Slack's button presses (確認) and the /wearable slash command; verified by X-Slack-Signature (403 otherwise)",
  params: organizationIdParams,
  body: slackCallbackBody,
  consumes: ['application/x-www-form-urlencoded'],
  responses: { 200: slackCallbackReply },
});

export const lineWorksCallback = callbacks({
  method: 'POST',
  path: '/v2/chat/lineWorks/{organizationId}',
  permission: 'public',
  summary:
    "The LINE WORKS bot's callback (a link code, a 確認 press); verified by X-WORKS-Signature (403 otherwise)",
  params: organizationIdParams,
  body: lineWorksCallbackBody,
  responses: { 204: z.null() },
});

/** A LINE webhook event (message or postback) as the Messaging API sends it ("Webhook Event Objects"). */
const lineEvent = z
  .object({
    type: z.string().max(50),
    webhookEventId: z.string().max(100).optional(),
    replyToken: z.string().max(200).optional(),
    source: z
      .object({ userId: z.string().max(100).optional() })
      .loose()
      .optional(),
    message: z
      .object({ type: z.string().max(50).optional(), text: z.string().max(5000).optional() })
      .loose()
      .optional(),
    postback: z
      .object({ data: z.string().max(300).optional() })
      .loose()
      .optional(),
  })
  .loose();
export const lineCallbackBody = z
  .object({ destination: z.string().max(100).optional(), events: z.array(lineEvent).max(100) })
  .loose();

export const lineCallback = callbacks({
  method: 'POST',
  path: '/v2/chat/line/{organizationId}',
  permission: 'public',
  summary:
    "The LINE official account's webhook (a family member's link code, a 見ました press); verified by X-Line-Signature (403 otherwise)",
  params: organizationIdParams,
  body: lineCallbackBody,
  responses: { 200: z.object({}) },
});
