-- Organisations, their groups, people (staff, personal users, wearers) and sign-in state.

CREATE TABLE organizations (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE groups (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name             text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, name)
);
CREATE INDEX groups_organization_idx ON groups (organization_id);

-- Every person is a user (uid). role NULL: a monitored wearer without console access.
-- Platform staff (ALL_*) and PERSONAL users have no organization.
CREATE TABLE users (
  id                text PRIMARY KEY,
  organization_id   text REFERENCES organizations(id) ON DELETE CASCADE,
  role              text CHECK (role IN ('ALL_OWNER','ALL_GENERAL','ORGANIZATION_OWNER',
                      'ORGANIZATION_GENERAL','ORGANIZATION_GROUP','PERSONAL','PERSONAL_SELF')),
  name              text NOT NULL,
  email             text UNIQUE,
  email_verified    boolean NOT NULL DEFAULT false,
  phone_number      text,
  password_hash     text,
  -- A wearer's group and birth date (age drives heart-rate limits).
  group_id          text REFERENCES groups(id) ON DELETE SET NULL,
  birth_date        date,
  deleted_at        timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  CHECK (email IS NULL OR email = lower(email))
);
CREATE INDEX users_organization_idx ON users (organization_id);
CREATE INDEX users_group_idx ON users (group_id);

-- ORGANIZATION_GROUP managers and the groups they manage.
CREATE TABLE group_managers (
  group_id  text NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
  user_id   text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, user_id)
);
CREATE INDEX group_managers_user_idx ON group_managers (user_id);

-- PERSONAL users and the wearers they watch (PERSONAL_SELF is linked to themself).
CREATE TABLE user_links (
  user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  wearer_id  text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, wearer_id)
);
CREATE INDEX user_links_wearer_idx ON user_links (wearer_id);

CREATE TABLE terms_agreements (
  user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  version    text NOT NULL,
  agreed_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, version)
);

-- Rotating refresh tokens, stored as SHA-256 hashes. A family is one sign-in; reuse of a
-- rotated token revokes the whole family.
CREATE TABLE refresh_tokens (
  id           text PRIMARY KEY,
  user_id      text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  family_id    text NOT NULL,
  token_hash   text NOT NULL UNIQUE,
  expires_at   timestamptz NOT NULL,
  session_started_at timestamptz NOT NULL,
  rotated_at   timestamptz,
  revoked_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);

-- Failed sign-ins per account ('email:<address>') and per address ('ip:<addr>'), so limits
-- hold across several servers.
CREATE TABLE sign_in_failures (
  key           text PRIMARY KEY,
  failures      integer NOT NULL,
  window_start  timestamptz NOT NULL
);

-- Server-wide secrets generated on first start (the access-token signing key).
CREATE TABLE server_secrets (
  name        text PRIMARY KEY,
  value       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE gateways (
  id                text PRIMARY KEY,
  organization_id   text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  group_id          text REFERENCES groups(id) ON DELETE SET NULL,
  type              text NOT NULL CHECK (type IN ('STATIONARY','SMARTPHONE')),
  serial_number     text NOT NULL UNIQUE,
  name              text NOT NULL,
  -- SHA-256 of the gateway's credential; the credential itself is shown once at creation.
  credential_hash   text NOT NULL,
  last_seen_at      timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX gateways_organization_idx ON gateways (organization_id);

-- Bracelets. wearer_id: who wears it now; gateway_id: the gateway it reports through.
CREATE TABLE bracelets (
  id                    text PRIMARY KEY,
  organization_id       text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  serial_number         text NOT NULL UNIQUE,
  device_name           text NOT NULL,
  firmware              text,
  battery               integer CHECK (battery BETWEEN 0 AND 100),
  heart_rate_duty_cycle integer NOT NULL DEFAULT 1 CHECK (heart_rate_duty_cycle IN (1,3,5,10)),
  wearer_id             text UNIQUE REFERENCES users(id) ON DELETE SET NULL,
  gateway_id            text REFERENCES gateways(id) ON DELETE SET NULL,
  created_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bracelets_organization_idx ON bracelets (organization_id);
CREATE INDEX bracelets_gateway_idx ON bracelets (gateway_id);
