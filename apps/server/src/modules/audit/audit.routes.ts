import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Actor, auditQuery, auditResponse, errorBody, PLATFORM } from '@wearable/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { accessService } from '../../access/access.service.js';
import { listAudit } from './audit.repository.js';

/** GET /v2/audit: organisation owners read their organisation's log; platform staff any (or all). */
export const auditRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
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

  app.get(
    '/v2/audit',
    {
      config: { permission: 'audit:read' },
      schema: {
        tags: ['Audit'],
        summary:
          'Changes to people, roles, groups, sign-in and alert settings: who, when, before and after (newest first, paged)',
        security: [{ bearer: [] }],
        querystring: auditQuery,
        response: {
          200: auditResponse,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    async (request) => {
      const q: z.output<typeof auditQuery> = request.query;
      const organizationId = await organizationOf(request.actor, q.clientId);
      const { entries, total } = await listAudit(ctx.db, { ...q, organizationId });
      return { entries, total, page: q.page };
    },
  );
};
