import {
  bareEnrolPasskey,
  bareEnrolTotp,
  barePasskeySignIn,
  bareStartPasskeyEnrolment,
  bareStartPasskeySignIn,
  bareStartPasskeyStep,
  bareVerifyPasskeyStep,
  bareExchangeOidcCode,
  bareStartOidc,
  bareVerifyTotp,
} from '@wearable/domain';
import { callResult, type CallInput } from '../../../lib/call';

// The second step of a sign-in and social sign-in: calls made before there are tokens.
export const verifyTotp = (body: { challenge: string; code: string }) =>
  callResult(bareVerifyTotp, { body });
export const enrolTotp = (body: { challenge: string }) => callResult(bareEnrolTotp, { body });

// Passkeys before there are tokens: signing in with one, a second step answered or enrolled with one.
export const passkeySignInOptions = () => callResult(bareStartPasskeySignIn);
export const signInWithPasskey = (body: CallInput<typeof barePasskeySignIn>['body']) =>
  callResult(barePasskeySignIn, { body });
export const passkeyStepOptions = (body: { challenge: string }) =>
  callResult(bareStartPasskeyStep, { body });
export const verifyPasskeyStep = (body: CallInput<typeof bareVerifyPasskeyStep>['body']) =>
  callResult(bareVerifyPasskeyStep, { body });
export const passkeyEnrolmentOptions = (body: { challenge: string }) =>
  callResult(bareStartPasskeyEnrolment, { body });
export const enrolPasskey = (body: CallInput<typeof bareEnrolPasskey>['body']) =>
  callResult(bareEnrolPasskey, { body });
export const exchangeOidcCode = (body: { code: string }) =>
  callResult(bareExchangeOidcCode, { body });

/** Where the browser goes to start social sign-in (a full page load, not a fetch). */
export const OIDC_START_URL = bareStartOidc.path;
