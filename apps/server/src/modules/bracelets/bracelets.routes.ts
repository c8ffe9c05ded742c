import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  braceletView,
  deviceSetting,
  deviceSettingPatch,
  errorBody,
  isPairedQuery,
  isPairedResponse,
  linkGatewayBody,
  linkResponse,
  registerBraceletBody,
  uidParams,
  unlinkDeviceBody,
  unlinkGatewayBody,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { braceletsService } from './bracelets.service.js';

const tags = ['Fleet'];
const security = [{ bearer: [] }];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** Bracelets: register, pair (link to wearer and gateway), unlink, device setting. */
export const braceletsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const bracelets = braceletsService(ctx);

  app.post(
    '/v2/device',
    {
      config: { permission: 'bracelet:register' },
      schema: {
        tags,
        summary: 'Register a bracelet for an organisation (409 on a known serial number)',
        security,
        body: registerBraceletBody,
        response: { 201: braceletView, ...errors, 409: errorBody },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await bracelets.register(request.actor, request.body)),
  );

  app.post(
    '/v2/user/device/link/gateway',
    {
      config: { permission: 'bracelet:pair' },
      schema: {
        tags,
        summary:
          'Pair: link a bracelet to a wearer and a gateway (pending until the gateway reports it)',
        security,
        body: linkGatewayBody,
        response: { 200: linkResponse, ...errors },
      },
    },
    (request) => bracelets.linkGateway(request.actor, request.body),
  );

  app.post(
    '/v2/user/device/unlink/gateway',
    {
      config: { permission: 'bracelet:pair' },
      schema: {
        tags,
        summary: 'Detach a bracelet from its gateway',
        security,
        body: unlinkGatewayBody,
        response: { 200: linkResponse, ...errors },
      },
    },
    (request) => bracelets.unlinkGateway(request.actor, request.body.wearableId),
  );

  app.post(
    '/v2/user/device/unlink',
    {
      config: { permission: 'bracelet:pair' },
      schema: {
        tags,
        summary: 'Detach a bracelet from its wearer (their history stays theirs)',
        security,
        body: unlinkDeviceBody,
        response: { 200: linkResponse, ...errors },
      },
    },
    (request) => bracelets.unlink(request.actor, request.body.wearableId),
  );

  app.get(
    '/v2/device/isPairedWearable',
    {
      config: { permission: 'bracelet:read' },
      schema: {
        tags,
        summary: "Whether the wearer's bracelet has been reported by its gateway",
        security,
        querystring: isPairedQuery,
        response: { 200: isPairedResponse, ...errors },
      },
    },
    (request) => bracelets.isPaired(request.actor, request.query.targetUid),
  );

  app.get(
    '/v2/user/:uid/device/setting',
    {
      config: { permission: 'bracelet:read' },
      schema: {
        tags,
        summary:
          "The wearer's bracelet: name, duty cycle (pending or applied), battery, firmware, gateway",
        security,
        params: uidParams,
        response: { 200: deviceSetting, ...errors },
      },
    },
    (request) => bracelets.setting(request.actor, request.params.uid),
  );

  app.patch(
    '/v2/user/:uid/device/setting',
    {
      config: { permission: 'bracelet:pair' },
      schema: {
        tags,
        summary: 'Rename the bracelet or change its heart-rate duty cycle (1, 3, 5 or 10 minutes)',
        security,
        params: uidParams,
        body: deviceSettingPatch,
        response: { 200: deviceSetting, ...errors },
      },
    },
    (request) => bracelets.updateSetting(request.actor, request.params.uid, request.body),
  );
};
