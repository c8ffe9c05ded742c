import type { FastifyPluginAsync } from 'fastify';
import { createGroup, deleteGroup, listGroups, moveWearers, renameGroup } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { groupsService } from './groups.service.js';

/** Groups (/settings/groups, /groups) and the wearers in them. */
export const groupsRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const groups = groupsService(ctx);
  serve(app, createGroup, (req) => groups.create(req.actor, req.body));
  serve(app, renameGroup, (req) => groups.rename(req.actor, req.params.groupId, req.body.name));
  serve(app, deleteGroup, (req) => groups.remove(req.actor, req.params.groupId));
  serve(app, listGroups, async (req) => ({
    groups: await groups.liveStates(req.actor, req.params.clientId),
  }));
  serve(app, moveWearers, (req) =>
    groups.moveWearers(req.actor, req.params.groupId, req.body.uids),
  );
};
