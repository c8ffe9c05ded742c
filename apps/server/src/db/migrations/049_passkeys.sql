-- Passkeys (WebAuthn) and an organisation's second-factor policy for its staff (issue 39 item 4,
-- docs/decisions/0019-passkeys-and-second-factor-policy.md).

-- One row per registered passkey. credential_id and public_key are base64url (the COSE key as the
-- authenticator gave it); counter is the signature counter of the last accepted assertion (0 for
-- authenticators that keep none); name is the person's own ("仕事用ノートPC").
CREATE TABLE user_passkeys (
  id             text PRIMARY KEY,
  user_id        text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  credential_id  text NOT NULL UNIQUE,
  public_key     text NOT NULL,
  counter        bigint NOT NULL DEFAULT 0,
  transports     text[] NOT NULL DEFAULT '{}',
  name           text NOT NULL,
  created_at     timestamptz NOT NULL,
  last_used_at   timestamptz
);
CREATE INDEX user_passkeys_user_idx ON user_passkeys (user_id);

-- The WebAuthn challenges handed out, single-use and short-lived: only their SHA-256 is kept. user_id is
-- NULL for a sign-in without a name typed (the passkey says whose it is). REGISTER: from the account page;
-- SIGN_IN: the login page's button; SECOND_FACTOR: a sign-in's second step; ENROL: the enrolment the
-- organisation requires, during sign-in.
CREATE TABLE passkey_challenges (
  challenge_hash  text PRIMARY KEY,
  purpose         text NOT NULL CHECK (purpose IN ('REGISTER','SIGN_IN','SECOND_FACTOR','ENROL')),
  user_id         text REFERENCES users(id) ON DELETE CASCADE,
  expires_at      timestamptz NOT NULL,
  created_at      timestamptz NOT NULL
);
CREATE INDEX passkey_challenges_expires_idx ON passkey_challenges (expires_at);

-- A sign-in's second step may now be a passkey, or the enrolment of a second factor the organisation requires.
ALTER TABLE sign_in_challenges DROP CONSTRAINT sign_in_challenges_purpose_check;
ALTER TABLE sign_in_challenges ADD CONSTRAINT sign_in_challenges_purpose_check CHECK (purpose IN
  ('TOTP_REQUIRED','TOTP_ENROLMENT_REQUIRED','PASSKEY_REQUIRED','SECOND_FACTOR_ENROLMENT_REQUIRED','OIDC_EXCHANGE'));

-- The staff must use a second factor (a passkey or TOTP); those without one sign in, told to enrol, until
-- second_factor_required_since + second_factor_grace_days, and must enrol at sign-in after that.
ALTER TABLE organizations
  ADD COLUMN require_second_factor boolean NOT NULL DEFAULT false,
  ADD COLUMN second_factor_grace_days integer NOT NULL DEFAULT 0
    CHECK (second_factor_grace_days BETWEEN 0 AND 90),
  ADD COLUMN second_factor_required_since timestamptz;
