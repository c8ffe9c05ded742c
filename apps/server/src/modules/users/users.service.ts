import {
  type Actor,
  CURRENT_TERMS_VERSION,
  type UserInfo,
  type UserLookupResponse,
} from '@wearable/domain';
import { accessService } from '../../access/access.service.js';
import type { AppContext } from '../../context.js';
import { ApiError, unauthorized } from '../../errors.js';
import { userLookupRepository } from './user-lookup.repository.js';
import { usersRepository } from './users.repository.js';

const byName = new Intl.Collator('ja');

/** The signed-in user's own record (GET /v2/user, the terms agreement) and the lookup of anyone (/users). */
export function usersService(ctx: AppContext) {
  const repo = usersRepository(ctx.db);
  const cache = ctx.identityCache;
  return {
    /** In the demo the terms modal is off, so the demo owner counts as having agreed. */
    async userInfo(actor: Actor, opts: { demo: boolean }): Promise<UserInfo> {
      const row = await cache.get(`user-info:${actor.uid}`, () =>
        repo.findUserInfo(actor.uid, CURRENT_TERMS_VERSION),
      );
      if (!row) throw unauthorized('The session has ended; sign in again', 'INVALID_TOKEN');
      const devices = [...(row.devices ?? [])].sort((a, b) => byName.compare(a.name, b.name));
      return {
        name: row.name,
        devices,
        gatewayId: row.gatewayId,
        linkedUids: [...actor.linkedWearerIds],
        mail: row.mail,
        mailVerified: row.mailVerified,
        role: row.role,
        uid: row.uid,
        agreedTermsOfUse: opts.demo || row.agreedTermsOfUse,
        mediromOrganizationId: row.organizationId,
      };
    },

    /** Whether the user agreed to the terms in force (cached like the identity; an agreement empties it). */
    hasAgreedToCurrentTerms(uid: string): Promise<boolean> {
      return cache.get(`terms:${uid}`, () => repo.hasAgreedToTerms(uid, CURRENT_TERMS_VERSION));
    },

    async agreeToTerms(
      actor: Actor,
      version: string,
    ): Promise<{ version: string; agreedAt: string }> {
      // Only the terms in force can be agreed to; an old or invented version would not count.
      if (version !== CURRENT_TERMS_VERSION) {
        throw new ApiError(
          400,
          'UNKNOWN_TERMS_VERSION',
          `body.version: the current terms are ${CURRENT_TERMS_VERSION}`,
          [{ path: 'body.version', message: `must be ${CURRENT_TERMS_VERSION}` }],
        );
      }
      const agreedAt = await repo.recordTermsAgreement(actor.uid, version, ctx.now());
      return { version, agreedAt: agreedAt.toISOString() };
    },

    /** Anyone with a console account, across organisations, by name, address or number (platform staff). */
    async lookup(
      actor: Actor,
      query: { q?: string; page: number; pageSize: number },
    ): Promise<UserLookupResponse> {
      accessService(ctx.db).requirePlatform(actor, 'user:lookup');
      const { q, page, pageSize } = query;
      return {
        ...(await userLookupRepository(ctx.db).lookupUsers(
          q || undefined,
          pageSize,
          (page - 1) * pageSize,
        )),
        page,
        pageSize,
      };
    },
  };
}
