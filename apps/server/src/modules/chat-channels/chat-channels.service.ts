import {
  type Actor,
  type ChatChannel,
  type ChatChannelBody,
  type ChatChannelList,
  type ChatChannelView,
  type ConfigurableChannel,
  isChatChannel,
  LINE_FREE_MESSAGES,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { ApiError, notFound } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { secretBoxService } from '../auth/secret-box.service.js';
import { messageLogService } from '../notifications/message-log.service.js';
import { type ChatChannelRow, chatChannelsRepository } from './chat-channels.repository.js';
import { type ChatRequest, type Outcome, type SendResult, sendWithRetry } from './chat-http.js';
import type { ChatNotice } from './chat-notice.js';
import {
  type LineWorksConfig,
  lineWorksChannelRequest,
  lineWorksTokenRequest,
  lineWorksUserRequest,
  readLineWorksOk,
  readLineWorksToken,
} from './line-works.js';
import {
  type LineConfig,
  linePushRequest,
  lineReplyRequest,
  lineValidateRequest,
  readLineOk,
} from './line.js';
import { readSlackOk, type SlackConfig, slackConfirms, slackRequest } from './slack.js';
import { readTeamsOk, type TeamsConfig, teamsRequest } from './teams.js';

export type { ChatNotice } from './chat-notice.js';
export type { SendResult } from './chat-http.js';

/** The provider name each chat channel's attempts are logged under. */
export const CHAT_PROVIDER_NAMES: Record<ConfigurableChannel, string> = {
  SLACK: 'slack',
  TEAMS: 'teams',
  LINE_WORKS: 'line-works',
  LINE: 'line',
};

const LABELS: Record<ConfigurableChannel, string> = {
  SLACK: 'Slack',
  TEAMS: 'Microsoft Teams',
  LINE_WORKS: 'LINE WORKS',
  LINE: 'LINE',
};

/** The fields of each channel that are secrets (sealed, never answered) and those that are not. */
const SECRET_FIELDS: Record<ConfigurableChannel, readonly string[]> = {
  SLACK: ['webhookUrl', 'botToken', 'signingSecret'],
  TEAMS: ['webhookUrl'],
  LINE_WORKS: ['clientSecret', 'privateKey', 'botSecret'],
  LINE: ['channelAccessToken', 'channelSecret'],
};
const PLAIN_FIELDS: Record<ConfigurableChannel, readonly string[]> = {
  SLACK: ['channelId'],
  TEAMS: [],
  LINE_WORKS: ['clientId', 'serviceAccount', 'botId', 'channelId'],
  LINE: [],
};

/** A channel's whole configuration, secrets opened (only ever inside the server). */
export type ChatConfigOf = {
  SLACK: SlackConfig;
  TEAMS: TeamsConfig;
  LINE_WORKS: LineWorksConfig;
  LINE: LineConfig;
};

const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);

const hint = (secret: string) => `…${secret.slice(-4)}`;

const pick = (from: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(
    fields.flatMap((f) => (typeof from[f] === 'string' && from[f] ? [[f, from[f]]] : [])),
  ) as Record<string, string>;

/** What a configuration lacks to send (the field to name), or null. */
function missing(channel: ConfigurableChannel, c: Record<string, string>): string | null {
  if (channel === 'SLACK')
    return c.webhookUrl || (c.botToken && c.channelId)
      ? null
      : 'give webhookUrl, or botToken and channelId';
  if (channel === 'TEAMS') return c.webhookUrl ? null : 'give webhookUrl';
  if (channel === 'LINE') {
    const lacking = ['channelAccessToken', 'channelSecret'].filter((f) => !c[f]);
    return lacking.length ? `give ${lacking.join(', ')}` : null;
  }
  const need = ['clientId', 'clientSecret', 'serviceAccount', 'privateKey', 'botId', 'botSecret'];
  const lacking = [...need, 'channelId'].filter((f) => !c[f]);
  return lacking.length ? `give ${lacking.join(', ')}` : null;
}

/**
 * An organisation's chat channels (docs/chat-channels.md, decision 0022): owners set them up on
 * /settings (chatChannel:manage; every staff member sees which exist, never a secret); the notifier
 * sends a notice through the channel's adapter (Slack, Teams, LINE WORKS) with the retry policy of
 * chat-http.ts, and the callbacks read a channel's configuration to check a signature.
 */
export function chatChannelsService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const repo = chatChannelsRepository(ctx.db);
  const box = secretBoxService(ctx);
  const retry = { timeoutMs: ctx.config.chat.timeoutMs, retryBaseMs: ctx.config.chat.retryBaseMs };

  async function open(row: ChatChannelRow): Promise<Record<string, string>> {
    const secrets = JSON.parse(await box.open(row.secrets_sealed)) as Record<string, string>;
    return { ...row.settings, ...secrets };
  }

  async function configOf<C extends ConfigurableChannel>(
    organizationId: string,
    channel: C,
  ): Promise<ChatConfigOf[C] | null> {
    const row = await repo.find(organizationId, channel);
    if (!row) return null;
    const config = await open(row);
    // Stored only when complete (put() checks), so the shape is the channel's.
    return missing(channel, config) ? null : (config as unknown as ChatConfigOf[C]);
  }

  function callbackUrlOf(channel: ConfigurableChannel, organizationId: string): string | null {
    if (channel === 'SLACK') return `${ctx.config.publicUrl}/v2/chat/slack/${organizationId}`;
    if (channel === 'LINE') return `${ctx.config.publicUrl}/v2/chat/line/${organizationId}`;
    if (channel === 'LINE_WORKS')
      return `${ctx.config.publicUrl}/v2/chat/lineWorks/${organizationId}`;
    return null;
  }

  async function viewOf(
    row: ChatChannelRow,
    config: Record<string, string>,
  ): Promise<ChatChannelView> {
    return {
      channel: row.kind,
      settings: row.settings,
      secrets: row.secret_hints,
      confirms: row.kind === 'SLACK' ? slackConfirms(config) : row.kind === 'LINE_WORKS',
      callbackUrl: callbackUrlOf(row.kind, row.organization_id),
      updatedAt: new Date(row.updated_at).toISOString(),
      ...(row.kind === 'LINE' ? { lineMessages: await lineMonth(row.organization_id) } : {}),
    };
  }

  /** The month (Japan time, as LINE counts its plan) and the LINE messages pushed in it. */
  async function lineMonth(organizationId: string) {
    const jst = new Date(ctx.now().getTime() + 9 * 3_600_000);
    const start = new Date(Date.UTC(jst.getUTCFullYear(), jst.getUTCMonth(), 1) - 9 * 3_600_000);
    const sent = await repo.lineMessagesSince(organizationId, start);
    return { month: jst.toISOString().slice(0, 7), sent, free: LINE_FREE_MESSAGES };
  }

  /** A webhook URL the server may post to: https (http too where private addresses are allowed). */
  function checkUrl(path: string, value: string | undefined) {
    if (value === undefined) return;
    const url = new URL(value);
    if (url.protocol !== 'https:' && !ctx.config.webhooks.allowPrivate)
      throw invalid(path, 'must be an https:// URL');
    if (url.username || url.password) throw invalid(path, 'must not carry a user name or password');
  }

  const toResult = (channel: ConfigurableChannel, o: Outcome<string | null>): SendResult =>
    o.ok
      ? { status: 'delivered', ...(o.value ? { providerId: o.value } : {}) }
      : { status: 'failed', error: `${LABELS[channel]}: ${o.error}` };

  /** A LINE WORKS request with a fresh access token (one per message: decision 0022). */
  async function withLineWorksToken(
    c: LineWorksConfig,
    build: (token: string) => ChatRequest,
  ): Promise<Outcome<null>> {
    const token = await sendWithRetry(
      lineWorksTokenRequest(c, ctx.config.chat.lineWorksAuthUrl, ctx.now()),
      readLineWorksToken,
      retry,
    );
    if (!token.ok) return { ok: false, error: `token: ${token.error}` };
    return sendWithRetry(build(token.value), readLineWorksOk, retry);
  }

  /** Sends one notice through the channel's adapter. Never throws: a failure is a 'failed' result. */
  async function deliver(
    organizationId: string,
    channel: ChatChannel,
    notice: ChatNotice,
  ): Promise<SendResult> {
    try {
      if (channel === 'SLACK') {
        const c = await configOf(organizationId, 'SLACK');
        if (!c) return notSetUp(channel);
        return toResult(
          channel,
          await sendWithRetry(
            slackRequest(c, notice, ctx.config.chat.slackApiUrl),
            readSlackOk,
            retry,
          ),
        );
      }
      if (channel === 'TEAMS') {
        const c = await configOf(organizationId, 'TEAMS');
        if (!c) return notSetUp(channel);
        return toResult(channel, await sendWithRetry(teamsRequest(c, notice), readTeamsOk, retry));
      }
      const c = await configOf(organizationId, 'LINE_WORKS');
      if (!c) return notSetUp(channel);
      return toResult(
        channel,
        await withLineWorksToken(c, (token) =>
          lineWorksChannelRequest(c, notice, ctx.config.chat.lineWorksApiUrl, token),
        ),
      );
    } catch (err) {
      return {
        status: 'failed',
        error: `${LABELS[channel]}: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
  }

  async function validateLine(organizationId: string, text: string): Promise<SendResult> {
    const c = await configOf(organizationId, 'LINE');
    if (!c) return notSetUp('LINE');
    return toResult(
      'LINE',
      await sendWithRetry(
        lineValidateRequest(c, text, ctx.config.chat.lineApiUrl),
        () => ({ ok: true, value: null }),
        retry,
      ),
    );
  }

  const notSetUp = (channel: ConfigurableChannel): SendResult => ({
    status: 'failed',
    error: `${LABELS[channel]} is not set up for this organisation (/settings)`,
  });

  return {
    configOf,
    deliver,

    /** The chat channels the organisation has set up (a group's notice settings may name only these). */
    async configured(organizationId: string): Promise<Set<ChatChannel>> {
      return new Set(
        (await repo.list(organizationId)).flatMap((r) => (isChatChannel(r.kind) ? [r.kind] : [])),
      );
    },

    /**
     * A family member's LINE notice (decision 0024): pushed to the LINE user linked to their account in
     * this organisation, with 見ました, and the notification's retry key on every attempt (a timeout is
     * resent; LINE drops the duplicate).
     */
    async pushToFamily(
      organizationId: string,
      userId: string,
      text: string,
      notificationId: string,
    ): Promise<SendResult> {
      try {
        const c = await configOf(organizationId, 'LINE');
        if (!c) return notSetUp('LINE');
        const lineUserId = await repo.linkOf(organizationId, 'LINE', userId);
        if (!lineUserId)
          return { status: 'failed', error: 'LINE: this account is not linked to a LINE user' };
        return toResult(
          'LINE',
          await sendWithRetry(
            linePushRequest(c, lineUserId, text, notificationId, ctx.config.chat.lineApiUrl),
            readLineOk,
            { ...retry, idempotent: true },
          ),
        );
      } catch (err) {
        return {
          status: 'failed',
          error: `LINE: ${err instanceof Error ? err.message : String(err)}`,
        };
      }
    },

    /** The LINE official account's reply to a webhook event (free; never retried beyond the policy). */
    async replyOnLine(c: LineConfig, replyToken: string, text: string): Promise<void> {
      await sendWithRetry(
        lineReplyRequest(c, replyToken, text, ctx.config.chat.lineApiUrl),
        readLineOk,
        retry,
      );
    },

    /** The LINE WORKS bot's reply to one person (a link made, a press refused). */
    async replyOnLineWorks(c: LineWorksConfig, userId: string, text: string): Promise<void> {
      await withLineWorksToken(c, (token) =>
        lineWorksUserRequest(c, userId, text, ctx.config.chat.lineWorksApiUrl, token),
      );
    },

    async list(actor: Actor, organizationId: string): Promise<ChatChannelList> {
      await access.require(actor, 'chatChannel:read', 'organization', organizationId);
      const rows = await repo.list(organizationId);
      const channels: ChatChannelView[] = [];
      for (const row of rows) channels.push(await viewOf(row, await open(row)));
      return { channels };
    },

    async put(
      actor: Actor,
      organizationId: string,
      channel: ConfigurableChannel,
      body: ChatChannelBody,
    ): Promise<ChatChannelView> {
      await access.require(actor, 'chatChannel:manage', 'organization', organizationId);
      if (body.channel !== channel)
        throw invalid('body.channel', `must be ${channel}, the channel of the path`);
      const given = body as Record<string, unknown>;
      checkUrl(
        'body.webhookUrl',
        typeof given.webhookUrl === 'string' ? given.webhookUrl : undefined,
      );
      const before = await repo.find(organizationId, channel);
      const stored = before ? await open(before) : {};
      const secrets = {
        ...pick(stored, SECRET_FIELDS[channel]),
        ...pick(given, SECRET_FIELDS[channel]),
      };
      const settings = {
        ...pick(stored, PLAIN_FIELDS[channel]),
        ...pick(given, PLAIN_FIELDS[channel]),
      };
      const lacking = missing(channel, { ...settings, ...secrets });
      if (lacking) throw invalid('body', lacking);
      const secretHints = Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, hint(v)]));
      // Sealed before the transaction: the box may read its key through ctx.db (one connection on PGlite).
      const secretsSealed = await box.seal(JSON.stringify(secrets));
      await ctx.db.transaction(async (tx) => {
        await chatChannelsRepository(tx).save(
          {
            organizationId,
            kind: channel,
            settings,
            secretsSealed,
            secretHints,
            userId: actor.uid,
          },
          ctx.now(),
        );
        // The audit keeps what is not secret and which secrets changed (their hints), never a secret.
        await auditService(tx).record({
          kind: 'chatChannel.change',
          organizationId,
          actorId: actor.uid,
          targetId: `${organizationId}:${channel}`,
          before: before ? { settings: before.settings, secrets: before.secret_hints } : null,
          after: { settings, secrets: secretHints },
        });
      });
      const row = (await repo.find(organizationId, channel))!;
      return await viewOf(row, await open(row));
    },

    async remove(
      actor: Actor,
      organizationId: string,
      channel: ConfigurableChannel,
    ): Promise<void> {
      await access.require(actor, 'chatChannel:manage', 'organization', organizationId);
      await ctx.db.transaction(async (tx) => {
        const inTx = chatChannelsRepository(tx);
        const before = await inTx.find(organizationId, channel);
        if (!before || !(await inTx.remove(organizationId, channel)))
          throw notFound(`No ${LABELS[channel]} channel is set up for ${organizationId}`);
        await auditService(tx).record({
          kind: 'chatChannel.change',
          organizationId,
          actorId: actor.uid,
          targetId: `${organizationId}:${channel}`,
          before: { settings: before.settings, secrets: before.secret_hints },
          after: null,
        });
      });
    },

    /** One test message through the channel, in the notification log under the caller. */
    async test(actor: Actor, organizationId: string, channel: ConfigurableChannel) {
      await access.require(actor, 'chatChannel:manage', 'organization', organizationId);
      if (!(await repo.find(organizationId, channel)))
        throw notFound(`No ${LABELS[channel]} channel is set up for ${organizationId}`);
      const text = 'テスト送信です。このチャンネルにアラートが届きます。';
      const logged = await messageLogService(ctx.db).log(
        {
          channel,
          userId: actor.uid,
          organizationId,
          recipient: `chat:${channel}`,
          provider: CHAT_PROVIDER_NAMES[channel],
          text,
        },
        ctx.now(),
      );
      // LINE has no channel to post to (it tells family members): LINE's validation of a push checks the
      // token and sends nothing, so a test costs none of the plan's messages.
      const outcome =
        channel === 'LINE'
          ? await validateLine(organizationId, text)
          : await deliver(organizationId, channel, {
              title: '見守りコンソール',
              text,
              link: ctx.config.publicUrl,
              confirmAlertId: null,
            });
      await logged.settle(outcome, ctx.now());
      return { notificationId: logged.id, status: outcome.status, error: outcome.error ?? null };
    },
  };
}
