import { z } from 'zod';
import { PERMISSION_ROLES, type Permission } from '../access/permissions.js';
import { writtenText } from './heat-rule.js';
import { id } from './common.js';

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
