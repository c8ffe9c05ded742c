import type { confirmEmailChange } from './account.js';
import { bareEndpoint } from './endpoint.js';
import type { inspectInvitation, registerByInvitation } from './invitations.js';
import type {
  enrolPasskey,
  passkeySignIn,
  startPasskeyEnrolment,
  startPasskeySignIn,
  startPasskeyStep,
  verifyPasskeyStep,
} from './passkeys.js';
import type { choosePhoneCarrier, listPhoneWearers, reportPhoneDeliveryFailure } from './phone.js';
import type {
  enrolTotp,
  exchangeOidcCode,
  getSignInMethods,
  phoneSignIn,
  refreshSession,
  requestEmailLink,
  requestPasswordReset,
  resetPassword,
  requestPhoneCode,
  signIn,
  signOut,
  startOidc,
  verifyEmailLink,
  verifyTotp,
} from './sign-in.js';
import type { getUserInfo } from './users.js';

/*
 * The endpoints the signed-out pages and the API client call, without their schemas: importing a
 * schema pulls zod (25 kB gzip) into /login (docs/web.md, "What /login loads"). Only types are
 * imported above, so this file costs the bundle a few strings. Each stands for the endpoint named
 * in its type: the compiler refuses another method or path, or a public one not called so, and
 * bare-endpoints.test.ts holds every one to its endpoint's id.
 */

// The API client: refreshing the tokens, and the user loaded once signed in.
export const bareRefreshSession = bareEndpoint<typeof refreshSession>(
  'POST',
  '/v2/auth/refresh',
  'public',
);
export const bareGetUserInfo = bareEndpoint<typeof getUserInfo>('GET', '/v2/user');
export const bareSignOut = bareEndpoint<typeof signOut>('POST', '/v2/auth/signOut');

// /login and its methods.
export const bareSignIn = bareEndpoint<typeof signIn>('POST', '/v2/auth/signIn', 'public');
export const bareGetSignInMethods = bareEndpoint<typeof getSignInMethods>(
  'GET',
  '/v2/auth/methods',
  'public',
);
export const bareRequestEmailLink = bareEndpoint<typeof requestEmailLink>(
  'POST',
  '/v2/auth/emailLink',
  'public',
);
export const bareVerifyEmailLink = bareEndpoint<typeof verifyEmailLink>(
  'POST',
  '/v2/auth/emailLink/verify',
  'public',
);
export const bareRequestPasswordReset = bareEndpoint<typeof requestPasswordReset>(
  'POST',
  '/v2/auth/passwordReset',
  'public',
);
export const bareResetPassword = bareEndpoint<typeof resetPassword>(
  'POST',
  '/v2/auth/passwordReset/confirm',
  'public',
);
export const bareRequestPhoneCode = bareEndpoint<typeof requestPhoneCode>(
  'POST',
  '/v2/auth/phoneCode',
  'public',
);
export const barePhoneSignIn = bareEndpoint<typeof phoneSignIn>(
  'POST',
  '/v2/auth/phoneSignIn',
  'public',
);
export const bareStartOidc = bareEndpoint<typeof startOidc>('GET', '/v2/auth/oidc/start', 'public');
export const bareExchangeOidcCode = bareEndpoint<typeof exchangeOidcCode>(
  'POST',
  '/v2/auth/oidc/exchange',
  'public',
);
export const bareEnrolTotp = bareEndpoint<typeof enrolTotp>(
  'POST',
  '/v2/auth/totp/enrol',
  'public',
);
export const bareVerifyTotp = bareEndpoint<typeof verifyTotp>(
  'POST',
  '/v2/auth/totp/verify',
  'public',
);

// Passkeys on /login: signing in with one, and a sign-in's second step answered or enrolled with one.
export const bareStartPasskeySignIn = bareEndpoint<typeof startPasskeySignIn>(
  'POST',
  '/v2/auth/passkey/signIn/options',
  'public',
);
export const barePasskeySignIn = bareEndpoint<typeof passkeySignIn>(
  'POST',
  '/v2/auth/passkey/signIn',
  'public',
);
export const bareStartPasskeyStep = bareEndpoint<typeof startPasskeyStep>(
  'POST',
  '/v2/auth/passkey/verify/options',
  'public',
);
export const bareVerifyPasskeyStep = bareEndpoint<typeof verifyPasskeyStep>(
  'POST',
  '/v2/auth/passkey/verify',
  'public',
);
export const bareStartPasskeyEnrolment = bareEndpoint<typeof startPasskeyEnrolment>(
  'POST',
  '/v2/auth/passkey/enrol/options',
  'public',
);
export const bareEnrolPasskey = bareEndpoint<typeof enrolPasskey>(
  'POST',
  '/v2/auth/passkey/enrol',
  'public',
);

// /verify (an invitation's link) and /verify-email (an email change's link).
export const bareInspectInvitation = bareEndpoint<typeof inspectInvitation>(
  'POST',
  '/v2/user/invitation/inspect',
  'public',
);
export const bareRegisterByInvitation = bareEndpoint<typeof registerByInvitation>(
  'POST',
  '/v2/user/register',
  'public',
);
export const bareConfirmEmailChange = bareEndpoint<typeof confirmEmailChange>(
  'POST',
  '/v2/auth/emailChange/confirm',
  'public',
);

// The /phone app (its first load carries no zod either): a shared phone's person, undelivered SOS.
export const bareListPhoneWearers = bareEndpoint<typeof listPhoneWearers>(
  'GET',
  '/v2/phone/wearers',
  'public',
);
export const bareChoosePhoneCarrier = bareEndpoint<typeof choosePhoneCarrier>(
  'PUT',
  '/v2/phone/carrier',
  'public',
);
export const bareReportPhoneDeliveryFailure = bareEndpoint<typeof reportPhoneDeliveryFailure>(
  'POST',
  '/v2/phone/deliveryFailure',
  'public',
);
