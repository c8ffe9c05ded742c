import type { Actor, SignInSettings, SignInSettingsPatch } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { auditService } from '../audit/audit.service.js';
import {
  type StoredSignInSettings,
  signInSettingsRepository,
} from './sign-in-settings.repository.js';

const DAY_MS = 86_400_000;
const NONE: StoredSignInSettings = {
  requireTotp: false,
  requireSecondFactor: false,
  secondFactorGraceDays: 0,
  secondFactorRequiredSince: null,
};

/** The settings as the API shows them: the grace period's end instead of its start. */
function viewOf(stored: StoredSignInSettings): SignInSettings {
  const since = stored.secondFactorRequiredSince;
  return {
    requireTotp: stored.requireTotp,
    requireSecondFactor: stored.requireSecondFactor,
    secondFactorGraceDays: stored.secondFactorGraceDays,
    secondFactorGraceEndsAt:
      stored.requireSecondFactor && since
        ? new Date(since.getTime() + stored.secondFactorGraceDays * DAY_MS).toISOString()
        : null,
  };
}

/**
 * How an organisation's people sign in: whether TOTP is required of everyone, and whether a second factor
 * (a passkey or TOTP) is required of its staff after a grace period (decision 0019). Reading needs
 * `organization:read`, changing it `organization:update` (the access service: 404 / 403).
 */
export function signInSettingsService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const repo = signInSettingsRepository(ctx.db);

  async function read(actor: Actor, organizationId: string): Promise<SignInSettings> {
    await access.require(actor, 'organization:read', 'organization', organizationId);
    return viewOf((await repo.find(organizationId)) ?? NONE);
  }

  return {
    read,

    async update(
      actor: Actor,
      organizationId: string,
      patch: SignInSettingsPatch,
    ): Promise<SignInSettings> {
      await access.require(actor, 'organization:update', 'organization', organizationId);
      // Takes effect at each person's next sign-in; sessions already open run to their end.
      await ctx.db.transaction(async (tx) => {
        const inTx = signInSettingsRepository(tx);
        const stored = (await inTx.find(organizationId)) ?? NONE;
        const requireSecondFactor = patch.requireSecondFactor ?? stored.requireSecondFactor;
        const next: StoredSignInSettings = {
          requireTotp: patch.requireTotp ?? stored.requireTotp,
          requireSecondFactor,
          secondFactorGraceDays: patch.secondFactorGraceDays ?? stored.secondFactorGraceDays,
          // The grace period starts when the requirement is turned on; changing its length keeps the start.
          secondFactorRequiredSince: !requireSecondFactor
            ? null
            : stored.requireSecondFactor
              ? stored.secondFactorRequiredSince
              : ctx.now(),
        };
        await inTx.update(organizationId, next);
        await auditService(tx).record({
          organizationId,
          actorId: actor.uid,
          kind: 'signInSettings.update',
          targetId: organizationId,
          before: viewOf(stored),
          after: viewOf(next),
        });
      });
      return read(actor, organizationId);
    },
  };
}
