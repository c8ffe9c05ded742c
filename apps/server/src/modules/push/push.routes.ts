import type { FastifyPluginAsync } from 'fastify';
import {
  addPushSubscription,
  getPushKey,
  listPushSubscriptions,
  removePushSubscription,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { pushService } from './push.service.js';

/** /user/info's Web Push section: the server's key and one's own subscribed browsers. */
export const pushRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const push = pushService(ctx);
  serve(app, getPushKey, () => push.publicKey());
  serve(app, listPushSubscriptions, async (req) => ({
    subscriptions: await push.list(req.actor, req.sessionId),
  }));
  serve(app, addPushSubscription, (req) =>
    push.subscribe(req.actor, req.sessionId, req.body, req.headers['user-agent']),
  );
  serve(app, removePushSubscription, (req) => push.remove(req.actor, req.params.subscriptionId));
};
