import { type Actor, can, type SignInSettings } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { forbidden } from '../../errors.js';
import { organizationsService } from './organizations.service.js';
import { signInSettingsRepository } from './sign-in-settings.repository.js';

/**
 * How an organisation's people sign in: today whether TOTP is required. Reading needs the
 * organisation visible (else 404); changing it is managing the organisation (else 403).
 * Permission once the access layer lands: `signInSettings:update` (read: `organization:read`).
 */
export function signInSettingsService(ctx: AppContext) {
  const organizations = organizationsService(ctx);
  const repo = signInSettingsRepository(ctx.db);

  async function read(actor: Actor, organizationId: string): Promise<SignInSettings> {
    const org = await organizations.readableOrganization(actor, organizationId);
    return (await repo.find(org.id)) ?? { requireTotp: false };
  }

  return {
    read,

    async update(
      actor: Actor,
      organizationId: string,
      patch: SignInSettings,
    ): Promise<SignInSettings> {
      const org = await organizations.readableOrganization(actor, organizationId);
      if (!can(actor, 'manage', { kind: 'organization', organizationId: org.id })) {
        throw forbidden('Only the organisation’s owner may change how its people sign in');
      }
      // Takes effect at each person's next sign-in; sessions already open run to their end.
      await repo.update(org.id, patch);
      return read(actor, org.id);
    },
  };
}
