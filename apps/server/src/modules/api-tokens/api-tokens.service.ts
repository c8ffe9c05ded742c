import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type Actor,
  type ApiTokenList,
  type CreateApiTokenBody,
  type CreatedApiToken,
  tokenScopesFor,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { BUS_EVENTS } from '../../bus/events.js';
import { ApiError, notFound } from '../../errors.js';
import { auditService } from '../audit/audit.service.js';
import { apiTokensRepository } from './api-tokens.repository.js';

/** Every API token starts so: the auth plugin tells it from a session's access token by it. */
export const API_TOKEN_PREFIX = 'wct_';

export const hashApiToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

const invalid = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);

/**
 * Personal API tokens: made, listed and revoked by their owner (staff) signed in to the console,
 * never through a token (`apiToken:manage` is in NEVER_FOR_API_TOKENS). Each change is audited.
 */
export function apiTokensService(ctx: AppContext) {
  return {
    async list(actor: Actor): Promise<ApiTokenList> {
      return {
        tokens: await apiTokensRepository(ctx.db).listOf(actor.uid),
        grantableScopes: tokenScopesFor(actor),
      };
    },

    async create(actor: Actor, body: CreateApiTokenBody): Promise<CreatedApiToken> {
      const grantable = new Set(tokenScopesFor(actor));
      const refused = body.scopes.filter((s) => !grantable.has(s));
      if (refused.length) {
        throw invalid('body.scopes', `${refused.join(', ')} may not be given to a token by you`);
      }
      const scopes = [...new Set(body.scopes)].sort();
      const now = ctx.now();
      const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const view = await ctx.db.transaction(async (tx) => {
        const created = await apiTokensRepository(tx).insert({
          id: randomUUID(),
          userId: actor.uid,
          organizationId: actor.organizationId,
          name: body.name,
          tokenHash: hashApiToken(token),
          scopes,
          createdAt: now,
          expiresAt: new Date(now.getTime() + body.expiresInDays * 86_400_000),
        });
        await auditService(tx).record({
          organizationId: actor.organizationId,
          actorId: actor.uid,
          kind: 'apiToken.create',
          targetId: created.id,
          after: { name: created.name, scopes, expiresAt: created.expiresAt },
        });
        return created;
      });
      return { ...view, token };
    },

    async revoke(actor: Actor, tokenId: string): Promise<void> {
      const now = ctx.now();
      const revoked = await ctx.db.transaction(async (tx) => {
        const row = await apiTokensRepository(tx).revoke(actor.uid, tokenId, now);
        if (row && row.revokedAt === now.toISOString()) {
          await auditService(tx).record({
            organizationId: actor.organizationId,
            actorId: actor.uid,
            kind: 'apiToken.revoke',
            targetId: tokenId,
            before: { name: row.name },
          });
        }
        return row;
      });
      if (!revoked) throw notFound(`API token ${tokenId} not found`, 'API_TOKEN_NOT_FOUND');
      // Every server forgets who the token belonged to now, not at its cache's expiry.
      ctx.bus.emit(BUS_EVENTS.sessionsRevoked, { userId: actor.uid, sessionIds: [] });
    },
  };
}
