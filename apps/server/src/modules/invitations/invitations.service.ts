import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type Actor,
  INVITATION_DAYS,
  type InvitationPreview,
  type inviteBody,
  mayGrant,
  type PendingInvitation,
  placementOf,
  type registerBody,
  type SignInResult,
} from '@wearable/domain';
import type { z } from 'zod';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { authService } from '../auth/auth.service.js';
import { hashPassword } from '../auth/auth.service.js';
import { invitationMail } from './invitation-mail.js';
import { type InvitationRow, invitationsRepository } from './invitations.repository.js';

type Invite = z.output<typeof inviteBody>;
type Register = z.output<typeof registerBody>;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const fieldError = (status: number, code: string, path: string, message: string) =>
  new ApiError(status, code, `${path}: ${message}`, [{ path, message }]);
const linkError = (status: number, code: string, message: string) =>
  new ApiError(status, code, message);

/** Where the invitation places the person, once the inviter may do it there. */
interface Target {
  organizationId: string | null;
  groupIds: string[];
  wearerId: string | null;
}

/**
 * Invitations: the inviter picks a role they may grant (never above their own) and where it applies; the
 * invitee gets a single-use link for 7 days (only its SHA-256 is kept) and registers through it.
 */
export function invitationsService(ctx: AppContext) {
  const repo = invitationsRepository(ctx.db);
  const access = accessService(ctx.db);

  async function authorize(actor: Actor, body: Invite): Promise<Target> {
    if (!mayGrant(actor, body.role)) {
      throw new ApiError(
        403,
        'ROLE_NOT_GRANTABLE',
        `body.role: your role may not grant ${body.role}`,
      );
    }
    switch (placementOf(body.role)) {
      case 'platform':
        access.requirePlatform(actor, 'member:invite');
        return { organizationId: null, groupIds: [], wearerId: null };
      case 'family': {
        const wearer = await access.require(actor, 'family:manage', 'wearer', body.wearerId ?? '');
        return {
          organizationId: wearer.organizationId,
          groupIds: [],
          wearerId: body.wearerId ?? null,
        };
      }
      case 'organization': {
        const organizationId = body.clientId ?? actor.organizationId;
        if (!organizationId)
          throw fieldError(
            400,
            'VALIDATION_FAILED',
            'body.clientId',
            'required for platform staff',
          );
        await access.require(actor, 'member:invite', 'organization', organizationId);
        const groups = await access.requireAll(actor, 'member:invite', 'group', body.groupIds);
        for (const [groupId, at] of groups) {
          if (at.organizationId !== organizationId) {
            throw fieldError(
              400,
              'VALIDATION_FAILED',
              'body.groupIds',
              `group ${groupId} is not in organisation ${organizationId}`,
            );
          }
        }
        return { organizationId, groupIds: [...new Set(body.groupIds)], wearerId: null };
      }
      case 'none':
        throw fieldError(400, 'VALIDATION_FAILED', 'body.role', `${body.role} is not invited`);
    }
  }

  async function send(actor: Actor, body: Invite, target: Target): Promise<PendingInvitation> {
    const email = body.email.trim().toLowerCase();
    if (await repo.accountExists(email)) {
      throw fieldError(409, 'EMAIL_TAKEN', 'body.email', 'this address already has an account');
    }
    const now = ctx.now();
    const token = randomBytes(32).toString('base64url');
    const row: InvitationRow = {
      id: `inv-${randomUUID()}`,
      email,
      role: body.role,
      ...target,
      name: body.name ?? null,
      locale: body.locale ?? 'ja',
      invitedBy: actor.uid,
      expiresAt: new Date(now.getTime() + INVITATION_DAYS * 86_400_000),
      usedAt: null,
      replacedAt: null,
    };
    try {
      await ctx.db.transaction(async (tx) => {
        const txRepo = invitationsRepository(tx);
        await txRepo.replaceLive(email, now);
        await txRepo.insert({ ...row, tokenHash: hashToken(token), createdAt: now });
        await auditService(tx).record({
          organizationId: row.organizationId,
          actorId: actor.uid,
          kind: 'member.invite',
          targetId: row.id,
          after: { email, role: row.role, groupIds: row.groupIds, wearerId: row.wearerId },
        });
      });
    } catch (error) {
      // Another invitation to the same address committed first (the live-address index).
      if ((error as { code?: string }).code === '23505') {
        throw fieldError(
          409,
          'INVITATION_CONFLICT',
          'body.email',
          'another invitation to this address is being sent; try again',
        );
      }
      throw error;
    }
    const names = await repo.names(row);
    const mail = invitationMail({
      locale: row.locale,
      publicUrl: ctx.config.publicUrl,
      name: row.name,
      inviterName: names.inviterName ?? '',
      organizationName: names.organizationName,
      wearerName: names.wearerName,
      role: row.role,
      token,
      days: INVITATION_DAYS,
    });
    // Not awaited: the outcome is in the notification log; the inviter need not wait on SMTP.
    ctx.mail
      .send({ email, userId: null, organizationId: row.organizationId }, mail)
      .catch(() => undefined);
    return {
      id: row.id,
      email,
      role: row.role,
      groups: [],
      wearerId: row.wearerId,
      invitedBy: names.inviterName,
      expiresAt: row.expiresAt.toISOString(),
      expired: false,
    };
  }

  /** A live invitation by its link, or the reason it cannot be used. */
  async function live(token: string): Promise<InvitationRow> {
    const row = await repo.findByHash(hashToken(token));
    if (!row)
      throw linkError(
        404,
        'INVITATION_UNKNOWN',
        'This invitation link is not known; ask for a new invitation',
      );
    if (row.usedAt)
      throw linkError(410, 'INVITATION_USED', 'This invitation was already used; sign in instead');
    if (row.replacedAt)
      throw linkError(
        410,
        'INVITATION_REPLACED',
        'A newer invitation was sent to this address; use the newest mail',
      );
    if (row.expiresAt.getTime() <= ctx.now().getTime()) {
      throw linkError(
        410,
        'INVITATION_EXPIRED',
        `This invitation expired (links last ${INVITATION_DAYS} days); ask for a new one`,
      );
    }
    return row;
  }

  return {
    async invite(actor: Actor, body: Invite): Promise<PendingInvitation> {
      return send(actor, body, await authorize(actor, body));
    },

    /** A new link for a live invitation (the old link stops working), checked as a new invitation. */
    async resend(actor: Actor, invitationId: string): Promise<PendingInvitation> {
      const row = await repo.findLive(invitationId);
      if (!row)
        throw new ApiError(404, 'INVITATION_NOT_FOUND', `Invitation ${invitationId} not found`);
      const body: Invite = {
        email: row.email,
        role: row.role,
        groupIds: row.groupIds,
        locale: row.locale,
        ...(row.wearerId
          ? { wearerId: row.wearerId }
          : row.organizationId
            ? { clientId: row.organizationId }
            : {}),
        ...(row.name ? { name: row.name } : {}),
      };
      // Someone who may not invite there learns nothing of the invitation: the same 404.
      const target = await authorize(actor, body).catch((error: unknown) => {
        if (error instanceof ApiError && error.statusCode === 404) {
          throw new ApiError(404, 'INVITATION_NOT_FOUND', `Invitation ${invitationId} not found`);
        }
        throw error;
      });
      return send(actor, body, target);
    },

    async inspect(token: string): Promise<InvitationPreview> {
      const row = await live(token);
      const names = await repo.names(row);
      return {
        email: row.email,
        role: row.role,
        ...names,
        name: row.name,
        locale: row.locale,
        expiresAt: row.expiresAt.toISOString(),
      };
    },

    /** Completes the invitation in one transaction, then signs the person in as any sign-in does. */
    async register(body: Register): Promise<SignInResult> {
      const row = await live(body.token);
      if (body.email.trim().toLowerCase() !== row.email) {
        throw linkError(
          409,
          'INVITATION_OTHER_ADDRESS',
          'body.email: this invitation was sent to another address',
        );
      }
      const uid = `usr-${randomUUID()}`;
      const passwordHash = await hashPassword(body.password);
      const now = ctx.now();
      await ctx.db.transaction(async (tx) => {
        const txRepo = invitationsRepository(tx);
        if (!(await txRepo.consume(row.id, now))) {
          throw linkError(
            410,
            'INVITATION_USED',
            'This invitation was already used; sign in instead',
          );
        }
        if (await txRepo.accountExists(row.email)) {
          throw fieldError(
            409,
            'EMAIL_TAKEN',
            'body.email',
            'this address already has an account; sign in instead',
          );
        }
        await txRepo.createAccount({
          uid,
          invitation: row,
          name: body.name,
          passwordHash,
          locale: body.locale ?? row.locale,
          termsVersion: body.termsVersion,
          at: now,
        });
        // The new person is the actor of their own registration; the inviter is in the invitation's entry.
        await auditService(tx).record({
          organizationId: row.organizationId,
          actorId: uid,
          kind: 'member.register',
          targetId: uid,
          after: {
            email: row.email,
            role: row.role,
            groupIds: row.groupIds,
            wearerId: row.wearerId,
            invitationId: row.id,
          },
        });
      });
      return authService(ctx).completeSignIn(uid);
    },

    /** Live staff invitations of an organisation, for its staff list. */
    listForOrganization: (organizationId: string, q: string | undefined) =>
      repo.listLive(organizationId, q, ctx.now()),
  };
}
