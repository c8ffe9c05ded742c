import type { FastifyPluginAsync } from 'fastify';
import {
  changeMemberRole,
  linkManagedGroup,
  listMembers,
  removeMember,
  removeMemberByUid,
  setManagedGroups,
  unlinkManagedGroup,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { membersService } from './members.service.js';

/** The organisation's staff: list, role change, removal, group managers' groups. */
export const membersRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const members = membersService(ctx);
  serve(app, listMembers, (req) => members.listMembers(req.actor, req.query));
  serve(app, changeMemberRole, (req) => members.changeRole(req.actor, req.body));
  serve(app, removeMember, (req) => members.remove(req.actor, req.query.uid, req.query.clientId));
  serve(app, removeMemberByUid, (req) => members.remove(req.actor, req.params.uid));
  serve(app, setManagedGroups, (req) =>
    members.setGroups(req.actor, req.params.uid, req.body.groupIds),
  );
  serve(app, linkManagedGroup, (req) =>
    members.linkGroup(req.actor, req.body.uid, req.body.groupId),
  );
  serve(app, unlinkManagedGroup, (req) =>
    members.unlinkGroup(req.actor, req.params.uid, req.body.groupId),
  );
};
