import { z } from 'zod';
import { PERMISSION_ROLES, type Permission } from '../access/permissions.js';
import { writtenText } from './heat-rule.js';
import { id } from './common.js';
import { BEARER_ERRORS, endpointsOf } from './endpoint.js';
import { personOkResponse } from './people.js';

const PERMISSIONS = Object.keys(PERMISSION_ROLES) as [Permission, ...Permission[]];

/** An API token lives at most a year. */
export const API_TOKEN_MAX_DAYS = 365;

/** POST /v2/user/apiTokens: a personal API token for scripts. */
export const createApiTokenBody = z.strictObject({
  name: writtenText(100),
  /** Days until it stops working (1..365). */
  expiresInDays: z.number().int().min(1).max(API_TOKEN_MAX_DAYS),
  /** Permissions it may use: within the owner's role, never NEVER_FOR_API_TOKENS. */
  scopes: z.array(z.enum(PERMISSIONS)).min(1).max(PERMISSIONS.length),
});
export type CreateApiTokenBody = z.infer<typeof createApiTokenBody>;

export const apiTokenView = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(PERMISSIONS)),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiTokenView = z.infer<typeof apiTokenView>;

/** The answer to a creation: the token itself, shown this once (only its hash is kept). */
export const createdApiToken = apiTokenView.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiToken>;

export const apiTokenList = z.object({
  tokens: z.array(apiTokenView),
  /** What this user may put on a new token. */
  grantableScopes: z.array(z.enum(PERMISSIONS)),
});
export type ApiTokenList = z.infer<typeof apiTokenList>;

export const apiTokenParams = z.object({ tokenId: id });

const apiTokens = endpointsOf({ tags: ['API tokens'], errors: BEARER_ERRORS });

export const listApiTokens = apiTokens({
  method: 'GET',
  path: '/v2/user/apiTokens',
  permission: 'apiToken:manage',
  summary: "One's API tokens (never the tokens themselves) and the scopes one may give a new one",
  responses: { 200: apiTokenList },
});

export const createApiToken = apiTokens({
  method: 'POST',
  path: '/v2/user/apiTokens',
  permission: 'apiToken:manage',
  summary:
    'A new API token (shown once): acts as its owner within its scopes, at most a year; never makes tokens or changes people',
  body: createApiTokenBody,
  responses: { 201: createdApiToken },
});

export const revokeApiToken = apiTokens({
  method: 'DELETE',
  path: '/v2/user/apiTokens/{tokenId}',
  permission: 'apiToken:manage',
  summary: 'Revokes one of one’s API tokens at once, on every server',
  params: apiTokenParams,
  responses: { 200: personOkResponse },
});
