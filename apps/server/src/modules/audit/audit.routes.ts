import type { FastifyPluginAsync } from 'fastify';
import { type Actor, listAuditEntries, PLATFORM } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { accessService } from '../../access/access.service.js';
import { auditRepository } from './audit.repository.js';

/** GET /v2/audit: organisation owners read their organisation's log; platform staff any (or all). */
export const auditRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const access = accessService(ctx.db);

  async function organizationOf(
    actor: Actor,
    clientId: string | undefined,
  ): Promise<string | undefined> {
    if (clientId !== undefined) {
      await access.require(actor, 'audit:read', 'organization', clientId);
      return clientId;
    }
    if (access.may(actor, 'audit:read', PLATFORM)) return undefined;
    // An owner without clientId reads their own organisation's log.
    await access.require(actor, 'audit:read', 'organization', actor.organizationId ?? '-');
    return actor.organizationId ?? undefined;
  }

  serve(app, listAuditEntries, async (req) => {
    const q = req.query;
    const organizationId = await organizationOf(req.actor, q.clientId);
    const { entries, total } = await auditRepository(ctx.db).listAudit({ ...q, organizationId });
    return { entries, total, page: q.page };
  });
};
