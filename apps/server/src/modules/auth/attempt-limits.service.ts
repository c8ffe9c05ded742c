import type { AppContext } from '../../context.js';
import { authRepository } from './auth.repository.js';
import { clientKey, requestLimits } from './request-limits.js';

export { clientKey };

/**
 * Tries counted per key within SIGN_IN_WINDOW, for other modules' public endpoints (a phone's
 * enrolment code): `take` counts first and throws 429 TOO_MANY_ATTEMPTS beyond the maximum, in one
 * atomic upsert; `release` gives back a try that worked.
 */
export const attemptLimitsService = (ctx: AppContext) =>
  requestLimits(authRepository(ctx.db), ctx.config.signInWindow);
