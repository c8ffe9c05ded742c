import type { Actor } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import type { AccessWhat } from './access-log-chain.js';
import { accessLogRepository } from './access-log.repository.js';

export interface AccessReader {
  actor: Actor;
  sessionId: string | null;
  apiTokenId: string | null;
  ip: string | null;
}

export function accessLogService(ctx: Pick<AppContext, 'db' | 'now'>) {
  return {
    /**
     * Records that `reader` was shown `what` of these people: one entry per organisation the
     * people belong to (one, unless a platform owner reads across organisations), in one
     * transaction. People not found (deleted) are filed under the reader's organisation.
     */
    async recordRead(reader: AccessReader, what: AccessWhat, personIds: readonly string[]) {
      const unique = [...new Set(personIds)].sort();
      if (unique.length === 0) return;
      const at = ctx.now();
      await ctx.db.transaction(async (tx) => {
        const rows = await tx.query<{ id: string; organization_id: string | null }>(
          `SELECT id, organization_id FROM users WHERE id = ANY($1::text[])`,
          [unique],
        );
        const orgOf = new Map(rows.map((r) => [r.id, r.organization_id]));
        const byOrg = new Map<string, string[]>();
        for (const id of unique) {
          const org = orgOf.get(id) ?? reader.actor.organizationId;
          if (!org) continue;
          byOrg.set(org, [...(byOrg.get(org) ?? []), id]);
        }
        const repo = accessLogRepository(tx);
        // Sorted, so two requests locking the same organisations lock them in the same order.
        for (const [organizationId, ids] of [...byOrg].sort(([a], [b]) => a.localeCompare(b))) {
          await repo.append({
            organizationId,
            actorId: reader.actor.uid,
            apiTokenId: reader.apiTokenId,
            sessionId: reader.sessionId,
            personIds: ids,
            what,
            ip: reader.ip,
            at,
          });
        }
      });
    },

    /**
     * Retention (docs/access-log.md): every organisation's entries older than `days` go, oldest
     * first, one organisation per transaction. Returns the entries deleted.
     */
    async purgeExpired(days: number): Promise<number> {
      const before = new Date(ctx.now().getTime() - days * 86_400_000);
      let deleted = 0;
      for (const org of await accessLogRepository(ctx.db).organizationsWithChains())
        deleted += await ctx.db.transaction((tx) =>
          accessLogRepository(tx).purgeBefore(org, before),
        );
      return deleted;
    },
  };
}
