-- Invitations: a single-use link (only its SHA-256 is kept) that lets a person register with the role,
-- groups or wearer link chosen by the inviter. One live invitation per address: a new one replaces it.

CREATE TABLE invitations (
  id               text PRIMARY KEY,
  email            text NOT NULL CHECK (email = lower(email)),
  role             text NOT NULL CHECK (role IN ('ALL_OWNER','ALL_GENERAL','ORGANIZATION_OWNER',
                     'ORGANIZATION_GENERAL','ORGANIZATION_GROUP','PERSONAL')),
  -- The organisation the person joins (staff) or whose wearer they watch (family); NULL for platform staff.
  organization_id  text REFERENCES organizations(id) ON DELETE CASCADE,
  group_ids        text[] NOT NULL DEFAULT '{}',
  wearer_id        text REFERENCES users(id) ON DELETE CASCADE,
  name             text,
  locale           text NOT NULL DEFAULT 'ja' CHECK (locale IN ('ja','en')),
  invited_by       text REFERENCES users(id) ON DELETE SET NULL,
  token_hash       text NOT NULL UNIQUE,
  expires_at       timestamptz NOT NULL,
  used_at          timestamptz,
  -- A newer invitation to the same address (or a resend) ended this one.
  replaced_at      timestamptz,
  created_at       timestamptz NOT NULL
);
-- Two invitations to one address at once: the second insert fails instead of both staying live.
CREATE UNIQUE INDEX invitations_live_email_idx ON invitations (email) WHERE used_at IS NULL AND replaced_at IS NULL;
CREATE INDEX invitations_organization_idx ON invitations (organization_id, created_at DESC)
  WHERE used_at IS NULL AND replaced_at IS NULL;

-- The staff list of a large organisation, by name, without reading its wearers.
CREATE INDEX users_staff_name_idx ON users (organization_id, name, id)
  WHERE deleted_at IS NULL AND role IN ('ORGANIZATION_OWNER','ORGANIZATION_GENERAL','ORGANIZATION_GROUP');
