import { createHash, randomInt } from 'node:crypto';
import {
  type Actor,
  CHAT_LINK_CODE_MINUTES,
  type ChatLinkKind,
  type ChatLinksResponse,
  type LinkableChatChannel,
  LINKABLE_CHAT_CHANNELS,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { ApiError, notFound } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { chatChannelsRepository } from './chat-channels.repository.js';

/** Link codes: eight characters without the look-alikes (0/O, 1/I/L), typed into a chat by hand. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const LINK_CODE_PATTERN = /\b([A-HJKMNP-Z2-9]{8})\b/;
export const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** The organisation this person belongs to (the permission lets only an organisation's staff here). */
function organizationOf(actor: Actor): string {
  // The contract's permission (chatLink:manage) holds only for organisation roles; a platform actor has none.
  if (!actor.organizationId) throw new ApiError(403, 'FORBIDDEN', 'Belongs to no organisation');
  return actor.organizationId;
}

/**
 * One's own link to a Slack or LINE WORKS user (the account page): a one-time code, sent to the
 * LINE WORKS bot or typed as `/wearable link <code>` in Slack, links the chat user who sent it; the
 * link can be removed. Every link and unlink is audited.
 */
export function chatLinksService(ctx: AppContext) {
  const repo = chatChannelsRepository(ctx.db);
  return {
    async list(actor: Actor): Promise<ChatLinksResponse> {
      const organizationId = organizationOf(actor);
      const [links, channels] = await Promise.all([
        repo.linksOf(actor.uid),
        repo.list(organizationId),
      ]);
      return {
        // A family member's LINE link is theirs (family notices), not a staff chat link.
        links: links.flatMap((l) =>
          l.kind === 'LINE'
            ? []
            : [
                {
                  channel: l.kind,
                  chatUserId: l.chat_user_id,
                  linkedAt: new Date(l.created_at).toISOString(),
                },
              ],
        ),
        available: LINKABLE_CHAT_CHANNELS.filter((c) => channels.some((x) => x.kind === c)),
      };
    },

    async createCode(actor: Actor): Promise<{ code: string; expiresAt: string }> {
      return this.codeFor(actor.uid, organizationOf(actor));
    },

    /** A code for this account in this organisation (a family member's: the watched wearer's organisation). */
    async codeFor(
      userId: string,
      organizationId: string,
    ): Promise<{ code: string; expiresAt: string }> {
      const code = Array.from(
        { length: 8 },
        () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)],
      ).join('');
      const now = ctx.now();
      const expiresAt = new Date(now.getTime() + CHAT_LINK_CODE_MINUTES * 60_000);
      await repo.insertCode(hashCode(code), userId, organizationId, expiresAt, now);
      return { code, expiresAt: expiresAt.toISOString() };
    },

    async remove(actor: Actor, channel: LinkableChatChannel): Promise<void> {
      const organizationId = organizationOf(actor);
      await ctx.db.transaction(async (tx) => {
        const chatUserId = await chatChannelsRepository(tx).unlink(actor.uid, channel);
        if (!chatUserId) throw notFound(`No ${channel} user is linked to this account`);
        await auditService(tx).record({
          kind: 'chatLink.change',
          organizationId,
          actorId: actor.uid,
          targetId: actor.uid,
          before: { channel, chatUserId },
          after: null,
        });
      });
    },

    /**
     * A chat user sent a code (the callbacks, signature checked): links them to the code's account of this
     * organisation. The account's id, or null when the code is unknown, used or expired.
     */
    async redeem(
      organizationId: string,
      channel: ChatLinkKind,
      chatUserId: string,
      code: string,
    ): Promise<string | null> {
      return ctx.db.transaction(async (tx) => {
        const inTx = chatChannelsRepository(tx);
        const userId = await inTx.takeCode(hashCode(code), organizationId, ctx.now());
        if (!userId) return null;
        await inTx.link(organizationId, channel, chatUserId, userId, ctx.now());
        await auditService(tx).record({
          kind: 'chatLink.change',
          organizationId,
          actorId: userId,
          targetId: userId,
          before: null,
          after: { channel, chatUserId },
        });
        return userId;
      });
    },
  };
}
