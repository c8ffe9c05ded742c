-- TOTP second factor, an organisation's requirement of it, sign-in challenges and OpenID Connect
-- sign-in state (docs/decisions/0007-oidc-linking-and-totp.md).

-- An organisation may require every account that belongs to it to use a TOTP second factor.
ALTER TABLE organizations ADD COLUMN require_totp boolean NOT NULL DEFAULT false;

-- One TOTP secret per account, encrypted (AES-256-GCM). enabled_at IS NULL: set up, not yet
-- confirmed with a code. last_step: the 30-second step of the last accepted code (no replay).
CREATE TABLE user_totp (
  user_id           text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret_encrypted  text NOT NULL,
  enabled_at        timestamptz,
  last_step         bigint,
  created_at        timestamptz NOT NULL
);

-- Short-lived, single-use steps between a first sign-in step and the tokens: a TOTP challenge,
-- a TOTP enrolment the organisation requires, or the one-time code an OIDC callback hands the
-- web app. Only the SHA-256 of the value is kept.
CREATE TABLE sign_in_challenges (
  token_hash  text PRIMARY KEY,
  user_id     text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose     text NOT NULL CHECK (purpose IN ('TOTP_REQUIRED','TOTP_ENROLMENT_REQUIRED','OIDC_EXCHANGE')),
  attempts    integer NOT NULL DEFAULT 0,
  expires_at  timestamptz NOT NULL,
  created_at  timestamptz NOT NULL
);
CREATE INDEX sign_in_challenges_expires_idx ON sign_in_challenges (expires_at);

-- An OpenID Connect sign-in in progress: the SHA-256 of its state, the browser binding cookie's
-- SHA-256, the nonce and the PKCE verifier. Deleted when the callback uses it.
CREATE TABLE oidc_sign_in_states (
  state_hash     text PRIMARY KEY,
  browser_hash   text NOT NULL,
  nonce          text NOT NULL,
  code_verifier  text NOT NULL,
  expires_at     timestamptz NOT NULL,
  created_at     timestamptz NOT NULL
);
CREATE INDEX oidc_sign_in_states_expires_idx ON oidc_sign_in_states (expires_at);
