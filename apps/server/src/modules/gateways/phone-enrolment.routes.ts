import type { FastifyPluginAsync } from 'fastify';
import { createPhoneEnrolment, enrolPhone } from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { phoneEnrolmentService } from './phone-enrolment.service.js';

/** Enrolling a phone as a SMARTPHONE gateway: staff create a one-time code, the phone exchanges it. */
export const phoneEnrolmentRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const enrolments = phoneEnrolmentService(ctx);
  serve(app, createPhoneEnrolment, async (req, reply) =>
    reply.code(201).send(await enrolments.create(req.actor, req.params.gatewayId)),
  );
  serve(app, enrolPhone, (req) => enrolments.enrol(req.body.code, req.ip));
};
