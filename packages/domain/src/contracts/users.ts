import { userLookupQuery, userLookupResponse } from './account.js';
import { endpointsOf } from './endpoint.js';
import { termsAgreement, termsOfUseBody, userInfo } from './user.js';

const users = endpointsOf({ tags: ['Identity'], errors: [400, 401] });

export const getUserInfo = users({
  method: 'GET',
  path: '/v2/user',
  permission: 'self:read',
  // The terms modal shows from this answer (agreedTermsOfUse).
  allowBeforeTerms: true,
  summary: 'The signed-in user',
  responses: { 200: userInfo },
  errors: [401],
});

export const agreeToTerms = users({
  method: 'POST',
  path: '/v2/user/termsOfUse',
  permission: 'self:update',
  allowBeforeTerms: true,
  summary: 'Agree to the terms of use',
  body: termsOfUseBody,
  responses: { 200: termsAgreement },
});

export const lookupUsers = users({
  method: 'GET',
  path: '/v2/users',
  permission: 'user:lookup',
  summary: 'Find any user across organisations by name, email or phone (platform staff), paged',
  query: userLookupQuery,
  responses: { 200: userLookupResponse },
  errors: [400, 401, 403],
});
