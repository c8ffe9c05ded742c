import type { FastifyPluginAsync } from 'fastify';
import { agreeToTerms, getUserInfo, lookupUsers } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { usersService } from './users.service.js';

/** GET /v2/user, POST /v2/user/termsOfUse, GET /v2/users (/users). */
export const usersRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const users = usersService(ctx);

  serve(app, getUserInfo, (req) => users.userInfo(req.actor, { demo: req.isDemo }));
  serve(app, agreeToTerms, (req) => users.agreeToTerms(req.actor, req.body.version));
  serve(app, lookupUsers, (req) => users.lookup(req.actor, req.query));
};
