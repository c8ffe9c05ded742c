import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { forbidden } from '../../errors.js';
import { deliveryRepository } from './delivery.repository.js';
import { isTwilioSignatureValid } from './twilio-signature.js';
import { statusOf } from './twilio.provider.js';

export const TWILIO_STATUS_PATH = '/v2/notifications/twilio/status';

const statusBody = z
  .object({
    MessageSid: z.string().max(64).optional(),
    MessageStatus: z.string().max(32).optional(),
    CallSid: z.string().max(64).optional(),
    CallStatus: z.string().max(32).optional(),
    ErrorCode: z.string().max(16).optional(),
    ErrorMessage: z.string().max(500).optional(),
  })
  .loose();

/** Form values as Twilio sent them: one string per name, or every value of a repeated name. */
function formParams(raw: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const had = out[key];
    out[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return out;
}

/**
 * POST /v2/notifications/twilio/status: Twilio's status callback for the messages and calls we asked
 * it to send (StatusCallback). Not a user route: no bearer token, so it is declared `public`, and the
 * caller is proven by X-Twilio-Signature over PUBLIC_URL + the path and the form parameters, with the
 * auth token. No token configured, no or a wrong signature: 403 and nothing recorded.
 */
export const twilioCallbacksRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  // The signature covers the parameters as sent: keep the raw form and parse it here (this plugin only).
  const rawForms = new WeakMap<object, Record<string, string | string[]>>();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (request, body, done) => {
      const params = formParams(body as string);
      rawForms.set(request, params);
      const flat = Object.fromEntries(
        Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
      );
      done(null, flat);
    },
  );

  app.post(
    TWILIO_STATUS_PATH,
    {
      config: { public: true },
      schema: {
        tags: ['Notifications'],
        summary:
          "Twilio's delivery report of a message or call; verified by X-Twilio-Signature (403 otherwise)",
        body: statusBody,
        response: { 204: z.null().describe('Recorded (or no attempt has that sid)') },
      },
    },
    async (request, reply) => {
      // After the body's shape is checked (a malformed one is a 400 naming the field, like every route).
      const token = ctx.config.twilio?.authToken;
      const header = request.headers['x-twilio-signature'];
      const params = rawForms.get(request) ?? {};
      const url = `${ctx.config.publicUrl}${request.url}`;
      if (
        !token ||
        !isTwilioSignatureValid(token, typeof header === 'string' ? header : undefined, url, params)
      ) {
        throw forbidden(
          'The request is not signed by Twilio (X-Twilio-Signature)',
          'INVALID_SIGNATURE',
        );
      }
      const body = request.body;
      const sid = body.MessageSid ?? body.CallSid;
      const providerStatus = body.MessageStatus ?? body.CallStatus;
      if (sid && providerStatus) {
        const error = body.ErrorCode
          ? `Twilio ${body.ErrorCode}${body.ErrorMessage ? `: ${body.ErrorMessage}` : ''}`
          : null;
        await ctx.db.transaction((tx) =>
          deliveryRepository(tx).recordProviderStatus('twilio', {
            providerId: sid,
            status: statusOf(providerStatus),
            providerStatus,
            error,
            at: ctx.now(),
          }),
        );
      }
      return reply.code(204).send(null);
    },
  );
};
