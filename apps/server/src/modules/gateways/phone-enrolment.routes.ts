import type { FastifyPluginAsync } from 'fastify';
import {
  choosePhoneCarrier,
  createPhoneEnrolment,
  enrolPhone,
  listPhoneWearers,
  reportPhoneDeliveryFailure,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { phoneCarrierService } from './phone-carrier.service.js';
import { phoneEnrolmentService } from './phone-enrolment.service.js';

/** Enrolling a phone as a SMARTPHONE gateway: staff create a one-time code, the phone exchanges it. */
export const phoneEnrolmentRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const enrolments = phoneEnrolmentService(ctx);
  const carriers = phoneCarrierService(ctx);
  serve(app, createPhoneEnrolment, async (req, reply) =>
    reply.code(201).send(await enrolments.create(req.actor, req.params.gatewayId, req.body)),
  );
  serve(app, enrolPhone, (req) => enrolments.enrol(req.body.code, req.ip));
  // An enrolled phone's calls: its gateway credential in the Authorization header, as for batches.
  const phoneOf = (req: { headers: { authorization?: string | undefined }; ip: string }) => ({
    authorization: req.headers.authorization,
    address: req.ip,
  });
  serve(app, listPhoneWearers, (req) => carriers.wearers(phoneOf(req)));
  serve(app, choosePhoneCarrier, (req) => carriers.choose(phoneOf(req), req.body.wearerId));
  serve(app, reportPhoneDeliveryFailure, async (req) => {
    await carriers.reportFailure(phoneOf(req), req.body);
    return null;
  });
};
