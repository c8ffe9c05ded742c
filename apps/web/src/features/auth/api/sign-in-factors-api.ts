import {
  bareEnrolTotp,
  bareExchangeOidcCode,
  bareStartOidc,
  bareVerifyTotp,
} from '@wearable/domain';
import { callResult } from '../../../lib/call';

// The second step of a sign-in and social sign-in: calls made before there are tokens.
export const verifyTotp = (body: { challenge: string; code: string }) =>
  callResult(bareVerifyTotp, { body });
export const enrolTotp = (body: { challenge: string }) => callResult(bareEnrolTotp, { body });
export const exchangeOidcCode = (body: { code: string }) =>
  callResult(bareExchangeOidcCode, { body });

/** Where the browser goes to start social sign-in (a full page load, not a fetch). */
export const OIDC_START_URL = bareStartOidc.path;
