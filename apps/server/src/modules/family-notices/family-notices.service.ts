import {
  type Actor,
  type AlertLevel,
  type FamilyNoticeChannel,
  type FamilyNoticesResponse,
  type FamilyNoticeView,
  isFamilyAlertLevel,
} from '@wearable/domain';
import { accessService, notFoundError } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { conflict, notFound } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { chatLinksService } from '../chat-channels/chat-links.service.js';
import { chatChannelsService } from '../chat-channels/chat-channels.service.js';
import { type FamilyRecipientRow, familyNoticesRepository } from './family-notices.repository.js';

export type { FamilyRecipientRow } from './family-notices.repository.js';

/**
 * A family member's choice to be told of a watched wearer's EMERGENCY and CRITICAL alerts by SMS
 * or mail (issue 34), and, for the notifier, who chose it. The wearers are the ones the access
 * service lets the actor reach (scopeOf: the linked ones), so another family's wearer is a 404.
 */
export function familyNoticesService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const repo = familyNoticesRepository(ctx.db);

  /**
   * The organisation whose LINE official account the family member links to: the first (by id) of
   * their watched wearers' organisations that set LINE up; and the LINE user linked there.
   */
  async function lineOf(
    actor: Actor,
  ): Promise<{ organizationId: string | null; lineUserId: string | null }> {
    const reached = await access.permitted(actor, 'familyNotice:manage', 'wearer', [
      ...actor.linkedWearerIds,
    ]);
    const orgs = [...new Set([...reached.values()].map((at) => at.organizationId))].sort();
    const channels = chatChannelsService(ctx);
    for (const organizationId of orgs) {
      if (!(await channels.configOf(organizationId, 'LINE'))) continue;
      return {
        organizationId,
        lineUserId: (await repo.lineUserOf(actor.uid, organizationId)) ?? null,
      };
    }
    return { organizationId: null, lineUserId: null };
  }

  return {
    async list(actor: Actor): Promise<FamilyNoticesResponse> {
      const reached = await access.permitted(actor, 'familyNotice:manage', 'wearer', [
        ...actor.linkedWearerIds,
      ]);
      const [wearers, contact, line] = await Promise.all([
        repo.listOf(actor.uid, [...reached.keys()]),
        repo.contactOf(actor.uid),
        lineOf(actor),
      ]);
      return {
        wearers,
        phoneNumber: contact.phone_number,
        email: contact.email,
        pushSubscriptions: contact.push_subscriptions,
        line: { available: line.organizationId !== null, linked: line.lineUserId !== null },
      };
    },

    /** A one-time code to send to the organisation's LINE official account (409 when it has none). */
    async lineCode(actor: Actor): Promise<{ code: string; expiresAt: string }> {
      const { organizationId } = await lineOf(actor);
      if (!organizationId)
        throw conflict(
          "The wearer's organisation has no LINE official account set up",
          'LINE_NOT_SET_UP',
        );
      return chatLinksService(ctx).codeFor(actor.uid, organizationId);
    },

    /** Removes the LINE link; the wearers told by LINE are told by nothing until chosen again. */
    async unlinkLine(actor: Actor): Promise<void> {
      const removed = await ctx.db.transaction(async (tx) => {
        const gone = await familyNoticesRepository(tx).unlinkLine(actor.uid);
        if (!gone) return false;
        await familyNoticesRepository(tx).dropChannel(actor.uid, 'LINE');
        // Audited as the staff's chat links are (chat-links.service).
        await auditService(tx).record({
          kind: 'chatLink.change',
          organizationId: gone.organization_id,
          actorId: actor.uid,
          targetId: actor.uid,
          before: { channel: 'LINE', chatUserId: gone.chat_user_id },
          after: null,
        });
        return true;
      });
      if (!removed) throw notFound('No LINE user is linked to this account');
    },

    async update(
      actor: Actor,
      wearerId: string,
      channel: FamilyNoticeChannel | null,
    ): Promise<FamilyNoticeView> {
      const at = await access.require(actor, 'familyNotice:manage', 'wearer', wearerId);
      // What the contract cannot say: the channel needs the account's own number or address.
      const contact = await repo.contactOf(actor.uid);
      if (channel === 'SMS' && !contact.phone_number)
        throw conflict(
          'Your account has no phone number to send SMS to; add one first',
          'NO_PHONE_NUMBER',
        );
      if (channel === 'EMAIL' && !contact.email)
        throw conflict('Your account has no mail address; add one first', 'NO_EMAIL');
      if (channel === 'PUSH' && contact.push_subscriptions === 0)
        throw conflict(
          'No browser of your account receives push notices; turn them on on /user/info first',
          'NO_PUSH_SUBSCRIPTION',
        );
      if (channel === 'LINE' && !(await repo.lineUserOf(actor.uid, at.organizationId)))
        throw conflict(
          'Your account is not linked to LINE; send the code from /user/info to the LINE official account first',
          'NO_LINE_LINK',
        );
      const saved = await ctx.db.transaction((tx) =>
        familyNoticesRepository(tx).save(
          actor.uid,
          wearerId,
          at.organizationId,
          channel,
          ctx.now(),
        ),
      );
      // The link went away between the session's start and now.
      if (!saved) throw notFoundError('wearer', wearerId);
      const [view] = await repo.listOf(actor.uid, [wearerId]);
      if (!view) throw notFoundError('wearer', wearerId);
      return view;
    },

    /** Who is told of this alert: the family members who chose to be, for its levels only. */
    async recipientsOf(alert: {
      wearer_id: string | null;
      organization_id: string;
      level: AlertLevel;
    }): Promise<FamilyRecipientRow[]> {
      // A device no wearer holds has no family.
      if (alert.wearer_id === null || !isFamilyAlertLevel(alert.level)) return [];
      return repo.recipientsOf(alert.wearer_id, alert.organization_id);
    },
  };
}
