import type { Actor, SignInSettings } from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { auditService } from '../audit/audit.service.js';
import { signInSettingsRepository } from './sign-in-settings.repository.js';

/**
 * How an organisation's people sign in: today whether TOTP is required. Reading needs
 * `organization:read`, changing it `organization:update` (the access service: 404 / 403).
 */
export function signInSettingsService(ctx: AppContext) {
  const access = accessService(ctx.db);
  const repo = signInSettingsRepository(ctx.db);

  async function read(actor: Actor, organizationId: string): Promise<SignInSettings> {
    await access.require(actor, 'organization:read', 'organization', organizationId);
    return (await repo.find(organizationId)) ?? { requireTotp: false };
  }

  return {
    read,

    async update(
      actor: Actor,
      organizationId: string,
      patch: SignInSettings,
    ): Promise<SignInSettings> {
      await access.require(actor, 'organization:update', 'organization', organizationId);
      // Takes effect at each person's next sign-in; sessions already open run to their end.
      await ctx.db.transaction(async (tx) => {
        const inTx = signInSettingsRepository(tx);
        const before = (await inTx.find(organizationId)) ?? { requireTotp: false };
        await inTx.update(organizationId, patch);
        await auditService(tx).record({
          organizationId,
          actorId: actor.uid,
          kind: 'signInSettings.update',
          targetId: organizationId,
          before,
          after: patch,
        });
      });
      return read(actor, organizationId);
    },
  };
}
