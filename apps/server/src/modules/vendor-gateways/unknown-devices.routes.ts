import type { FastifyPluginAsync } from 'fastify';
import { listUnknownDevices, registerUnknownDevice } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { unknownDevicesService } from './unknown-devices.service.js';

/** Staff endpoints of vendor gateways: the "heard, not registered" list and its one-click registration. */
export const unknownDevicesRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const unknown = unknownDevicesService(ctx);
  serve(app, listUnknownDevices, (req) => unknown.list(req.actor, req.params.gatewayId));
  serve(app, registerUnknownDevice, async (req, reply) =>
    reply
      .code(201)
      .send(await unknown.register(req.actor, req.params.gatewayId, req.params.deviceId)),
  );
};
