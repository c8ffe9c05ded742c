import type { FastifyPluginAsync } from 'fastify';
import {
  createClient,
  getClient,
  getClientOverview,
  listClients,
  updateClient,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { organizationsService } from './organizations.service.js';

/** Organisations: list, one, its overview; create and rename (platform staff / owners). */
export const organizationsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const organizations = organizationsService(ctx);
  serve(app, listClients, async (req) => ({
    clients: await organizations.listClients(req.actor),
  }));
  serve(app, getClient, (req) => organizations.clientInfo(req.actor, req.params.id));
  serve(app, createClient, (req) => organizations.create(req.actor, req.body));
  serve(app, updateClient, (req) => organizations.update(req.actor, req.params.id, req.body));
  serve(app, getClientOverview, (req) => organizations.overview(req.actor, req.params.id));
};
