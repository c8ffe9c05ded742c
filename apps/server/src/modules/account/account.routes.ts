import type { FastifyPluginAsync } from 'fastify';
import {
  changePassword,
  confirmEmailChange,
  endAllSessions,
  endSession,
  getAccount,
  listSessions,
  requestEmailChange,
  requestPasswordReset,
  resetPassword,
  sendPhoneCode,
  verifyPhone,
} from '@wearable/domain';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/serve.js';
import { accountService } from './account.service.js';
import { passwordResetService } from './password-reset.service.js';

/** /user/info: one's own account, for every role (self:read / self:update). */
export const accountRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const account = accountService(ctx);

  serve(app, getAccount, (req) => account.view(req.actor));
  serve(app, sendPhoneCode, (req) => account.sendPhoneCode(req.actor, req.body));
  serve(app, verifyPhone, (req) => account.verifyPhone(req.actor, req.body));
  serve(app, requestEmailChange, (req) => account.requestEmailChange(req.actor, req.body));
  serve(app, confirmEmailChange, (req) => account.confirmEmailChange(req.body.token));
  serve(app, changePassword, (req) => account.changePassword(req.actor, req.sessionId, req.body));
  serve(app, listSessions, async (req) => ({
    sessions: await account.sessions(req.actor, req.sessionId),
  }));
  serve(app, endSession, (req) => account.endSession(req.actor, req.params.sessionId));
  serve(app, endAllSessions, (req) => account.endAllSessions(req.actor));

  // "パスワードを忘れた場合": public, before there is a session.
  const reset = passwordResetService(ctx);
  serve(app, requestPasswordReset, (req) => reset.request(req.body, req.ip));
  serve(app, resetPassword, (req) => reset.reset(req.body));

  // The client (User-Agent) of every session a sign-in or refresh issues, for the list above.
  app.addHook('onSend', async (request, reply, payload) => {
    if (
      !request.routeOptions.config.public ||
      reply.statusCode !== 200 ||
      typeof payload !== 'string'
    )
      return payload;
    if (!payload.includes('"refreshToken"')) return payload;
    const userAgent = request.headers['user-agent'];
    if (!userAgent) return payload;
    try {
      const token = (JSON.parse(payload) as { refreshToken?: unknown }).refreshToken;
      if (typeof token === 'string') await account.recordClient(token, userAgent);
    } catch (err) {
      request.log.warn({ err }, 'could not record the session client');
    }
    return payload;
  });
};
// The onSend hook applies to the sign-in routes registered elsewhere.
Object.assign(accountRoutes, { [Symbol.for('skip-override')]: true });
