import type { FastifyPluginAsync } from 'fastify';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  resendWebhookDelivery,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhook,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { webhooksService } from './webhooks.service.js';

/** An organisation's webhook endpoints, their secrets (shown once) and delivery log. */
export const webhooksRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const hooks = webhooksService(ctx);
  serve(app, listWebhooks, (req) => hooks.list(req.actor, req.params.organizationId));
  serve(app, createWebhook, async (req, reply) =>
    reply.code(201).send(await hooks.create(req.actor, req.params.organizationId, req.body)),
  );
  serve(app, updateWebhook, (req) => hooks.update(req.actor, req.params.webhookId, req.body));
  serve(app, deleteWebhook, (req) => hooks.remove(req.actor, req.params.webhookId));
  serve(app, rotateWebhookSecret, (req) => hooks.rotate(req.actor, req.params.webhookId));
  serve(app, sendTestWebhook, async (req, reply) =>
    reply.code(202).send(await hooks.sendTest(req.actor, req.params.webhookId)),
  );
  serve(app, listWebhookDeliveries, (req) =>
    hooks.deliveries(req.actor, req.params.webhookId, req.query.page, req.query.pageSize),
  );
  serve(app, resendWebhookDelivery, async (req, reply) =>
    reply
      .code(202)
      .send(await hooks.resend(req.actor, req.params.webhookId, req.params.deliveryId)),
  );
};
