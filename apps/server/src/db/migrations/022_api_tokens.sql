-- Personal API tokens for scripts (issue 19 item 2). Only the SHA-256 of a token is kept; the token
-- itself is shown once. A token acts as its owner with the intersection of the owner's current
-- role and its scopes (packages/domain/src/access/permissions.ts, NEVER_FOR_API_TOKENS).
CREATE TABLE api_tokens (
  id               text PRIMARY KEY,
  user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  organization_id  text REFERENCES organizations(id) ON DELETE CASCADE,
  name             text NOT NULL,
  token_hash       text NOT NULL UNIQUE,
  scopes           jsonb NOT NULL,
  created_at       timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,
  last_used_at     timestamptz,
  revoked_at       timestamptz
);
CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, created_at);
