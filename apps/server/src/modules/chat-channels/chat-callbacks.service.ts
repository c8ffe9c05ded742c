import { createHash } from 'node:crypto';
import type { LinkableChatChannel } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { forbidden } from '../../errors.js';
import { alertsService } from '../alerts/alerts.service.js';
import { sessionsService } from '../auth/sessions.service.js';
import { chatChannelsRepository } from './chat-channels.repository.js';
import { chatChannelsService } from './chat-channels.service.js';
import { chatFetch } from './chat-http.js';
import { chatLinksService, LINK_CODE_PATTERN } from './chat-links.service.js';
import { confirmedAlertOf } from './chat-notice.js';
import { isLineWorksSignatureValid } from './line-works.js';
import { isLineSignatureValid, seenNotificationOf } from './line.js';
import { isSlackSignatureValid, SLACK_CONFIRM_ACTION } from './slack.js';

/** What the person who pressed or typed is told (only they see it). */
export const CHAT_REPLIES = {
  confirmed: '確認しました。エスカレーションを止めました。',
  alreadyConfirmed: 'このアラートは確認済みです。',
  unlinked:
    'このチャットのアカウントはコンソールと連携されていません。コンソールのアカウント画面で連携コードを発行し、送ってください。',
  notAllowed: 'このアラートを確認する権限がありません。',
  linked: 'コンソールのアカウントと連携しました。アラートの「確認」が使えます。',
  badCode:
    '連携コードが正しくないか、期限が切れています。アカウント画面で新しいコードを発行してください。',
  lineLinked: 'LINEと連携しました。見守りの通知の受け取り方で「LINE」を選べます。',
  lineSeen:
    'ありがとうございます。「見ました」をお伝えしました。(アラートへの対応はスタッフが行います)',
  lineNotYours: 'この通知はあなたの LINE に送られたものではないため、記録できませんでした。',
  lineUnknown: '連携コードを送ってください(マイページの「LINEと連携」で発行できます)。',
  help: '使い方: /wearable link <連携コード>(コードはコンソールのアカウント画面で発行します)',
} as const;

const SLACK_RESPONSE_HOST = /^https:\/\/hooks\.slack\.com\//;

/** A press on 確認 by a chat user: confirmed as the linked account, or refused with a reason. */
async function confirmAs(
  ctx: AppContext,
  organizationId: string,
  channel: LinkableChatChannel,
  chatUserId: string,
  alertId: string,
): Promise<string> {
  const userId = await chatChannelsRepository(ctx.db).linkedUser(
    organizationId,
    channel,
    chatUserId,
  );
  if (!userId) return CHAT_REPLIES.unlinked;
  const actor = await sessionsService(ctx).findUserActor(userId);
  if (!actor) return CHAT_REPLIES.unlinked;
  // The alerts module's own confirmation: the same audit, the same escalation stop, the actor's scope.
  const { results } = await alertsService(ctx).confirm(actor, [alertId]);
  const result = results[0]?.result;
  return result === 'confirmed'
    ? CHAT_REPLIES.confirmed
    : result === 'already_confirmed'
      ? CHAT_REPLIES.alreadyConfirmed
      : CHAT_REPLIES.notAllowed;
}

/** Handled already (the same signed body seen before): a replay does nothing twice. */
const isReplay = async (ctx: AppContext, service: string, raw: string) =>
  !(await chatChannelsRepository(ctx.db).firstSight(
    createHash('sha256').update(`${service}\n${raw}`).digest('hex'),
    ctx.now(),
  ));

/**
 * The chat services' callbacks (no session: the organisation's signing secret proves the caller). A
 * wrong or missing signature, or a channel not set up: 403 and nothing done.
 */
export function chatCallbacksService(ctx: AppContext) {
  const channels = chatChannelsService(ctx);
  const links = chatLinksService(ctx);

  return {
    /**
     * Slack: a block_actions payload (the 確認 button; the answer goes to its response_url, seen only by
     * the presser) or the slash command `/wearable link <code>` (answered in the reply).
     */
    async slack(
      organizationId: string,
      raw: string,
      headers: { signature: string | undefined; timestamp: string | undefined },
      body: {
        payload?: string | undefined;
        command?: string | undefined;
        text?: string | undefined;
        user_id?: string | undefined;
      },
    ): Promise<{ response_type?: 'ephemeral'; text?: string }> {
      const c = await channels.configOf(organizationId, 'SLACK');
      if (!c?.signingSecret || !isSlackSignatureValid(c.signingSecret, headers, raw, ctx.now()))
        throw forbidden(
          'The request is not signed by Slack (X-Slack-Signature)',
          'INVALID_SIGNATURE',
        );
      if (await isReplay(ctx, 'slack', raw)) return {};
      if (body.command !== undefined) {
        const code = LINK_CODE_PATTERN.exec((body.text ?? '').toUpperCase())?.[1];
        if (!code || !body.user_id) return { response_type: 'ephemeral', text: CHAT_REPLIES.help };
        const linked = await links.redeem(organizationId, 'SLACK', body.user_id, code);
        return {
          response_type: 'ephemeral',
          text: linked ? CHAT_REPLIES.linked : CHAT_REPLIES.badCode,
        };
      }
      let payload: {
        type?: string;
        user?: { id?: string };
        actions?: { action_id?: string; value?: string }[];
        response_url?: string;
      };
      try {
        payload = JSON.parse(body.payload ?? '{}') as typeof payload;
      } catch {
        return {};
      }
      const action = payload.actions?.find((a) => a.action_id === SLACK_CONFIRM_ACTION);
      const alertId = confirmedAlertOf(action?.value);
      if (payload.type !== 'block_actions' || !alertId || !payload.user?.id) return {};
      const text = await confirmAs(ctx, organizationId, 'SLACK', payload.user.id, alertId);
      const url = payload.response_url;
      if (url && (SLACK_RESPONSE_HOST.test(url) || ctx.config.webhooks.allowPrivate)) {
        await chatFetch(
          {
            url,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, text }),
          },
          ctx.config.chat.timeoutMs,
        );
      }
      return {};
    },

    /**
     * LINE (decision 0024): a family member's text message with a link code, or their 見ました postback,
     * which is recorded on that notification (never a confirmation of the alert); answered by a reply.
     * A redelivered event (the same webhookEventId) does nothing twice.
     */
    async line(
      organizationId: string,
      raw: string,
      signature: string | undefined,
      body: {
        events: {
          type: string;
          webhookEventId?: string | undefined;
          replyToken?: string | undefined;
          source?: { userId?: string | undefined } | undefined;
          message?: { type?: string | undefined; text?: string | undefined } | undefined;
          postback?: { data?: string | undefined } | undefined;
        }[];
      },
    ): Promise<Record<string, never>> {
      const c = await channels.configOf(organizationId, 'LINE');
      if (!c || !isLineSignatureValid(c.channelSecret, signature, raw))
        throw forbidden(
          'The request is not signed by LINE (X-Line-Signature)',
          'INVALID_SIGNATURE',
        );
      const repo = chatChannelsRepository(ctx.db);
      for (const event of body.events) {
        const lineUserId = event.source?.userId;
        if (!lineUserId) continue;
        if (await isReplay(ctx, 'line', event.webhookEventId ?? JSON.stringify(event))) continue;
        let reply: string | null = null;
        if (event.type === 'postback') {
          const notificationId = seenNotificationOf(event.postback?.data);
          if (!notificationId) continue;
          const userId = await repo.linkedUser(organizationId, 'LINE', lineUserId);
          reply =
            userId && (await repo.markSeen(notificationId, userId, ctx.now()))
              ? CHAT_REPLIES.lineSeen
              : CHAT_REPLIES.lineNotYours;
        } else if (event.type === 'message' && event.message?.type === 'text') {
          const code = LINK_CODE_PATTERN.exec((event.message.text ?? '').toUpperCase())?.[1];
          reply = code
            ? (await links.redeem(organizationId, 'LINE', lineUserId, code))
              ? CHAT_REPLIES.lineLinked
              : CHAT_REPLIES.badCode
            : CHAT_REPLIES.lineUnknown;
        }
        if (reply && event.replyToken) await channels.replyOnLine(c, event.replyToken, reply);
      }
      return {};
    },

    /** LINE WORKS: a postback (確認) or a text message (a link code); the bot answers the sender. */
    async lineWorks(
      organizationId: string,
      raw: string,
      signature: string | undefined,
      body: {
        type: string;
        source?: { userId?: string | undefined } | undefined;
        content?: { text?: string | undefined } | undefined;
        data?: string | undefined;
      },
    ): Promise<void> {
      const c = await channels.configOf(organizationId, 'LINE_WORKS');
      if (!c || !isLineWorksSignatureValid(c.botSecret, signature, raw))
        throw forbidden(
          'The request is not signed by the bot (X-WORKS-Signature)',
          'INVALID_SIGNATURE',
        );
      const userId = body.source?.userId;
      if (!userId || (await isReplay(ctx, 'line-works', raw))) return;
      let reply: string | null = null;
      const alertId = body.type === 'postback' ? confirmedAlertOf(body.data) : null;
      if (alertId) reply = await confirmAs(ctx, organizationId, 'LINE_WORKS', userId, alertId);
      else if (body.type === 'message') {
        const code = LINK_CODE_PATTERN.exec((body.content?.text ?? '').toUpperCase())?.[1];
        if (code) {
          const linked = await links.redeem(organizationId, 'LINE_WORKS', userId, code);
          reply = linked ? CHAT_REPLIES.linked : CHAT_REPLIES.badCode;
        }
      }
      if (reply) await channels.replyOnLineWorks(c, userId, reply);
    },
  };
}
